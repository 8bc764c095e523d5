from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CreditLineView")


@_attrs_define
class CreditLineView:
    """Units of one of the invoice's line items a credit note took back.

    Attributes:
        amount (str): What they came to, tax included. Example: 150.00.
        description (str):  Example: Late fee.
        line_item (int): The line's place in the invoice's `lineItems`, from 1. Example: 1.
        quantity (str): How many of its units, as a decimal string. Example: 1.
    """

    amount: str
    description: str
    line_item: int
    quantity: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        description = self.description

        line_item = self.line_item

        quantity = self.quantity

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "description": description,
                "lineItem": line_item,
                "quantity": quantity,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        description = d.pop("description")

        line_item = d.pop("lineItem")

        quantity = d.pop("quantity")

        credit_line_view = cls(
            amount=amount,
            description=description,
            line_item=line_item,
            quantity=quantity,
        )

        credit_line_view.additional_properties = d
        return credit_line_view

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
