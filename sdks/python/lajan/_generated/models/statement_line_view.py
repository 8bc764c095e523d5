from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="StatementLineView")


@_attrs_define
class StatementLineView:
    """One movement of what the client owes on the invoice.

    Attributes:
        amount (str): A signed decimal string: positive adds to what is owed, negative takes from it. Example: -500.00.
        at (datetime.datetime):
        balance (str): What is owed once this movement is made; the last line's is the invoice's
            `amountRemaining`. Example: 750.00.
        type_ (str): `invoiced` (the total), `payment`, `payment_reversed`, `voided` (the total no longer
            owed), `credit_note`, `credit_note_voided`, `to_credit_balance` (what was paid beyond what it asks for, held for
            the client)
            or `from_credit_balance` (such an overpayment taken back by a reversal). Example: payment.
        method (None | str | Unset): A payment's method (`stellar`, `cash`, ...). Example: cash.
        reference (None | str | Unset): A payment's reference (transaction hash or receipt number), a reversal's reason,
            or a
            credit note's number. Example: REC-2026-0042.
        source_id (None | str | Unset): The payment (`ipy_...`) of a payment or reversal, the credit note (`cn_...`), or
            the
            credit balance transaction (`cbt_...`). Example: ipy_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
    """

    amount: str
    at: datetime.datetime
    balance: str
    type_: str
    method: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET
    source_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        at = self.at.isoformat()

        balance = self.balance

        type_ = self.type_

        method: None | str | Unset
        if isinstance(self.method, Unset):
            method = UNSET
        else:
            method = self.method

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        source_id: None | str | Unset
        if isinstance(self.source_id, Unset):
            source_id = UNSET
        else:
            source_id = self.source_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "at": at,
                "balance": balance,
                "type": type_,
            }
        )
        if method is not UNSET:
            field_dict["method"] = method
        if reference is not UNSET:
            field_dict["reference"] = reference
        if source_id is not UNSET:
            field_dict["sourceId"] = source_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        balance = d.pop("balance")

        type_ = d.pop("type")

        def _parse_method(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        method = _parse_method(d.pop("method", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        def _parse_source_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_id = _parse_source_id(d.pop("sourceId", UNSET))

        statement_line_view = cls(
            amount=amount,
            at=at,
            balance=balance,
            type_=type_,
            method=method,
            reference=reference,
            source_id=source_id,
        )

        statement_line_view.additional_properties = d
        return statement_line_view

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
