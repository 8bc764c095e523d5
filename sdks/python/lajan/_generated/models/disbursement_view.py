from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.disbursement_view_source import DisbursementViewSource
from ..models.disbursement_view_status import DisbursementViewStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.item_counts_view import ItemCountsView


T = TypeVar("T", bound="DisbursementView")


@_attrs_define
class DisbursementView:
    """A batch of payouts of one asset.

    Attributes:
        amount_sent (str): The sum of the items sent. Example: 0.00.
        asset_code (str):  Example: USDC.
        counts (ItemCountsView): How many items are in each state; they add up to `itemCount`.
        created_at (datetime.datetime):
        id (str):  Example: dsb_01a1fc8be56c7228a813c8461b65a699.
        item_count (int):
        name (str):  Example: June stipends.
        source (DisbursementViewSource): json or csv: how the items were given.
        status (DisbursementViewStatus): draft, pending_approval, approved, processing, completed, partially_failed,
            failed or
            rejected. Example: draft.
        total_amount (str): The sum of every item. Example: 1500.00.
        updated_at (datetime.datetime):
        approved_at (datetime.datetime | None | Unset):
        asset_issuer (None | str | Unset): null for the native asset (XLM).
        reject_reason (None | str | Unset): Why it was rejected, when it was and a reason was given.
        submitted_at (datetime.datetime | None | Unset):
    """

    amount_sent: str
    asset_code: str
    counts: ItemCountsView
    created_at: datetime.datetime
    id: str
    item_count: int
    name: str
    source: DisbursementViewSource
    status: DisbursementViewStatus
    total_amount: str
    updated_at: datetime.datetime
    approved_at: datetime.datetime | None | Unset = UNSET
    asset_issuer: None | str | Unset = UNSET
    reject_reason: None | str | Unset = UNSET
    submitted_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_sent = self.amount_sent

        asset_code = self.asset_code

        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        id = self.id

        item_count = self.item_count

        name = self.name

        source = self.source.value

        status = self.status.value

        total_amount = self.total_amount

        updated_at = self.updated_at.isoformat()

        approved_at: None | str | Unset
        if isinstance(self.approved_at, Unset):
            approved_at = UNSET
        elif isinstance(self.approved_at, datetime.datetime):
            approved_at = self.approved_at.isoformat()
        else:
            approved_at = self.approved_at

        asset_issuer: None | str | Unset
        if isinstance(self.asset_issuer, Unset):
            asset_issuer = UNSET
        else:
            asset_issuer = self.asset_issuer

        reject_reason: None | str | Unset
        if isinstance(self.reject_reason, Unset):
            reject_reason = UNSET
        else:
            reject_reason = self.reject_reason

        submitted_at: None | str | Unset
        if isinstance(self.submitted_at, Unset):
            submitted_at = UNSET
        elif isinstance(self.submitted_at, datetime.datetime):
            submitted_at = self.submitted_at.isoformat()
        else:
            submitted_at = self.submitted_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amountSent": amount_sent,
                "assetCode": asset_code,
                "counts": counts,
                "createdAt": created_at,
                "id": id,
                "itemCount": item_count,
                "name": name,
                "source": source,
                "status": status,
                "totalAmount": total_amount,
                "updatedAt": updated_at,
            }
        )
        if approved_at is not UNSET:
            field_dict["approvedAt"] = approved_at
        if asset_issuer is not UNSET:
            field_dict["assetIssuer"] = asset_issuer
        if reject_reason is not UNSET:
            field_dict["rejectReason"] = reject_reason
        if submitted_at is not UNSET:
            field_dict["submittedAt"] = submitted_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.item_counts_view import ItemCountsView

        d = dict(src_dict)
        amount_sent = d.pop("amountSent")

        asset_code = d.pop("assetCode")

        counts = ItemCountsView.from_dict(d.pop("counts"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        item_count = d.pop("itemCount")

        name = d.pop("name")

        source = DisbursementViewSource(d.pop("source"))

        status = DisbursementViewStatus(d.pop("status"))

        total_amount = d.pop("totalAmount")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_approved_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approved_at_type_0 = datetime.datetime.fromisoformat(data)

                return approved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        approved_at = _parse_approved_at(d.pop("approvedAt", UNSET))

        def _parse_asset_issuer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        asset_issuer = _parse_asset_issuer(d.pop("assetIssuer", UNSET))

        def _parse_reject_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reject_reason = _parse_reject_reason(d.pop("rejectReason", UNSET))

        def _parse_submitted_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                submitted_at_type_0 = datetime.datetime.fromisoformat(data)

                return submitted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        submitted_at = _parse_submitted_at(d.pop("submittedAt", UNSET))

        disbursement_view = cls(
            amount_sent=amount_sent,
            asset_code=asset_code,
            counts=counts,
            created_at=created_at,
            id=id,
            item_count=item_count,
            name=name,
            source=source,
            status=status,
            total_amount=total_amount,
            updated_at=updated_at,
            approved_at=approved_at,
            asset_issuer=asset_issuer,
            reject_reason=reject_reason,
            submitted_at=submitted_at,
        )

        disbursement_view.additional_properties = d
        return disbursement_view

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
