from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.asset_view_code import AssetViewCode
from ..models.asset_view_kind import AssetViewKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="AssetView")


@_attrs_define
class AssetView:
    """An asset the organization can pay in from this environment.

    Attributes:
        code (AssetViewCode):  Example: USDC.
        kind (AssetViewKind): fiat-pegged, stablecoin or native.
        name (str):
        issuer (None | str | Unset): The Stellar account that issues it; null for the native asset (XLM).
    """

    code: AssetViewCode
    kind: AssetViewKind
    name: str
    issuer: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        kind = self.kind.value

        name = self.name

        issuer: None | str | Unset
        if isinstance(self.issuer, Unset):
            issuer = UNSET
        else:
            issuer = self.issuer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "kind": kind,
                "name": name,
            }
        )
        if issuer is not UNSET:
            field_dict["issuer"] = issuer

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = AssetViewCode(d.pop("code"))

        kind = AssetViewKind(d.pop("kind"))

        name = d.pop("name")

        def _parse_issuer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        issuer = _parse_issuer(d.pop("issuer", UNSET))

        asset_view = cls(
            code=code,
            kind=kind,
            name=name,
            issuer=issuer,
        )

        asset_view.additional_properties = d
        return asset_view

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
