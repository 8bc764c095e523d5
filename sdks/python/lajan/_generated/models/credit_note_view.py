from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor_view import ActorView
    from ..models.credit_line_view import CreditLineView


T = TypeVar("T", bound="CreditNoteView")


@_attrs_define
class CreditNoteView:
    """What a sent invoice no longer asks for, and why.

    Attributes:
        amount (str):  Example: 500.00.
        created_at (datetime.datetime):
        created_by (ActorView): Who made the change: the API key (its id, never its secret), the console user, or Lajan
            itself (`system`: `worker` for background work such as payouts sent and invoices gone
            overdue, `payment_page` for a payer on the hosted page, `unrecorded` for events written
            before actors were recorded).
        currency (str):  Example: HTG.
        id (str):  Example: cn_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        invoice_id (str):  Example: inv_01a1fc8be56c7228a813c8461b65a699.
        lines (list[CreditLineView]): The invoice's line items it took back (their amounts make its `amount`); empty for
            a
            credit note of an amount.
        number (str): `CN-` and a per-organization sequence, gapless like invoice numbers. Example: CN-000001.
        reason (str): `waiver`, `rescheduling`, `duplicate` or `other`. Example: waiver.
        status (str): `issued` (it reduces the invoice) or `void`. Example: issued.
        memo (None | str | Unset):  Example: Hurricane relief: late fee waived.
        voided_at (datetime.datetime | None | Unset):
        voided_by (ActorView | None | Unset):
    """

    amount: str
    created_at: datetime.datetime
    created_by: ActorView
    currency: str
    id: str
    invoice_id: str
    lines: list[CreditLineView]
    number: str
    reason: str
    status: str
    memo: None | str | Unset = UNSET
    voided_at: datetime.datetime | None | Unset = UNSET
    voided_by: ActorView | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.actor_view import ActorView

        amount = self.amount

        created_at = self.created_at.isoformat()

        created_by = self.created_by.to_dict()

        currency = self.currency

        id = self.id

        invoice_id = self.invoice_id

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        number = self.number

        reason = self.reason

        status = self.status

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        voided_at: None | str | Unset
        if isinstance(self.voided_at, Unset):
            voided_at = UNSET
        elif isinstance(self.voided_at, datetime.datetime):
            voided_at = self.voided_at.isoformat()
        else:
            voided_at = self.voided_at

        voided_by: dict[str, Any] | None | Unset
        if isinstance(self.voided_by, Unset):
            voided_by = UNSET
        elif isinstance(self.voided_by, ActorView):
            voided_by = self.voided_by.to_dict()
        else:
            voided_by = self.voided_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "createdAt": created_at,
                "createdBy": created_by,
                "currency": currency,
                "id": id,
                "invoiceId": invoice_id,
                "lines": lines,
                "number": number,
                "reason": reason,
                "status": status,
            }
        )
        if memo is not UNSET:
            field_dict["memo"] = memo
        if voided_at is not UNSET:
            field_dict["voidedAt"] = voided_at
        if voided_by is not UNSET:
            field_dict["voidedBy"] = voided_by

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor_view import ActorView
        from ..models.credit_line_view import CreditLineView

        d = dict(src_dict)
        amount = d.pop("amount")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        created_by = ActorView.from_dict(d.pop("createdBy"))

        currency = d.pop("currency")

        id = d.pop("id")

        invoice_id = d.pop("invoiceId")

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = CreditLineView.from_dict(lines_item_data)

            lines.append(lines_item)

        number = d.pop("number")

        reason = d.pop("reason")

        status = d.pop("status")

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        def _parse_voided_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                voided_at_type_0 = datetime.datetime.fromisoformat(data)

                return voided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        voided_at = _parse_voided_at(d.pop("voidedAt", UNSET))

        def _parse_voided_by(data: object) -> ActorView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voided_by_type_1 = ActorView.from_dict(data)

                return voided_by_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ActorView | None | Unset, data)

        voided_by = _parse_voided_by(d.pop("voidedBy", UNSET))

        credit_note_view = cls(
            amount=amount,
            created_at=created_at,
            created_by=created_by,
            currency=currency,
            id=id,
            invoice_id=invoice_id,
            lines=lines,
            number=number,
            reason=reason,
            status=status,
            memo=memo,
            voided_at=voided_at,
            voided_by=voided_by,
        )

        credit_note_view.additional_properties = d
        return credit_note_view

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
