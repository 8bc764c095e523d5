from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecommendedWalletRequest")


@_attrs_define
class RecommendedWalletRequest:
    """A wallet app the registration page suggests to a receiver who has none.

    Attributes:
        assets (list[str] | Unset): The asset codes it holds, at most 12. Example: ['USDC', 'XLM'].
        deep_link (None | str | Unset): Where the wallet app opens a registration it is handed (an https universal link
            or the
            app's own scheme, as the Stellar Disbursement Platform's deep link schema): the
            invitation's page then offers "Open in" this wallet with a link signed by the
            stellar.toml's SIGNING_KEY. Null or absent: the page only links to `url`. Example: https://www.beansapp.com/sdp.
        name (None | str | Unset):  Example: Beans.
        url (None | str | Unset): Where the receiver gets it: an http(s) link. Example: https://www.beansapp.com/.
    """

    assets: list[str] | Unset = UNSET
    deep_link: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        assets: list[str] | Unset = UNSET
        if not isinstance(self.assets, Unset):
            assets = self.assets

        deep_link: None | str | Unset
        if isinstance(self.deep_link, Unset):
            deep_link = UNSET
        else:
            deep_link = self.deep_link

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if assets is not UNSET:
            field_dict["assets"] = assets
        if deep_link is not UNSET:
            field_dict["deepLink"] = deep_link
        if name is not UNSET:
            field_dict["name"] = name
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        assets = cast(list[str], d.pop("assets", UNSET))

        def _parse_deep_link(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        deep_link = _parse_deep_link(d.pop("deepLink", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        recommended_wallet_request = cls(
            assets=assets,
            deep_link=deep_link,
            name=name,
            url=url,
        )

        return recommended_wallet_request
