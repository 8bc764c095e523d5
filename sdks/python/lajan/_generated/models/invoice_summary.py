from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.invoice_summary_currency import InvoiceSummaryCurrency
from ..models.invoice_summary_status import InvoiceSummaryStatus

if TYPE_CHECKING:
    from ..models.client_summary import ClientSummary


T = TypeVar("T", bound="InvoiceSummary")


@_attrs_define
class InvoiceSummary:
    """A row of the invoices list.

    Attributes:
        amount (str): The same as `total`, under its first name: kept for integrations that read it. Example: 1250.00.
        client (ClientSummary): The client an invoice row names.
        client_id (str):
        created_at (datetime.datetime):
        currency (InvoiceSummaryCurrency):  Example: HTG.
        due_date (datetime.date):  Example: 2026-12-01.
        id (str):  Example: inv_01a1fc8be56c7228a813c8461b65a699.
        invoice_number (str):  Example: INV-000042.
        status (InvoiceSummaryStatus):  Example: sent.
        total (str): What the invoice asks for in all, as one invoice's `total` says it. Example: 1250.00.
    """

    amount: str
    client: ClientSummary
    client_id: str
    created_at: datetime.datetime
    currency: InvoiceSummaryCurrency
    due_date: datetime.date
    id: str
    invoice_number: str
    status: InvoiceSummaryStatus
    total: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        client = self.client.to_dict()

        client_id = self.client_id

        created_at = self.created_at.isoformat()

        currency = self.currency.value

        due_date = self.due_date.isoformat()

        id = self.id

        invoice_number = self.invoice_number

        status = self.status.value

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "client": client,
                "clientId": client_id,
                "createdAt": created_at,
                "currency": currency,
                "dueDate": due_date,
                "id": id,
                "invoiceNumber": invoice_number,
                "status": status,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.client_summary import ClientSummary

        d = dict(src_dict)
        amount = d.pop("amount")

        client = ClientSummary.from_dict(d.pop("client"))

        client_id = d.pop("clientId")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        currency = InvoiceSummaryCurrency(d.pop("currency"))

        due_date = datetime.date.fromisoformat(d.pop("dueDate"))

        id = d.pop("id")

        invoice_number = d.pop("invoiceNumber")

        status = InvoiceSummaryStatus(d.pop("status"))

        total = d.pop("total")

        invoice_summary = cls(
            amount=amount,
            client=client,
            client_id=client_id,
            created_at=created_at,
            currency=currency,
            due_date=due_date,
            id=id,
            invoice_number=invoice_number,
            status=status,
            total=total,
        )

        invoice_summary.additional_properties = d
        return invoice_summary

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
