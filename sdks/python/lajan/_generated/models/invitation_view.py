from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="InvitationView")


@_attrs_define
class InvitationView:
    """A client's invitation to register a wallet.

    Attributes:
        client_id (str):  Example: cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        created_at (datetime.datetime):
        object_ (str): Always `invitation`. Example: invitation.
        sends (int): How many times it was sent, by the schedule or by hand; each send carries a new link. Example: 1.
        status (str): `invited` (a payout waits; the receiver has a link), `registered` (they gave a wallet),
            `locked` (too many wrong answers; the organization unlocks it) or `expired` (no payout
            waits any more; the links are dead). Example: invited.
        last_sent_at (datetime.datetime | None | Unset):
        locked_at (datetime.datetime | None | Unset):
        next_send_at (datetime.datetime | None | Unset): When it is sent again unless the receiver registers first; null
            once the settings'
            `invitationResends` are spent.
        registered_at (datetime.datetime | None | Unset):
    """

    client_id: str
    created_at: datetime.datetime
    object_: str
    sends: int
    status: str
    last_sent_at: datetime.datetime | None | Unset = UNSET
    locked_at: datetime.datetime | None | Unset = UNSET
    next_send_at: datetime.datetime | None | Unset = UNSET
    registered_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        created_at = self.created_at.isoformat()

        object_ = self.object_

        sends = self.sends

        status = self.status

        last_sent_at: None | str | Unset
        if isinstance(self.last_sent_at, Unset):
            last_sent_at = UNSET
        elif isinstance(self.last_sent_at, datetime.datetime):
            last_sent_at = self.last_sent_at.isoformat()
        else:
            last_sent_at = self.last_sent_at

        locked_at: None | str | Unset
        if isinstance(self.locked_at, Unset):
            locked_at = UNSET
        elif isinstance(self.locked_at, datetime.datetime):
            locked_at = self.locked_at.isoformat()
        else:
            locked_at = self.locked_at

        next_send_at: None | str | Unset
        if isinstance(self.next_send_at, Unset):
            next_send_at = UNSET
        elif isinstance(self.next_send_at, datetime.datetime):
            next_send_at = self.next_send_at.isoformat()
        else:
            next_send_at = self.next_send_at

        registered_at: None | str | Unset
        if isinstance(self.registered_at, Unset):
            registered_at = UNSET
        elif isinstance(self.registered_at, datetime.datetime):
            registered_at = self.registered_at.isoformat()
        else:
            registered_at = self.registered_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "clientId": client_id,
                "createdAt": created_at,
                "object": object_,
                "sends": sends,
                "status": status,
            }
        )
        if last_sent_at is not UNSET:
            field_dict["lastSentAt"] = last_sent_at
        if locked_at is not UNSET:
            field_dict["lockedAt"] = locked_at
        if next_send_at is not UNSET:
            field_dict["nextSendAt"] = next_send_at
        if registered_at is not UNSET:
            field_dict["registeredAt"] = registered_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        object_ = d.pop("object")

        sends = d.pop("sends")

        status = d.pop("status")

        def _parse_last_sent_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_sent_at = _parse_last_sent_at(d.pop("lastSentAt", UNSET))

        def _parse_locked_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                locked_at_type_0 = datetime.datetime.fromisoformat(data)

                return locked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        locked_at = _parse_locked_at(d.pop("lockedAt", UNSET))

        def _parse_next_send_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_send_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_send_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_send_at = _parse_next_send_at(d.pop("nextSendAt", UNSET))

        def _parse_registered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                registered_at_type_0 = datetime.datetime.fromisoformat(data)

                return registered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        registered_at = _parse_registered_at(d.pop("registeredAt", UNSET))

        invitation_view = cls(
            client_id=client_id,
            created_at=created_at,
            object_=object_,
            sends=sends,
            status=status,
            last_sent_at=last_sent_at,
            locked_at=locked_at,
            next_send_at=next_send_at,
            registered_at=registered_at,
        )

        invitation_view.additional_properties = d
        return invitation_view

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
