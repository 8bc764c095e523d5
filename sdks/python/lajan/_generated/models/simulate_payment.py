from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SimulatePayment")


@_attrs_define
class SimulatePayment:
    """
    Attributes:
        amount (Decimal | None | Unset): How much the simulated customer pays; default: what is still due. Less underpays
            (the
            invoice stays unpaid), more overpays (it is paid and the excess recorded). Positive, at
            most 2 decimal places and at most 922337203685.47. Example: 100.
    """

    amount: Decimal | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount: Decimal | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_amount(data: object) -> Decimal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Decimal | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        simulate_payment = cls(
            amount=amount,
        )

        return simulate_payment
