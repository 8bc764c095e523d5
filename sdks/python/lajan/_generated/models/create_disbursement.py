from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_disbursement_item import CreateDisbursementItem


T = TypeVar("T", bound="CreateDisbursement")


@_attrs_define
class CreateDisbursement:
    """A disbursement given as JSON.

    Attributes:
        asset_code (str): 1 to 12 letters or digits, e.g. USDC, HTG, XLM; every item pays this asset. Example: USDC.
        items (list[CreateDisbursementItem]): 1 to 10,000 items; `row` in errors and in the items is the place in this
            list, from 1.
        name (str): What the batch pays, for people: at most 200 characters. Example: June stipends.
        asset_issuer (None | str | Unset): Default: the configured issuer for the code; refused for XLM.
    """

    asset_code: str
    items: list[CreateDisbursementItem]
    name: str
    asset_issuer: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        asset_code = self.asset_code

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        name = self.name

        asset_issuer: None | str | Unset
        if isinstance(self.asset_issuer, Unset):
            asset_issuer = UNSET
        else:
            asset_issuer = self.asset_issuer

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assetCode": asset_code,
                "items": items,
                "name": name,
            }
        )
        if asset_issuer is not UNSET:
            field_dict["assetIssuer"] = asset_issuer

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_disbursement_item import CreateDisbursementItem

        d = dict(src_dict)
        asset_code = d.pop("assetCode")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = CreateDisbursementItem.from_dict(items_item_data)

            items.append(items_item)

        name = d.pop("name")

        def _parse_asset_issuer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        asset_issuer = _parse_asset_issuer(d.pop("assetIssuer", UNSET))

        create_disbursement = cls(
            asset_code=asset_code,
            items=items,
            name=name,
            asset_issuer=asset_issuer,
        )

        return create_disbursement
