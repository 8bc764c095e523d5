from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_view_channel import MessageViewChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageView")


@_attrs_define
class MessageView:
    """A message a sandbox `send` produced (kept here instead of being delivered).

    Attributes:
        channel (MessageViewChannel): email, sms or whatsapp.
        created_at (datetime.datetime):
        id (str):
        status (str): `sandbox` for sandbox messages.
        text (str):
        to (str):
        client_id (None | str | Unset): The client it went to, when it is about one (an invitation to register a
            wallet).
        html (None | str | Unset):
        invoice_id (None | str | Unset):
        subject (None | str | Unset):
    """

    channel: MessageViewChannel
    created_at: datetime.datetime
    id: str
    status: str
    text: str
    to: str
    client_id: None | str | Unset = UNSET
    html: None | str | Unset = UNSET
    invoice_id: None | str | Unset = UNSET
    subject: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        channel = self.channel.value

        created_at = self.created_at.isoformat()

        id = self.id

        status = self.status

        text = self.text

        to = self.to

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        html: None | str | Unset
        if isinstance(self.html, Unset):
            html = UNSET
        else:
            html = self.html

        invoice_id: None | str | Unset
        if isinstance(self.invoice_id, Unset):
            invoice_id = UNSET
        else:
            invoice_id = self.invoice_id

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "channel": channel,
                "createdAt": created_at,
                "id": id,
                "status": status,
                "text": text,
                "to": to,
            }
        )
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if html is not UNSET:
            field_dict["html"] = html
        if invoice_id is not UNSET:
            field_dict["invoiceId"] = invoice_id
        if subject is not UNSET:
            field_dict["subject"] = subject

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        channel = MessageViewChannel(d.pop("channel"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        status = d.pop("status")

        text = d.pop("text")

        to = d.pop("to")

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_html(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        html = _parse_html(d.pop("html", UNSET))

        def _parse_invoice_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        invoice_id = _parse_invoice_id(d.pop("invoiceId", UNSET))

        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        message_view = cls(
            channel=channel,
            created_at=created_at,
            id=id,
            status=status,
            text=text,
            to=to,
            client_id=client_id,
            html=html,
            invoice_id=invoice_id,
            subject=subject,
        )

        message_view.additional_properties = d
        return message_view

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
