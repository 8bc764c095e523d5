from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PaginationView")


@_attrs_define
class PaginationView:
    """The pagination object of every list response.

    Attributes:
        has_more (bool): Whether another page follows this one: older items, or newer ones for `endingBefore`.
        limit (int):
        page (int): The page number asked for (1 for a cursor page).
        total (int): How many items the list holds with these filters; at most 10,000 when
            `totalIsEstimate`.
        total_is_estimate (bool): `true` when this total was counted only up to 10,000 and more items match (a search,
            or
            filters no count is kept for): `total` is then that bound, and pages go on past
            `totalPages`. Counts that are kept (a list unfiltered, or by its status or type) are
            always exact.
        total_pages (int): The pages of `limit` items that `total` makes.
    """

    has_more: bool
    limit: int
    page: int
    total: int
    total_is_estimate: bool
    total_pages: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        has_more = self.has_more

        limit = self.limit

        page = self.page

        total = self.total

        total_is_estimate = self.total_is_estimate

        total_pages = self.total_pages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hasMore": has_more,
                "limit": limit,
                "page": page,
                "total": total,
                "totalIsEstimate": total_is_estimate,
                "totalPages": total_pages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        has_more = d.pop("hasMore")

        limit = d.pop("limit")

        page = d.pop("page")

        total = d.pop("total")

        total_is_estimate = d.pop("totalIsEstimate")

        total_pages = d.pop("totalPages")

        pagination_view = cls(
            has_more=has_more,
            limit=limit,
            page=page,
            total=total,
            total_is_estimate=total_is_estimate,
            total_pages=total_pages,
        )

        pagination_view.additional_properties = d
        return pagination_view

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
