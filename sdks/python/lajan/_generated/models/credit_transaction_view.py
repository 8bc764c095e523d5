from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor_view import ActorView


T = TypeVar("T", bound="CreditTransactionView")


@_attrs_define
class CreditTransactionView:
    """One move of a client's credit balance.

    Attributes:
        actor (ActorView): Who made the change: the API key (its id, never its secret), the console user, or Lajan
            itself (`system`: `worker` for background work such as payouts sent and invoices gone
            overdue, `payment_page` for a payer on the hosted page, `unrecorded` for events written
            before actors were recorded).
        amount (str): A signed decimal string: positive adds to the balance, negative takes from it. Example: 150.00.
        balance_after (str): The balance in this currency once this move was made. Example: 150.00.
        cause (str): Why: `overpayment` (a payment beyond what the invoice asks for), `payment_reversed` (a
            reversal took an overpayment back), `invoice_voided` (what a voided invoice received),
            `credit_note` (a credit note lowered an invoice below what it received),
            `credit_note_voided` (a credit note voided took that back), `applied` (it paid an invoice
            created with `applyCreditBalance`, as a payment of method `credit_balance`),
            `unapplied` (such a payment reversed gave it back). Example: overpayment.
        client_id (str):  Example: cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        created_at (datetime.datetime):
        currency (str):  Example: HTG.
        id (str):  Example: cbt_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        invoice_id (None | str | Unset): The invoice whose money moved it, or that it paid. Example:
            inv_01a1fc8be56c7228a813c8461b65a699.
    """

    actor: ActorView
    amount: str
    balance_after: str
    cause: str
    client_id: str
    created_at: datetime.datetime
    currency: str
    id: str
    invoice_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actor = self.actor.to_dict()

        amount = self.amount

        balance_after = self.balance_after

        cause = self.cause

        client_id = self.client_id

        created_at = self.created_at.isoformat()

        currency = self.currency

        id = self.id

        invoice_id: None | str | Unset
        if isinstance(self.invoice_id, Unset):
            invoice_id = UNSET
        else:
            invoice_id = self.invoice_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor": actor,
                "amount": amount,
                "balanceAfter": balance_after,
                "cause": cause,
                "clientId": client_id,
                "createdAt": created_at,
                "currency": currency,
                "id": id,
            }
        )
        if invoice_id is not UNSET:
            field_dict["invoiceId"] = invoice_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor_view import ActorView

        d = dict(src_dict)
        actor = ActorView.from_dict(d.pop("actor"))

        amount = d.pop("amount")

        balance_after = d.pop("balanceAfter")

        cause = d.pop("cause")

        client_id = d.pop("clientId")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        currency = d.pop("currency")

        id = d.pop("id")

        def _parse_invoice_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        invoice_id = _parse_invoice_id(d.pop("invoiceId", UNSET))

        credit_transaction_view = cls(
            actor=actor,
            amount=amount,
            balance_after=balance_after,
            cause=cause,
            client_id=client_id,
            created_at=created_at,
            currency=currency,
            id=id,
            invoice_id=invoice_id,
        )

        credit_transaction_view.additional_properties = d
        return credit_transaction_view

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
