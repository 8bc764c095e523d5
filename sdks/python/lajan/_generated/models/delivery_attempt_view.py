from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeliveryAttemptView")


@_attrs_define
class DeliveryAttemptView:
    """One POST of a delivery and what came back.

    Attributes:
        at (datetime.datetime):
        attempt (int):
        duration_ms (int):
        error (None | str | Unset): Why no answer came (a timeout, a refused connection), when none did.
        http_status (int | None | Unset): The receiver's HTTP status, when it answered.
        response_body (None | str | Unset): The first 4 KiB of the receiver's answer.
    """

    at: datetime.datetime
    attempt: int
    duration_ms: int
    error: None | str | Unset = UNSET
    http_status: int | None | Unset = UNSET
    response_body: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        attempt = self.attempt

        duration_ms = self.duration_ms

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        http_status: int | None | Unset
        if isinstance(self.http_status, Unset):
            http_status = UNSET
        else:
            http_status = self.http_status

        response_body: None | str | Unset
        if isinstance(self.response_body, Unset):
            response_body = UNSET
        else:
            response_body = self.response_body

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "attempt": attempt,
                "durationMs": duration_ms,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if http_status is not UNSET:
            field_dict["httpStatus"] = http_status
        if response_body is not UNSET:
            field_dict["responseBody"] = response_body

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        attempt = d.pop("attempt")

        duration_ms = d.pop("durationMs")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_http_status(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        http_status = _parse_http_status(d.pop("httpStatus", UNSET))

        def _parse_response_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        response_body = _parse_response_body(d.pop("responseBody", UNSET))

        delivery_attempt_view = cls(
            at=at,
            attempt=attempt,
            duration_ms=duration_ms,
            error=error,
            http_status=http_status,
            response_body=response_body,
        )

        delivery_attempt_view.additional_properties = d
        return delivery_attempt_view

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
