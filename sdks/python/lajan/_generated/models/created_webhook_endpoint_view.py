from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatedWebhookEndpointView")


@_attrs_define
class CreatedWebhookEndpointView:
    """A new endpoint, with the secret that signs its deliveries: shown this once, never again.

    Attributes:
        created_at (datetime.datetime):
        enabled (bool): A disabled endpoint receives nothing; `PUT` with `enabled: true` turns it back on.
        events (list[str]): Event names, area wildcards such as `invoice.*`, or `*` for every event. Example:
            ['invoice.paid', 'payout.*'].
        id (str):  Example: we_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        updated_at (datetime.datetime):
        url (str):  Example: https://books.example.ht/lajan/webhooks.
        secret (str): `whsec_` + base64 of 32 random bytes; verify `webhook-signature` with it. Example:
            whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4A8DQcfGXwM=.
        description (None | str | Unset):
    """

    created_at: datetime.datetime
    enabled: bool
    events: list[str]
    id: str
    updated_at: datetime.datetime
    url: str
    secret: str
    description: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        events = self.events

        id = self.id

        updated_at = self.updated_at.isoformat()

        url = self.url

        secret = self.secret

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "enabled": enabled,
                "events": events,
                "id": id,
                "updatedAt": updated_at,
                "url": url,
                "secret": secret,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        enabled = d.pop("enabled")

        events = cast(list[str], d.pop("events"))

        id = d.pop("id")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        url = d.pop("url")

        secret = d.pop("secret")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        created_webhook_endpoint_view = cls(
            created_at=created_at,
            enabled=enabled,
            events=events,
            id=id,
            updated_at=updated_at,
            url=url,
            secret=secret,
            description=description,
        )

        created_webhook_endpoint_view.additional_properties = d
        return created_webhook_endpoint_view

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
