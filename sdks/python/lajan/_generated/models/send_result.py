from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.send_result_status import SendResultStatus

if TYPE_CHECKING:
    from ..models.queued_message import QueuedMessage


T = TypeVar("T", bound="SendResult")


@_attrs_define
class SendResult:
    """
    Attributes:
        messages (list[QueuedMessage]): The messages the send queued, as they stood when it answered: `queued` when live
            (the
            worker hands them to their provider), `delivered` (simulated) in the sandbox.
        sent_via (list[str]): The channels a message was queued on.
        status (SendResultStatus): The invoice's status after the send.
        success (bool): The send was recorded and its messages queued: it says nothing of their delivery, which
            `messages` (and `GET /v1/messages/{id}`, and the `message.*` events) follow.
    """

    messages: list[QueuedMessage]
    sent_via: list[str]
    status: SendResultStatus
    success: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        sent_via = self.sent_via

        status = self.status.value

        success = self.success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "messages": messages,
                "sentVia": sent_via,
                "status": status,
                "success": success,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queued_message import QueuedMessage

        d = dict(src_dict)
        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = QueuedMessage.from_dict(messages_item_data)

            messages.append(messages_item)

        sent_via = cast(list[str], d.pop("sentVia"))

        status = SendResultStatus(d.pop("status"))

        success = d.pop("success")

        send_result = cls(
            messages=messages,
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
