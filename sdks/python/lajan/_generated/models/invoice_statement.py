from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.statement_line_view import StatementLineView


T = TypeVar("T", bound="InvoiceStatement")


@_attrs_define
class InvoiceStatement:
    """Every movement of what the client owes on an invoice, oldest first.

    Attributes:
        amount_remaining (str): What is still owed: the last line's balance. Example: 750.00.
        currency (str):  Example: HTG.
        data (list[StatementLineView]):
        invoice_id (str):  Example: inv_01a1fc8be56c7228a813c8461b65a699.
    """

    amount_remaining: str
    currency: str
    data: list[StatementLineView]
    invoice_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_remaining = self.amount_remaining

        currency = self.currency

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        invoice_id = self.invoice_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amountRemaining": amount_remaining,
                "currency": currency,
                "data": data,
                "invoiceId": invoice_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.statement_line_view import StatementLineView

        d = dict(src_dict)
        amount_remaining = d.pop("amountRemaining")

        currency = d.pop("currency")

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = StatementLineView.from_dict(data_item_data)

            data.append(data_item)

        invoice_id = d.pop("invoiceId")

        invoice_statement = cls(
            amount_remaining=amount_remaining,
            currency=currency,
            data=data,
            invoice_id=invoice_id,
        )

        invoice_statement.additional_properties = d
        return invoice_statement

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
