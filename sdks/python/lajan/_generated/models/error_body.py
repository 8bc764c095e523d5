from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field_detail import FieldDetail


T = TypeVar("T", bound="ErrorBody")


@_attrs_define
class ErrorBody:
    """The error body, as documented in the OpenAPI document.

    Attributes:
        code (str): A stable, machine-readable code. Example: validation_error.
        error (str): The HTTP reason phrase. Example: Bad Request.
        message (str): What went wrong, for a person.
        status_code (int): The HTTP status code, repeated. Example: 400.
        details (list[FieldDetail] | Unset): The fields at fault, when the problem is with specific fields.
        request_id (None | str | Unset): The id of the request that was refused, as its `X-Request-Id` header says:
            quote it when
            asking for help, it finds the request's log line. A replayed answer (`Idempotent-Replayed:
            true`) keeps the first request's. Example: 0b6f5c1e-3f7a-4c39-9d3e-5a8e2f1c7b20.
    """

    code: str
    error: str
    message: str
    status_code: int
    details: list[FieldDetail] | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        error = self.error

        message = self.message

        status_code = self.status_code

        details: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = []
            for details_item_data in self.details:
                details_item = details_item_data.to_dict()
                details.append(details_item)

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "error": error,
                "message": message,
                "statusCode": status_code,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_detail import FieldDetail

        d = dict(src_dict)
        code = d.pop("code")

        error = d.pop("error")

        message = d.pop("message")

        status_code = d.pop("statusCode")

        _details = d.pop("details", UNSET)
        details: list[FieldDetail] | Unset = UNSET
        if _details is not UNSET:
            details = []
            for details_item_data in _details:
                details_item = FieldDetail.from_dict(details_item_data)

                details.append(details_item)

        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("requestId", UNSET))

        error_body = cls(
            code=code,
            error=error,
            message=message,
            status_code=status_code,
            details=details,
            request_id=request_id,
        )

        error_body.additional_properties = d
        return error_body

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
