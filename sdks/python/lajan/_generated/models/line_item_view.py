from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LineItemView")


@_attrs_define
class LineItemView:
    """
    Attributes:
        amount (str): quantity x unitPrice, rounded half-up to the cent. Example: 59.97.
        description (str):
        quantity (Decimal):  Example: 3.
        tax_rate (Decimal): Percent applied to this line (the organization's default when the request named none).
            Example: 0.
        unit_price (str):  Example: 19.99.
    """

    amount: str
    description: str
    quantity: Decimal
    tax_rate: Decimal
    unit_price: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        description = self.description

        quantity = self.quantity

        tax_rate = self.tax_rate

        unit_price = self.unit_price

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "description": description,
                "quantity": quantity,
                "taxRate": tax_rate,
                "unitPrice": unit_price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        description = d.pop("description")

        quantity = d.pop("quantity")

        tax_rate = d.pop("taxRate")

        unit_price = d.pop("unitPrice")

        line_item_view = cls(
            amount=amount,
            description=description,
            quantity=quantity,
            tax_rate=tax_rate,
            unit_price=unit_price,
        )

        line_item_view.additional_properties = d
        return line_item_view

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
