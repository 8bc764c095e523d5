from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="HoldView")


@_attrs_define
class HoldView:
    """A payout held back, nothing signed or paid for, because its destination cannot take it. It
    is checked again every few minutes and sent once the receiver fixes it (creates the account,
    adds the trustline); held for the settings' registrationWindowDays, it fails with `code`.

        Attributes:
            code (str): op_no_destination (the account does not exist) or op_no_trust (no trustline for the asset). Example:
                op_no_trust.
            message (str):  Example: The destination account does not trust USDC yet: the receiver must add USDC to their
                wallet.
            since (datetime.datetime): When it was first held.
    """

    code: str
    message: str
    since: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        since = self.since.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
                "since": since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        hold_view = cls(
            code=code,
            message=message,
            since=since,
        )

        hold_view.additional_properties = d
        return hold_view

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
