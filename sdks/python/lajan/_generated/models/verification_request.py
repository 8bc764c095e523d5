from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="VerificationRequest")


@_attrs_define
class VerificationRequest:
    """A question and its answer: `date_of_birth` (`YYYY-MM-DD`), `year_month` (`YYYY-MM`), `pin`
    (4 to 8 digits) or `national_id` (4 to 32 letters and digits; spaces, dashes and dots are
    ignored, and case too).

        Attributes:
            type_ (str):  Example: date_of_birth.
            value (str):  Example: 1990-05-07.
    """

    type_: str
    value: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type")

        value = d.pop("value")

        verification_request = cls(
            type_=type_,
            value=value,
        )

        return verification_request
