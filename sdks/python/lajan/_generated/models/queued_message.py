from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.queued_message_channel import QueuedMessageChannel
from ..models.queued_message_status import QueuedMessageStatus

T = TypeVar("T", bound="QueuedMessage")


@_attrs_define
class QueuedMessage:
    """A message a send or a reminder queued, as it stood then.

    Attributes:
        channel (QueuedMessageChannel): `email` or `sms`. Example: sms.
        id (str):  Example: msg_01a1fc8be56c7228a813c8461b65a699.
        status (QueuedMessageStatus): `queued` live, its end (simulated) in the sandbox; it moves on as `GET
            /v1/messages/{id}` shows. Example: queued.
    """

    channel: QueuedMessageChannel
    id: str
    status: QueuedMessageStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        channel = self.channel.value

        id = self.id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "channel": channel,
                "id": id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        channel = QueuedMessageChannel(d.pop("channel"))

        id = d.pop("id")

        status = QueuedMessageStatus(d.pop("status"))

        queued_message = cls(
            channel=channel,
            id=id,
            status=status,
        )

        queued_message.additional_properties = d
        return queued_message

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
