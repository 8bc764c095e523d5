from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.actor_kind import ActorKind

T = TypeVar("T", bound="ActorView")


@_attrs_define
class ActorView:
    """Who made the change: the API key (its id, never its secret), the console user, or Lajan
    itself (`system`: `worker` for background work such as payouts sent and invoices gone
    overdue, `payment_page` for a payer on the hosted page, `unrecorded` for events written
    before actors were recorded).

        Attributes:
            id (str):  Example: key_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
            type_ (ActorKind):
    """

    id: str
    type_: ActorKind
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = ActorKind(d.pop("type"))

        actor_view = cls(
            id=id,
            type_=type_,
        )

        actor_view.additional_properties = d
        return actor_view

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
