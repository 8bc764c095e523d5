from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.payout_summary_approval_status import PayoutSummaryApprovalStatus
from ..models.payout_summary_exec_status import PayoutSummaryExecStatus
from ..models.payout_summary_type import PayoutSummaryType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.payout_client_summary import PayoutClientSummary


T = TypeVar("T", bound="PayoutSummary")


@_attrs_define
class PayoutSummary:
    """A row of the payouts list.

    Attributes:
        approval_status (PayoutSummaryApprovalStatus): pending, approved or rejected.
        asset_amount (str):  Example: 100.00.
        asset_code (str):  Example: USDC.
        created_at (datetime.datetime):
        exec_status (PayoutSummaryExecStatus): pending, awaiting_registration, ready_to_send, sent, failed or canceled.
        id (str):  Example: pyt_01a1fc8be56c7228a813c8461b65a699.
        type_ (PayoutSummaryType): direct or disbursement.
        client (None | PayoutClientSummary | Unset):
        client_id (None | str | Unset):
        memo (None | str | Unset):
        wallet_account_id (None | str | Unset): null while the client has no wallet (`awaiting_registration`).
    """

    approval_status: PayoutSummaryApprovalStatus
    asset_amount: str
    asset_code: str
    created_at: datetime.datetime
    exec_status: PayoutSummaryExecStatus
    id: str
    type_: PayoutSummaryType
    client: None | PayoutClientSummary | Unset = UNSET
    client_id: None | str | Unset = UNSET
    memo: None | str | Unset = UNSET
    wallet_account_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.payout_client_summary import PayoutClientSummary

        approval_status = self.approval_status.value

        asset_amount = self.asset_amount

        asset_code = self.asset_code

        created_at = self.created_at.isoformat()

        exec_status = self.exec_status.value

        id = self.id

        type_ = self.type_.value

        client: dict[str, Any] | None | Unset
        if isinstance(self.client, Unset):
            client = UNSET
        elif isinstance(self.client, PayoutClientSummary):
            client = self.client.to_dict()
        else:
            client = self.client

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        wallet_account_id: None | str | Unset
        if isinstance(self.wallet_account_id, Unset):
            wallet_account_id = UNSET
        else:
            wallet_account_id = self.wallet_account_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "approvalStatus": approval_status,
                "assetAmount": asset_amount,
                "assetCode": asset_code,
                "createdAt": created_at,
                "execStatus": exec_status,
                "id": id,
                "type": type_,
            }
        )
        if client is not UNSET:
            field_dict["client"] = client
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if memo is not UNSET:
            field_dict["memo"] = memo
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.payout_client_summary import PayoutClientSummary

        d = dict(src_dict)
        approval_status = PayoutSummaryApprovalStatus(d.pop("approvalStatus"))

        asset_amount = d.pop("assetAmount")

        asset_code = d.pop("assetCode")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        exec_status = PayoutSummaryExecStatus(d.pop("execStatus"))

        id = d.pop("id")

        type_ = PayoutSummaryType(d.pop("type"))

        def _parse_client(data: object) -> None | PayoutClientSummary | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                client_type_1 = PayoutClientSummary.from_dict(data)

                return client_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PayoutClientSummary | Unset, data)

        client = _parse_client(d.pop("client", UNSET))

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        def _parse_wallet_account_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_account_id = _parse_wallet_account_id(d.pop("walletAccountId", UNSET))

        payout_summary = cls(
            approval_status=approval_status,
            asset_amount=asset_amount,
            asset_code=asset_code,
            created_at=created_at,
            exec_status=exec_status,
            id=id,
            type_=type_,
            client=client,
            client_id=client_id,
            memo=memo,
            wallet_account_id=wallet_account_id,
        )

        payout_summary.additional_properties = d
        return payout_summary

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
