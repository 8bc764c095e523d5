from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.credit_line_body import CreditLineBody


T = TypeVar("T", bound="IssueCreditNote")


@_attrs_define
class IssueCreditNote:
    """What the invoice no longer asks for (an `amount`, or the units of its `lines`), and why.

    Attributes:
        amount (Decimal): In the invoice's currency: positive, at most 2 decimal places, at most what the invoice's
            credit notes leave of its total; read exactly. Give this or `lines`. Example: 150.
        reason (str): `waiver`, `rescheduling`, `duplicate` or `other`. Example: waiver.
        lines (list[CreditLineBody] | Unset): The invoice's line items it takes back, each priced as the invoice priced
            it, tax
            included (units of a line are never credited twice; those that finish a line take
            exactly what is left of it). Give this or `amount`.
        memo (None | str | Unset): At most 500 characters, line breaks kept. Example: Late fee waived after the
            hurricane.
    """

    amount: Decimal
    reason: str
    lines: list[CreditLineBody] | Unset = UNSET
    memo: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        reason = self.reason

        lines: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.lines, Unset):
            lines = []
            for lines_item_data in self.lines:
                lines_item = lines_item_data.to_dict()
                lines.append(lines_item)

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "reason": reason,
            }
        )
        if lines is not UNSET:
            field_dict["lines"] = lines
        if memo is not UNSET:
            field_dict["memo"] = memo

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.credit_line_body import CreditLineBody

        d = dict(src_dict)
        amount = d.pop("amount")

        reason = d.pop("reason")

        _lines = d.pop("lines", UNSET)
        lines: list[CreditLineBody] | Unset = UNSET
        if _lines is not UNSET:
            lines = []
            for lines_item_data in _lines:
                lines_item = CreditLineBody.from_dict(lines_item_data)

                lines.append(lines_item)

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        issue_credit_note = cls(
            amount=amount,
            reason=reason,
            lines=lines,
            memo=memo,
        )

        return issue_credit_note
