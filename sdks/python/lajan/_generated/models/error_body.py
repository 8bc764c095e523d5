from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

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
    """

    code: str
    error: str
    message: str
    status_code: int
    details: list[FieldDetail] | Unset = UNSET
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

        error_body = cls(
            code=code,
            error=error,
            message=message,
            status_code=status_code,
            details=details,
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
