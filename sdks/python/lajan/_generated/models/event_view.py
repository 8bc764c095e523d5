from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_view_type import EventViewType

if TYPE_CHECKING:
    from ..models.actor_view import ActorView
    from ..models.event_view_data import EventViewData


T = TypeVar("T", bound="EventView")


@_attrs_define
class EventView:
    """Something that happened: `data.object` is the resource as the API showed it right after.

    Attributes:
        actor (ActorView): Who made the change: the API key (its id, never its secret), the console user, or Lajan
            itself (`system`: `worker` for background work such as payouts sent and invoices gone
            overdue, `payment_page` for a payer on the hosted page, `unrecorded` for events written
            before actors were recorded).
        created_at (datetime.datetime):
        data (EventViewData): `{ "object": <resource> }`.
        id (str):  Example: evt_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        livemode (bool): False for sandbox (`sk_test_`) data.
        type_ (EventViewType): e.g. `client.created`, `client.updated`, `client.deleted`. Example: client.created.
    """

    actor: ActorView
    created_at: datetime.datetime
    data: EventViewData
    id: str
    livemode: bool
    type_: EventViewType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actor = self.actor.to_dict()

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        id = self.id

        livemode = self.livemode

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor": actor,
                "createdAt": created_at,
                "data": data,
                "id": id,
                "livemode": livemode,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor_view import ActorView
        from ..models.event_view_data import EventViewData

        d = dict(src_dict)
        actor = ActorView.from_dict(d.pop("actor"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = EventViewData.from_dict(d.pop("data"))

        id = d.pop("id")

        livemode = d.pop("livemode")

        type_ = EventViewType(d.pop("type"))

        event_view = cls(
            actor=actor,
            created_at=created_at,
            data=data,
            id=id,
            livemode=livemode,
            type_=type_,
        )

        event_view.additional_properties = d
        return event_view

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
