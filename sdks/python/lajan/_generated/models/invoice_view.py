from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.invoice_view_currency import InvoiceViewCurrency
from ..models.invoice_view_status import InvoiceViewStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.client_contact import ClientContact
    from ..models.installment_view import InstallmentView
    from ..models.line_item_view import LineItemView
    from ..models.payment_link_ref import PaymentLinkRef


T = TypeVar("T", bound="InvoiceView")


@_attrs_define
class InvoiceView:
    """An invoice in full.

    Attributes:
        amount_credited (str): What its credit notes in force take off the total (`POST /v1/invoices/{id}/credit-
            notes`). Example: 0.00.
        amount_overpaid (str): What was paid beyond the total (all that was paid, once void): it is held on the client's
            credit balance (`GET /v1/clients/{id}/credit-balance`), never lost. Example: 0.00.
        amount_paid (str): Received so far through the payment link (may exceed the total after an overpayment):
            the sum of the invoice's payments (`GET /v1/invoices/{id}/payments`). Example: 500.00.
        amount_remaining (str): What is still due: the total less what was paid, never below 0.00; 0.00 once void.
            Example: 750.00.
        apply_credit_balance (bool): Whether its first send pays what it can from the client's credit balance in its
            currency (a payment of method `credit_balance`; paid in full by it, no message asks
            the client for anything).
        client (ClientContact): The client an invoice is addressed to.
        client_id (str):
        created_at (datetime.datetime):
        currency (InvoiceViewCurrency):
        due_date (datetime.date):
        id (str):
        installments (list[InstallmentView]): The parts the total is due in, oldest first, each with what was paid of it
            (payments fill
            the oldest first); empty when it is due at once on `dueDate`.
        invoice_number (str):
        line_items (list[LineItemView]):
        payment_link (PaymentLinkRef):
        status (InvoiceViewStatus):
        subtotal (str):
        tax (str):
        total (str):
        updated_at (datetime.datetime):
        memo (None | str | Unset):
        next_installment (InstallmentView | None | Unset):
        paid_at (datetime.datetime | None | Unset):
        sent_at (datetime.datetime | None | Unset):
    """

    amount_credited: str
    amount_overpaid: str
    amount_paid: str
    amount_remaining: str
    apply_credit_balance: bool
    client: ClientContact
    client_id: str
    created_at: datetime.datetime
    currency: InvoiceViewCurrency
    due_date: datetime.date
    id: str
    installments: list[InstallmentView]
    invoice_number: str
    line_items: list[LineItemView]
    payment_link: PaymentLinkRef
    status: InvoiceViewStatus
    subtotal: str
    tax: str
    total: str
    updated_at: datetime.datetime
    memo: None | str | Unset = UNSET
    next_installment: InstallmentView | None | Unset = UNSET
    paid_at: datetime.datetime | None | Unset = UNSET
    sent_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.installment_view import InstallmentView

        amount_credited = self.amount_credited

        amount_overpaid = self.amount_overpaid

        amount_paid = self.amount_paid

        amount_remaining = self.amount_remaining

        apply_credit_balance = self.apply_credit_balance

        client = self.client.to_dict()

        client_id = self.client_id

        created_at = self.created_at.isoformat()

        currency = self.currency.value

        due_date = self.due_date.isoformat()

        id = self.id

        installments = []
        for installments_item_data in self.installments:
            installments_item = installments_item_data.to_dict()
            installments.append(installments_item)

        invoice_number = self.invoice_number

        line_items = []
        for line_items_item_data in self.line_items:
            line_items_item = line_items_item_data.to_dict()
            line_items.append(line_items_item)

        payment_link = self.payment_link.to_dict()

        status = self.status.value

        subtotal = self.subtotal

        tax = self.tax

        total = self.total

        updated_at = self.updated_at.isoformat()

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        next_installment: dict[str, Any] | None | Unset
        if isinstance(self.next_installment, Unset):
            next_installment = UNSET
        elif isinstance(self.next_installment, InstallmentView):
            next_installment = self.next_installment.to_dict()
        else:
            next_installment = self.next_installment

        paid_at: None | str | Unset
        if isinstance(self.paid_at, Unset):
            paid_at = UNSET
        elif isinstance(self.paid_at, datetime.datetime):
            paid_at = self.paid_at.isoformat()
        else:
            paid_at = self.paid_at

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        elif isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amountCredited": amount_credited,
                "amountOverpaid": amount_overpaid,
                "amountPaid": amount_paid,
                "amountRemaining": amount_remaining,
                "applyCreditBalance": apply_credit_balance,
                "client": client,
                "clientId": client_id,
                "createdAt": created_at,
                "currency": currency,
                "dueDate": due_date,
                "id": id,
                "installments": installments,
                "invoiceNumber": invoice_number,
                "lineItems": line_items,
                "paymentLink": payment_link,
                "status": status,
                "subtotal": subtotal,
                "tax": tax,
                "total": total,
                "updatedAt": updated_at,
            }
        )
        if memo is not UNSET:
            field_dict["memo"] = memo
        if next_installment is not UNSET:
            field_dict["nextInstallment"] = next_installment
        if paid_at is not UNSET:
            field_dict["paidAt"] = paid_at
        if sent_at is not UNSET:
            field_dict["sentAt"] = sent_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.client_contact import ClientContact
        from ..models.installment_view import InstallmentView
        from ..models.line_item_view import LineItemView
        from ..models.payment_link_ref import PaymentLinkRef

        d = dict(src_dict)
        amount_credited = d.pop("amountCredited")

        amount_overpaid = d.pop("amountOverpaid")

        amount_paid = d.pop("amountPaid")

        amount_remaining = d.pop("amountRemaining")

        apply_credit_balance = d.pop("applyCreditBalance")

        client = ClientContact.from_dict(d.pop("client"))

        client_id = d.pop("clientId")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        currency = InvoiceViewCurrency(d.pop("currency"))

        due_date = datetime.date.fromisoformat(d.pop("dueDate"))

        id = d.pop("id")

        installments = []
        _installments = d.pop("installments")
        for installments_item_data in _installments:
            installments_item = InstallmentView.from_dict(installments_item_data)

            installments.append(installments_item)

        invoice_number = d.pop("invoiceNumber")

        line_items = []
        _line_items = d.pop("lineItems")
        for line_items_item_data in _line_items:
            line_items_item = LineItemView.from_dict(line_items_item_data)

            line_items.append(line_items_item)

        payment_link = PaymentLinkRef.from_dict(d.pop("paymentLink"))

        status = InvoiceViewStatus(d.pop("status"))

        subtotal = d.pop("subtotal")

        tax = d.pop("tax")

        total = d.pop("total")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        def _parse_next_installment(data: object) -> InstallmentView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                next_installment_type_1 = InstallmentView.from_dict(data)

                return next_installment_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(InstallmentView | None | Unset, data)

        next_installment = _parse_next_installment(d.pop("nextInstallment", UNSET))

        def _parse_paid_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                paid_at_type_0 = datetime.datetime.fromisoformat(data)

                return paid_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        paid_at = _parse_paid_at(d.pop("paidAt", UNSET))

        def _parse_sent_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        sent_at = _parse_sent_at(d.pop("sentAt", UNSET))

        invoice_view = cls(
            amount_credited=amount_credited,
            amount_overpaid=amount_overpaid,
            amount_paid=amount_paid,
            amount_remaining=amount_remaining,
            apply_credit_balance=apply_credit_balance,
            client=client,
            client_id=client_id,
            created_at=created_at,
            currency=currency,
            due_date=due_date,
            id=id,
            installments=installments,
            invoice_number=invoice_number,
            line_items=line_items,
            payment_link=payment_link,
            status=status,
            subtotal=subtotal,
            tax=tax,
            total=total,
            updated_at=updated_at,
            memo=memo,
            next_installment=next_installment,
            paid_at=paid_at,
            sent_at=sent_at,
        )

        invoice_view.additional_properties = d
        return invoice_view

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
