from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecordPayment")


@_attrs_define
class RecordPayment:
    """A payment received outside Lajan.

    Attributes:
        amount (Decimal): In the invoice's currency: positive, at most 2 decimal places; read exactly. More than is
            due is counted too (the invoice is paid, and the excess, `amountOverpaid`, is held on the
            client's credit balance). Example: 500.
        method (str): How it was paid: `cash`, `moncash`, `natcash` or `bank_transfer` (Stellar payments are
            counted from the ledger). Example: cash.
        paid_at (None | str | Unset): When it was paid, RFC 3339, not in the future; default: now. Example:
            2026-11-28T14:30:00-05:00.
        reference (None | str | Unset): What the payer's proof says (a receipt number, a MonCash transaction id): at
            most 100
            characters. Example: REC-2026-0042.
    """

    amount: Decimal
    method: str
    paid_at: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        method = self.method

        paid_at: None | str | Unset
        if isinstance(self.paid_at, Unset):
            paid_at = UNSET
        else:
            paid_at = self.paid_at

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "method": method,
            }
        )
        if paid_at is not UNSET:
            field_dict["paidAt"] = paid_at
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        method = d.pop("method")

        def _parse_paid_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        paid_at = _parse_paid_at(d.pop("paidAt", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        record_payment = cls(
            amount=amount,
            method=method,
            paid_at=paid_at,
            reference=reference,
        )

        return record_payment
