from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.event_selector import EventSelector
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhookEndpoint")


@_attrs_define
class CreateWebhookEndpoint:
    """A new endpoint. `url` and `events` are required; it is enabled unless `enabled` is false.

    Attributes:
        events (list[EventSelector]): Event names from the catalogue, area wildcards such as `invoice.*`, or `*`;
            anything
            else is 400 `invalid_events`, naming each unknown entry. Example: ['invoice.paid', 'payout.*'].
        url (str): An absolute `https` (or `http`) URL, at most 2,048 characters; else 400 `invalid_url`. Example:
            https://books.example.ht/lajan/webhooks.
        description (None | str | Unset):  Example: Accounting system.
        enabled (bool | None | Unset):
    """

    events: list[EventSelector]
    url: str
    description: None | str | Unset = UNSET
    enabled: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        url = self.url

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "url": url,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventSelector(events_item_data)

            events.append(events_item)

        url = d.pop("url")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        create_webhook_endpoint = cls(
            events=events,
            url=url,
            description=description,
            enabled=enabled,
        )

        return create_webhook_endpoint
