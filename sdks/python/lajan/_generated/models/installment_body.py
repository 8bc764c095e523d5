from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="InstallmentBody")


@_attrs_define
class InstallmentBody:
    """One part of the total, due on its date.

    Attributes:
        amount (Decimal): Greater than 0, at most 2 decimal places; read exactly. Example: 1250.
        due_date (str): `YYYY-MM-DD`, after the instalment before it. Example: 2027-01-31.
    """

    amount: Decimal
    due_date: str

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        due_date = self.due_date

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "dueDate": due_date,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        due_date = d.pop("dueDate")

        installment_body = cls(
            amount=amount,
            due_date=due_date,
        )

        return installment_body
