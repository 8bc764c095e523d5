from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="InstallmentView")


@_attrs_define
class InstallmentView:
    """One part of an invoice's total, with what was paid of it.

    Attributes:
        amount (str):  Example: 1250.00.
        amount_credited (str): What credit notes took off it (they shorten the plan from its end). Example: 0.00.
        amount_paid (str):  Example: 500.00.
        amount_remaining (str):  Example: 750.00.
        due_date (str):  Example: 2027-02-28.
        number (int): Its place in the plan, from 1. Example: 2.
    """

    amount: str
    amount_credited: str
    amount_paid: str
    amount_remaining: str
    due_date: str
    number: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        amount_credited = self.amount_credited

        amount_paid = self.amount_paid

        amount_remaining = self.amount_remaining

        due_date = self.due_date

        number = self.number

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "amountCredited": amount_credited,
                "amountPaid": amount_paid,
                "amountRemaining": amount_remaining,
                "dueDate": due_date,
                "number": number,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        amount_credited = d.pop("amountCredited")

        amount_paid = d.pop("amountPaid")

        amount_remaining = d.pop("amountRemaining")

        due_date = d.pop("dueDate")

        number = d.pop("number")

        installment_view = cls(
            amount=amount,
            amount_credited=amount_credited,
            amount_paid=amount_paid,
            amount_remaining=amount_remaining,
            due_date=due_date,
            number=number,
        )

        installment_view.additional_properties = d
        return installment_view

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
