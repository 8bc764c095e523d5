from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_view_event_type import DeliveryViewEventType
from ..models.delivery_view_status import DeliveryViewStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_attempt_view import DeliveryAttemptView


T = TypeVar("T", bound="DeliveryDetail")


@_attrs_define
class DeliveryDetail:
    """A delivery with every attempt, oldest first.

    Attributes:
        attempt_count (int): How many times it was sent (the detail lists each try as `attempts`).
        created_at (datetime.datetime):
        endpoint_id (str):
        event_id (str): The event's id: the `webhook-id` header of every attempt.
        event_type (DeliveryViewEventType):  Example: invoice.paid.
        id (str):  Example: whd_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        status (DeliveryViewStatus): `pending` (to be sent, or sent again at `nextAttemptAt`), `delivered` or `failed`.
            Example: pending.
        updated_at (datetime.datetime):
        attempts (list[DeliveryAttemptView]):
        next_attempt_at (datetime.datetime | None | Unset): When it is sent next, while `pending`.
    """

    attempt_count: int
    created_at: datetime.datetime
    endpoint_id: str
    event_id: str
    event_type: DeliveryViewEventType
    id: str
    status: DeliveryViewStatus
    updated_at: datetime.datetime
    attempts: list[DeliveryAttemptView]
    next_attempt_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_count = self.attempt_count

        created_at = self.created_at.isoformat()

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type = self.event_type.value

        id = self.id

        status = self.status.value

        updated_at = self.updated_at.isoformat()

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        next_attempt_at: None | str | Unset
        if isinstance(self.next_attempt_at, Unset):
            next_attempt_at = UNSET
        elif isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptCount": attempt_count,
                "createdAt": created_at,
                "endpointId": endpoint_id,
                "eventId": event_id,
                "eventType": event_type,
                "id": id,
                "status": status,
                "updatedAt": updated_at,
                "attempts": attempts,
            }
        )
        if next_attempt_at is not UNSET:
            field_dict["nextAttemptAt"] = next_attempt_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_attempt_view import DeliveryAttemptView

        d = dict(src_dict)
        attempt_count = d.pop("attemptCount")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        event_type = DeliveryViewEventType(d.pop("eventType"))

        id = d.pop("id")

        status = DeliveryViewStatus(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = DeliveryAttemptView.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt", UNSET))

        delivery_detail = cls(
            attempt_count=attempt_count,
            created_at=created_at,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            id=id,
            status=status,
            updated_at=updated_at,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
        )

        delivery_detail.additional_properties = d
        return delivery_detail

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
