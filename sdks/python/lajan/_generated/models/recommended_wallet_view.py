from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecommendedWalletView")


@_attrs_define
class RecommendedWalletView:
    """A wallet app the registration page suggests.

    Attributes:
        assets (list[str]):  Example: ['USDC', 'XLM'].
        name (str):  Example: Beans.
        url (str):  Example: https://www.beansapp.com/.
        deep_link (None | str | Unset): Where the wallet app opens a registration: the invitation's page offers "Open
            in" it. Example: https://www.beansapp.com/sdp.
    """

    assets: list[str]
    name: str
    url: str
    deep_link: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        assets = self.assets

        name = self.name

        url = self.url

        deep_link: None | str | Unset
        if isinstance(self.deep_link, Unset):
            deep_link = UNSET
        else:
            deep_link = self.deep_link

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "assets": assets,
                "name": name,
                "url": url,
            }
        )
        if deep_link is not UNSET:
            field_dict["deepLink"] = deep_link

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        assets = cast(list[str], d.pop("assets"))

        name = d.pop("name")

        url = d.pop("url")

        def _parse_deep_link(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        deep_link = _parse_deep_link(d.pop("deepLink", UNSET))

        recommended_wallet_view = cls(
            assets=assets,
            name=name,
            url=url,
            deep_link=deep_link,
        )

        recommended_wallet_view.additional_properties = d
        return recommended_wallet_view

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
