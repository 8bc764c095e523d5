from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="IssueCreditNote")


@_attrs_define
class IssueCreditNote:
    """What the invoice no longer asks for, and why.

    Attributes:
        amount (Decimal): In the invoice's currency: positive, at most 2 decimal places, at most what the invoice's
            credit notes leave of its total; read exactly. Example: 150.
        reason (str): `waiver`, `rescheduling`, `duplicate` or `other`. Example: waiver.
        memo (None | str | Unset): At most 500 characters, line breaks kept. Example: Late fee waived after the
            hurricane.
    """

    amount: Decimal
    reason: str
    memo: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        reason = self.reason

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
        if memo is not UNSET:
            field_dict["memo"] = memo

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        reason = d.pop("reason")

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
            memo=memo,
        )

        return issue_credit_note
