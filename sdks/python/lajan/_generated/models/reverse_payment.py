from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReversePayment")


@_attrs_define
class ReversePayment:
    """Why a payment stops counting.

    Attributes:
        reason (str): Required: at most 500 characters, line breaks kept. Example: Counted twice: the branch entered the
            receipt again.
    """

    reason: str

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reason = d.pop("reason")

        reverse_payment = cls(
            reason=reason,
        )

        return reverse_payment
