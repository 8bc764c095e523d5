from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateDisbursementItem")


@_attrs_define
class CreateDisbursementItem:
    """One payout of the batch, validated as a single payout is.

    Attributes:
        asset_amount (Decimal): Positive, a plain decimal with at most 2 decimals as written (1e2 and 10.000 are refused);
            read exactly. Example: 125.5.
        client_id (None | str | Unset): One of clientId / walletAccountId is required; with clientId the client's wallet
            is used, and
            when both are given the wallet must be the client's (else invalid_wallet).
        external_id (None | str | Unset): Your reference for the item (at most 100 characters), unique in the batch.
        memo (None | str | Unset): At most 28 bytes of UTF-8.
        wallet_account_id (None | str | Unset):
    """

    asset_amount: Decimal
    client_id: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    memo: None | str | Unset = UNSET
    wallet_account_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        asset_amount = self.asset_amount

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

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

        field_dict.update(
            {
                "assetAmount": asset_amount,
            }
        )
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if memo is not UNSET:
            field_dict["memo"] = memo
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        asset_amount = d.pop("assetAmount")

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

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

        create_disbursement_item = cls(
            asset_amount=asset_amount,
            client_id=client_id,
            external_id=external_id,
            memo=memo,
            wallet_account_id=wallet_account_id,
        )

        return create_disbursement_item
