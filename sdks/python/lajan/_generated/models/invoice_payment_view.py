from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor_view import ActorView


T = TypeVar("T", bound="InvoicePaymentView")


@_attrs_define
class InvoicePaymentView:
    """A payment counted on an invoice.

    Attributes:
        amount (str): What the payment counts for, in the invoice's currency, as a decimal string. Example: 500.00.
        currency (str):  Example: HTG.
        id (str):  Example: ipy_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        invoice_id (str):  Example: inv_01a1fc8be56c7228a813c8461b65a699.
        method (str): `stellar`: a payment on the Stellar network carrying the invoice's reference; `cash`,
            `moncash`, `natcash`, `bank_transfer`: recorded as received outside Lajan;
            `credit_balance`: taken from the client's credit balance (`applyCreditBalance`). Example: stellar.
        paid_at (datetime.datetime): When the payer paid (a `stellar` payment: when Lajan saw it on the ledger).
        recorded_at (datetime.datetime): When Lajan counted it.
        recorded_by (ActorView): Who made the change: the API key (its id, never its secret), the console user, or Lajan
            itself (`system`: `worker` for background work such as payouts sent and invoices gone
            overdue, `payment_page` for a payer on the hosted page, `unrecorded` for events written
            before actors were recorded).
        reference (None | str | Unset): The Stellar transaction's hash for a `stellar` payment, the receipt's number for
            one
            received outside Lajan, the credit balance transaction (`cbt_…`) for `credit_balance`. Example:
            3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889.
        reversal_reason (None | str | Unset):
        reversed_at (datetime.datetime | None | Unset): When it stopped counting, if it was reversed.
    """

    amount: str
    currency: str
    id: str
    invoice_id: str
    method: str
    paid_at: datetime.datetime
    recorded_at: datetime.datetime
    recorded_by: ActorView
    reference: None | str | Unset = UNSET
    reversal_reason: None | str | Unset = UNSET
    reversed_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        currency = self.currency

        id = self.id

        invoice_id = self.invoice_id

        method = self.method

        paid_at = self.paid_at.isoformat()

        recorded_at = self.recorded_at.isoformat()

        recorded_by = self.recorded_by.to_dict()

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        reversal_reason: None | str | Unset
        if isinstance(self.reversal_reason, Unset):
            reversal_reason = UNSET
        else:
            reversal_reason = self.reversal_reason

        reversed_at: None | str | Unset
        if isinstance(self.reversed_at, Unset):
            reversed_at = UNSET
        elif isinstance(self.reversed_at, datetime.datetime):
            reversed_at = self.reversed_at.isoformat()
        else:
            reversed_at = self.reversed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "currency": currency,
                "id": id,
                "invoiceId": invoice_id,
                "method": method,
                "paidAt": paid_at,
                "recordedAt": recorded_at,
                "recordedBy": recorded_by,
            }
        )
        if reference is not UNSET:
            field_dict["reference"] = reference
        if reversal_reason is not UNSET:
            field_dict["reversalReason"] = reversal_reason
        if reversed_at is not UNSET:
            field_dict["reversedAt"] = reversed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor_view import ActorView

        d = dict(src_dict)
        amount = d.pop("amount")

        currency = d.pop("currency")

        id = d.pop("id")

        invoice_id = d.pop("invoiceId")

        method = d.pop("method")

        paid_at = datetime.datetime.fromisoformat(d.pop("paidAt"))

        recorded_at = datetime.datetime.fromisoformat(d.pop("recordedAt"))

        recorded_by = ActorView.from_dict(d.pop("recordedBy"))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        def _parse_reversal_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reversal_reason = _parse_reversal_reason(d.pop("reversalReason", UNSET))

        def _parse_reversed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reversed_at_type_0 = datetime.datetime.fromisoformat(data)

                return reversed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        reversed_at = _parse_reversed_at(d.pop("reversedAt", UNSET))

        invoice_payment_view = cls(
            amount=amount,
            currency=currency,
            id=id,
            invoice_id=invoice_id,
            method=method,
            paid_at=paid_at,
            recorded_at=recorded_at,
            recorded_by=recorded_by,
            reference=reference,
            reversal_reason=reversal_reason,
            reversed_at=reversed_at,
        )

        invoice_payment_view.additional_properties = d
        return invoice_payment_view

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
