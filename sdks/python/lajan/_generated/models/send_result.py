from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.send_result_status import SendResultStatus

T = TypeVar("T", bound="SendResult")


@_attrs_define
class SendResult:
    """
    Attributes:
        sent_via (list[str]): The channels a message was queued on.
        status (SendResultStatus):
        success (bool):
    """

    sent_via: list[str]
    status: SendResultStatus
    success: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sent_via = self.sent_via

        status = self.status.value

        success = self.success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sentVia": sent_via,
                "status": status,
                "success": success,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        sent_via = cast(list[str], d.pop("sentVia"))

        status = SendResultStatus(d.pop("status"))

        success = d.pop("success")

        send_result = cls(
            sent_via=sent_via,
            status=status,
            success=success,
        )

        send_result.additional_properties = d
        return send_result

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
