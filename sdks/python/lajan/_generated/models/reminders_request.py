from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.send_channel import SendChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="RemindersRequest")


@_attrs_define
class RemindersRequest:
    """A change to the reminder schedule; fields left out keep their value.

    Attributes:
        channels (list[SendChannel] | Unset): `sms` and/or `email`: each reminder goes on each of them the client can
            receive. Example: ['sms'].
        offset_days (list[int] | Unset): Days from each due date (negative: before), -60 to 90, at most 8; `[]` turns
            reminders off. Example: [-3, 0, 3, 7].
        time_of_day (str | Unset): Local time of day in the organization's `timezone`, `HH:MM` (24-hour). Example:
            09:00.
    """

    channels: list[SendChannel] | Unset = UNSET
    offset_days: list[int] | Unset = UNSET
    time_of_day: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        channels: list[str] | Unset = UNSET
        if not isinstance(self.channels, Unset):
            channels = []
            for channels_item_data in self.channels:
                channels_item = channels_item_data.value
                channels.append(channels_item)

        offset_days: list[int] | Unset = UNSET
        if not isinstance(self.offset_days, Unset):
            offset_days = self.offset_days

        time_of_day = self.time_of_day

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if channels is not UNSET:
            field_dict["channels"] = channels
        if offset_days is not UNSET:
            field_dict["offsetDays"] = offset_days
        if time_of_day is not UNSET:
            field_dict["timeOfDay"] = time_of_day

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _channels = d.pop("channels", UNSET)
        channels: list[SendChannel] | Unset = UNSET
        if _channels is not UNSET:
            channels = []
            for channels_item_data in _channels:
                channels_item = SendChannel(channels_item_data)

                channels.append(channels_item)

        offset_days = cast(list[int], d.pop("offsetDays", UNSET))

        time_of_day = d.pop("timeOfDay", UNSET)

        reminders_request = cls(
            channels=channels,
            offset_days=offset_days,
            time_of_day=time_of_day,
        )

        return reminders_request
