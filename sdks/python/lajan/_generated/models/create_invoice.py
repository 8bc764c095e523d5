from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.currency import Currency
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.installment_body import InstallmentBody
    from ..models.line_item_body import LineItemBody


T = TypeVar("T", bound="CreateInvoice")


@_attrs_define
class CreateInvoice:
    """A new invoice. It starts as a draft unless `sendImmediately` is true.

    Attributes:
        client_id (str):
        line_items (list[LineItemBody]): 1 to 100 lines.
        apply_credit_balance (bool | None | Unset): When it is first sent, pay what it can from the client's credit
            balance in its currency
            (an overpayment, what a voided or credited invoice received): a payment of method
            `credit_balance`, with `invoice.payment_received` (and `invoice.paid` when that covers
            it all). Default false.
        currency (Currency | None | Unset):
        due_date (datetime.date | Unset): `YYYY-MM-DD`, from 2000-01-01 to 2099-12-31. Required unless `installments`
            are given
            (then it is the last one's, and may be left out). Example: 2026-12-01.
        installments (list[InstallmentBody] | Unset): The parts the total is due in, in date order, summing to it
            exactly (refused naming the
            row otherwise, `invalid_installments`); at most 120. Payments fill them oldest first, and
            the invoice is overdue while one is past due.
        memo (None | str | Unset): A note for the customer: at most 1000 characters; line breaks are kept, other control
            characters refused.
        send_immediately (bool | None | Unset): Send by every channel the client can receive right after creating it.
    """

    client_id: str
    line_items: list[LineItemBody]
    apply_credit_balance: bool | None | Unset = UNSET
    currency: Currency | None | Unset = UNSET
    due_date: datetime.date | Unset = UNSET
    installments: list[InstallmentBody] | Unset = UNSET
    memo: None | str | Unset = UNSET
    send_immediately: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        line_items = []
        for line_items_item_data in self.line_items:
            line_items_item = line_items_item_data.to_dict()
            line_items.append(line_items_item)

        apply_credit_balance: bool | None | Unset
        if isinstance(self.apply_credit_balance, Unset):
            apply_credit_balance = UNSET
        else:
            apply_credit_balance = self.apply_credit_balance

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        elif isinstance(self.currency, Currency):
            currency = self.currency.value
        else:
            currency = self.currency

        due_date: str | Unset = UNSET
        if not isinstance(self.due_date, Unset):
            due_date = self.due_date.isoformat()

        installments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.installments, Unset):
            installments = []
            for installments_item_data in self.installments:
                installments_item = installments_item_data.to_dict()
                installments.append(installments_item)

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        send_immediately: bool | None | Unset
        if isinstance(self.send_immediately, Unset):
            send_immediately = UNSET
        else:
            send_immediately = self.send_immediately

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "clientId": client_id,
                "lineItems": line_items,
            }
        )
        if apply_credit_balance is not UNSET:
            field_dict["applyCreditBalance"] = apply_credit_balance
        if currency is not UNSET:
            field_dict["currency"] = currency
        if due_date is not UNSET:
            field_dict["dueDate"] = due_date
        if installments is not UNSET:
            field_dict["installments"] = installments
        if memo is not UNSET:
            field_dict["memo"] = memo
        if send_immediately is not UNSET:
            field_dict["sendImmediately"] = send_immediately

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.installment_body import InstallmentBody
        from ..models.line_item_body import LineItemBody

        d = dict(src_dict)
        client_id = d.pop("clientId")

        line_items = []
        _line_items = d.pop("lineItems")
        for line_items_item_data in _line_items:
            line_items_item = LineItemBody.from_dict(line_items_item_data)

            line_items.append(line_items_item)

        def _parse_apply_credit_balance(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        apply_credit_balance = _parse_apply_credit_balance(
            d.pop("applyCreditBalance", UNSET)
        )

        def _parse_currency(data: object) -> Currency | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_1 = Currency(data)

                return currency_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Currency | None | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        _due_date = d.pop("dueDate", UNSET)
        due_date: datetime.date | Unset
        if isinstance(_due_date, Unset):
            due_date = UNSET
        else:
            due_date = datetime.date.fromisoformat(_due_date)

        _installments = d.pop("installments", UNSET)
        installments: list[InstallmentBody] | Unset = UNSET
        if _installments is not UNSET:
            installments = []
            for installments_item_data in _installments:
                installments_item = InstallmentBody.from_dict(installments_item_data)

                installments.append(installments_item)

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        def _parse_send_immediately(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        send_immediately = _parse_send_immediately(d.pop("sendImmediately", UNSET))

        create_invoice = cls(
            client_id=client_id,
            line_items=line_items,
            apply_credit_balance=apply_credit_balance,
            currency=currency,
            due_date=due_date,
            installments=installments,
            memo=memo,
            send_immediately=send_immediately,
        )

        return create_invoice
