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


T = TypeVar("T", bound="UpdateInvoice")


@_attrs_define
class UpdateInvoice:
    """Changes to a draft; fields left out are kept, `memo: null` clears the memo. The other fields
    cannot be cleared: `null` for them is a `validation_error`.

        Attributes:
            apply_credit_balance (bool | Unset): Whether its first send pays from the client's credit balance.
            client_id (str | Unset):
            currency (Currency | Unset): An invoicing currency.
            due_date (datetime.date | Unset): `YYYY-MM-DD`, from 2000-01-01 to 2099-12-31.
            installments (list[InstallmentBody] | Unset): The whole plan again (`[]`: due at once on `dueDate`). Left out, a
                plan is kept, and must
                still sum to the total when the line items change.
            line_items (list[LineItemBody] | Unset): 1 to 100 lines.
            memo (None | str | Unset):
    """

    apply_credit_balance: bool | Unset = UNSET
    client_id: str | Unset = UNSET
    currency: Currency | Unset = UNSET
    due_date: datetime.date | Unset = UNSET
    installments: list[InstallmentBody] | Unset = UNSET
    line_items: list[LineItemBody] | Unset = UNSET
    memo: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        apply_credit_balance = self.apply_credit_balance

        client_id = self.client_id

        currency: str | Unset = UNSET
        if not isinstance(self.currency, Unset):
            currency = self.currency.value

        due_date: str | Unset = UNSET
        if not isinstance(self.due_date, Unset):
            due_date = self.due_date.isoformat()

        installments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.installments, Unset):
            installments = []
            for installments_item_data in self.installments:
                installments_item = installments_item_data.to_dict()
                installments.append(installments_item)

        line_items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.line_items, Unset):
            line_items = []
            for line_items_item_data in self.line_items:
                line_items_item = line_items_item_data.to_dict()
                line_items.append(line_items_item)

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if apply_credit_balance is not UNSET:
            field_dict["applyCreditBalance"] = apply_credit_balance
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if currency is not UNSET:
            field_dict["currency"] = currency
        if due_date is not UNSET:
            field_dict["dueDate"] = due_date
        if installments is not UNSET:
            field_dict["installments"] = installments
        if line_items is not UNSET:
            field_dict["lineItems"] = line_items
        if memo is not UNSET:
            field_dict["memo"] = memo

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.installment_body import InstallmentBody
        from ..models.line_item_body import LineItemBody

        d = dict(src_dict)
        apply_credit_balance = d.pop("applyCreditBalance", UNSET)

        client_id = d.pop("clientId", UNSET)

        _currency = d.pop("currency", UNSET)
        currency: Currency | Unset
        if isinstance(_currency, Unset):
            currency = UNSET
        else:
            currency = Currency(_currency)

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

        _line_items = d.pop("lineItems", UNSET)
        line_items: list[LineItemBody] | Unset = UNSET
        if _line_items is not UNSET:
            line_items = []
            for line_items_item_data in _line_items:
                line_items_item = LineItemBody.from_dict(line_items_item_data)

                line_items.append(line_items_item)

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        update_invoice = cls(
            apply_credit_balance=apply_credit_balance,
            client_id=client_id,
            currency=currency,
            due_date=due_date,
            installments=installments,
            line_items=line_items,
            memo=memo,
        )

        return update_invoice
