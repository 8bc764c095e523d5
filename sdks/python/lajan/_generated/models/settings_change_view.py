from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor_view import ActorView
    from ..models.settings_change_view_changes import SettingsChangeViewChanges
    from ..models.settings_change_view_previous import SettingsChangeViewPrevious


T = TypeVar("T", bound="SettingsChangeView")


@_attrs_define
class SettingsChangeView:
    """A change of the settings: what was asked, by whom, and what came of it. A change that lets
    payouts go with fewer people (`payoutApprovalRequired` off, or `requireDistinctApprover`
    off) is `pending` until another person or key with approval rights confirms it, within
    72 hours (`expiresAt`), or it is cancelled, replaced by a later policy change (`superseded`)
    or `lapsed`. `unconfirmed`: it applied at once because nobody else had approval rights.

        Attributes:
            changes (SettingsChangeViewChanges): Each field the change sets, with the value asked for.
            id (str):  Example: stc_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
            previous (SettingsChangeViewPrevious): The value of each of those fields when it was asked.
            requested_at (datetime.datetime):
            requested_by (ActorView): Who made the change: the API key (its id, never its secret), the console user, or
                Lajan
                itself (`system`: `worker` for background work such as payouts sent and invoices gone
                overdue, `payment_page` for a payer on the hosted page, `unrecorded` for events written
                before actors were recorded).
            status (str):  Example: pending.
            decided_at (datetime.datetime | None | Unset):
            decided_by (ActorView | None | Unset):
            expires_at (datetime.datetime | None | Unset): When a pending change lapses unless confirmed; null for one that
                never waited.
    """

    changes: SettingsChangeViewChanges
    id: str
    previous: SettingsChangeViewPrevious
    requested_at: datetime.datetime
    requested_by: ActorView
    status: str
    decided_at: datetime.datetime | None | Unset = UNSET
    decided_by: ActorView | None | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.actor_view import ActorView

        changes = self.changes.to_dict()

        id = self.id

        previous = self.previous.to_dict()

        requested_at = self.requested_at.isoformat()

        requested_by = self.requested_by.to_dict()

        status = self.status

        decided_at: None | str | Unset
        if isinstance(self.decided_at, Unset):
            decided_at = UNSET
        elif isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        decided_by: dict[str, Any] | None | Unset
        if isinstance(self.decided_by, Unset):
            decided_by = UNSET
        elif isinstance(self.decided_by, ActorView):
            decided_by = self.decided_by.to_dict()
        else:
            decided_by = self.decided_by

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
                "id": id,
                "previous": previous,
                "requestedAt": requested_at,
                "requestedBy": requested_by,
                "status": status,
            }
        )
        if decided_at is not UNSET:
            field_dict["decidedAt"] = decided_at
        if decided_by is not UNSET:
            field_dict["decidedBy"] = decided_by
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor_view import ActorView
        from ..models.settings_change_view_changes import SettingsChangeViewChanges
        from ..models.settings_change_view_previous import SettingsChangeViewPrevious

        d = dict(src_dict)
        changes = SettingsChangeViewChanges.from_dict(d.pop("changes"))

        id = d.pop("id")

        previous = SettingsChangeViewPrevious.from_dict(d.pop("previous"))

        requested_at = datetime.datetime.fromisoformat(d.pop("requestedAt"))

        requested_by = ActorView.from_dict(d.pop("requestedBy"))

        status = d.pop("status")

        def _parse_decided_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        decided_at = _parse_decided_at(d.pop("decidedAt", UNSET))

        def _parse_decided_by(data: object) -> ActorView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decided_by_type_1 = ActorView.from_dict(data)

                return decided_by_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ActorView | None | Unset, data)

        decided_by = _parse_decided_by(d.pop("decidedBy", UNSET))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))

        settings_change_view = cls(
            changes=changes,
            id=id,
            previous=previous,
            requested_at=requested_at,
            requested_by=requested_by,
            status=status,
            decided_at=decided_at,
            decided_by=decided_by,
            expires_at=expires_at,
        )

        settings_change_view.additional_properties = d
        return settings_change_view

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
