from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RemindAt")


@_attrs_define
class RemindAt:
    """The instant to run an invoice's reminder schedule at.

    Attributes:
        at (datetime.datetime): RFC 3339, e.g. three days after an instalment's due date at the organization's
            `timeOfDay`. Example: 2027-02-03T14:00:00Z.
    """

    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        remind_at = cls(
            at=at,
        )

        return remind_at
