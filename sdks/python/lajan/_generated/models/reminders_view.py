from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RemindersView")


@_attrs_define
class RemindersView:
    """The reminder schedule: each unpaid instalment (or invoice) is reminded on these days from
    its due date, at the organization's time of day, on each channel the client can receive.

        Attributes:
            channels (list[str]): `sms` and/or `email`. Example: ['sms', 'email'].
            offset_days (list[int]): Days from the due date (negative: before), ascending; empty: no reminders. Example:
                [-3, 0, 3, 7].
            time_of_day (str): Local time of day in `timezone`, `HH:MM`. Example: 09:00.
    """

    channels: list[str]
    offset_days: list[int]
    time_of_day: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        channels = self.channels

        offset_days = self.offset_days

        time_of_day = self.time_of_day

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "channels": channels,
                "offsetDays": offset_days,
                "timeOfDay": time_of_day,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        channels = cast(list[str], d.pop("channels"))

        offset_days = cast(list[int], d.pop("offsetDays"))

        time_of_day = d.pop("timeOfDay")

        reminders_view = cls(
            channels=channels,
            offset_days=offset_days,
            time_of_day=time_of_day,
        )

        reminders_view.additional_properties = d
        return reminders_view

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
