from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LineItemBody")


@_attrs_define
class LineItemBody:
    """
    Attributes:
        description (str):  Example: Loan processing fee.
        quantity (Decimal): Greater than 0, at most 4 decimal places. Example: 3.
        unit_price (Decimal): At most 2 decimal places; read exactly. Example: 19.99.
        tax_rate (Decimal | None | Unset): Percent, 0 to 100, at most 3 decimal places; default: the organization's
            `defaultTaxRate`. Example: 10.
    """

    description: str
    quantity: Decimal
    unit_price: Decimal
    tax_rate: Decimal | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        quantity = self.quantity

        unit_price = self.unit_price

        tax_rate: Decimal | None | Unset
        if isinstance(self.tax_rate, Unset):
            tax_rate = UNSET
        else:
            tax_rate = self.tax_rate

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "description": description,
                "quantity": quantity,
                "unitPrice": unit_price,
            }
        )
        if tax_rate is not UNSET:
            field_dict["taxRate"] = tax_rate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        description = d.pop("description")

        quantity = d.pop("quantity")

        unit_price = d.pop("unitPrice")

        def _parse_tax_rate(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        tax_rate = _parse_tax_rate(d.pop("taxRate", UNSET))

        line_item_body = cls(
            description=description,
            quantity=quantity,
            unit_price=unit_price,
            tax_rate=tax_rate,
        )

        return line_item_body
