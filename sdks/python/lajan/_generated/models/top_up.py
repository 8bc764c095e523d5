from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TopUp")


@_attrs_define
class TopUp:
    """
    Attributes:
        amount (Decimal): Positive, at most 2 decimals; the balance may not pass 922337203685.47. Example: 5000.
        asset_code (str): One of the sandbox assets: HTG, USD, USDC, USDT, EURC, XLM (case-sensitive). Example: USDC.
    """

    amount: Decimal
    asset_code: str

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        asset_code = self.asset_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "assetCode": asset_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        asset_code = d.pop("assetCode")

        top_up = cls(
            amount=amount,
            asset_code=asset_code,
        )

        return top_up
