from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.send_channel import SendChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="SendInvoice")


@_attrs_define
class SendInvoice:
    """
    Attributes:
        channels (list[SendChannel] | None | Unset): `email` and/or `sms`; left out: every channel the client can
            receive. An empty list is
            refused. Example: ['email', 'sms'].
    """

    channels: list[SendChannel] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        channels: list[str] | None | Unset
        if isinstance(self.channels, Unset):
            channels = UNSET
        elif isinstance(self.channels, list):
            channels = []
            for channels_type_0_item_data in self.channels:
                channels_type_0_item = channels_type_0_item_data.value
                channels.append(channels_type_0_item)

        else:
            channels = self.channels

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if channels is not UNSET:
            field_dict["channels"] = channels

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_channels(data: object) -> list[SendChannel] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                channels_type_0 = []
                _channels_type_0 = data
                for channels_type_0_item_data in _channels_type_0:
                    channels_type_0_item = SendChannel(channels_type_0_item_data)

                    channels_type_0.append(channels_type_0_item)

                return channels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[SendChannel] | None | Unset, data)

        channels = _parse_channels(d.pop("channels", UNSET))

        send_invoice = cls(
            channels=channels,
        )

        return send_invoice
