from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.intent_state_status import IntentStateStatus

T = TypeVar("T", bound="IntentState")


@_attrs_define
class IntentState:
    """
    Attributes:
        amount (str):
        amount_received (str):
        id (str):
        status (IntentStateStatus): active, inactive, expired or paid.
    """

    amount: str
    amount_received: str
    id: str
    status: IntentStateStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        amount_received = self.amount_received

        id = self.id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "amountReceived": amount_received,
                "id": id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        amount_received = d.pop("amountReceived")

        id = d.pop("id")

        status = IntentStateStatus(d.pop("status"))

        intent_state = cls(
            amount=amount,
            amount_received=amount_received,
            id=id,
            status=status,
        )

        intent_state.additional_properties = d
        return intent_state

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
