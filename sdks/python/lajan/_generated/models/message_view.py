from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_view_channel import MessageViewChannel
from ..models.message_view_status import MessageViewStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageView")


@_attrs_define
class MessageView:
    """A message to a client and where it is.

    Attributes:
        attempts (int): How many times it was handed to its provider.
        channel (MessageViewChannel): `email`, `sms` or `whatsapp`. Example: sms.
        created_at (datetime.datetime):
        id (str):  Example: msg_01a1fc8be56c7228a813c8461b65a699.
        language (str): The language it is written in: `en`, `fr` or `ht`. Example: ht.
        status (MessageViewStatus): `queued` (waiting for the worker), `sent` (the provider took it), `delivered`,
            `failed`
            (see `failureReason`) or `undeliverable`; it only moves forward. A sandbox message is
            never handed to a provider: it is `delivered` at once, simulated. Example: sent.
        template (str): What it says: `invoice`, `reminder`, `receipt`, `invitation` or `registration_code`. Example:
            invoice.
        text (str):
        to (str): The phone number or email address.
        updated_at (datetime.datetime): When its status last moved.
        client_id (None | str | Unset): The client it went to (every message but a registration code to a phone not yet
            a
            client's has one).
        failure_reason (None | str | Unset): Why the last attempt failed, in the provider's words.
        html (None | str | Unset):
        invoice_id (None | str | Unset): The invoice it is about (its send), when it is about one.
        provider_id (None | str | Unset): The provider's id for it, once it took it (`sandbox_…` in the sandbox).
        sent_at (datetime.datetime | None | Unset):
        subject (None | str | Unset):
    """

    attempts: int
    channel: MessageViewChannel
    created_at: datetime.datetime
    id: str
    language: str
    status: MessageViewStatus
    template: str
    text: str
    to: str
    updated_at: datetime.datetime
    client_id: None | str | Unset = UNSET
    failure_reason: None | str | Unset = UNSET
    html: None | str | Unset = UNSET
    invoice_id: None | str | Unset = UNSET
    provider_id: None | str | Unset = UNSET
    sent_at: datetime.datetime | None | Unset = UNSET
    subject: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        channel = self.channel.value

        created_at = self.created_at.isoformat()

        id = self.id

        language = self.language

        status = self.status.value

        template = self.template

        text = self.text

        to = self.to

        updated_at = self.updated_at.isoformat()

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        failure_reason: None | str | Unset
        if isinstance(self.failure_reason, Unset):
            failure_reason = UNSET
        else:
            failure_reason = self.failure_reason

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

        provider_id: None | str | Unset
        if isinstance(self.provider_id, Unset):
            provider_id = UNSET
        else:
            provider_id = self.provider_id

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        elif isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "channel": channel,
                "createdAt": created_at,
                "id": id,
                "language": language,
                "status": status,
                "template": template,
                "text": text,
                "to": to,
                "updatedAt": updated_at,
            }
        )
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if failure_reason is not UNSET:
            field_dict["failureReason"] = failure_reason
        if html is not UNSET:
            field_dict["html"] = html
        if invoice_id is not UNSET:
            field_dict["invoiceId"] = invoice_id
        if provider_id is not UNSET:
            field_dict["providerId"] = provider_id
        if sent_at is not UNSET:
            field_dict["sentAt"] = sent_at
        if subject is not UNSET:
            field_dict["subject"] = subject

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        channel = MessageViewChannel(d.pop("channel"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        language = d.pop("language")

        status = MessageViewStatus(d.pop("status"))

        template = d.pop("template")

        text = d.pop("text")

        to = d.pop("to")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_failure_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failure_reason = _parse_failure_reason(d.pop("failureReason", UNSET))

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

        def _parse_provider_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider_id = _parse_provider_id(d.pop("providerId", UNSET))

        def _parse_sent_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        sent_at = _parse_sent_at(d.pop("sentAt", UNSET))

        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        message_view = cls(
            attempts=attempts,
            channel=channel,
            created_at=created_at,
            id=id,
            language=language,
            status=status,
            template=template,
            text=text,
            to=to,
            updated_at=updated_at,
            client_id=client_id,
            failure_reason=failure_reason,
            html=html,
            invoice_id=invoice_id,
            provider_id=provider_id,
            sent_at=sent_at,
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
