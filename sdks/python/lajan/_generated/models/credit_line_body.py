from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreditLineBody")


@_attrs_define
class CreditLineBody:
    """Units of one of the invoice's line items to take back.

    Attributes:
        line_item (int): The line's place in the invoice's `lineItems`, from 1. Example: 1.
        quantity (Decimal | Unset): How many of its units: greater than 0, at most 4 decimal places, at most what earlier
            credit notes left of the line. Left out: all that is left of it. Example: 1.
    """

    line_item: int
    quantity: Decimal | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        line_item = self.line_item

        quantity = self.quantity

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "lineItem": line_item,
            }
        )
        if quantity is not UNSET:
            field_dict["quantity"] = quantity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        line_item = d.pop("lineItem")

        quantity = d.pop("quantity", UNSET)

        credit_line_body = cls(
            line_item=line_item,
            quantity=quantity,
        )

        return credit_line_body
