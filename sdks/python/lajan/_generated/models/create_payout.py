from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatePayout")


@_attrs_define
class CreatePayout:
    """A payout to a client's wallet (`clientId`) or to a wallet given directly.

    Attributes:
        asset_amount (Decimal): Positive, a plain decimal with at most 2 decimals as written (1e2 and 10.000 are refused);
            read exactly. Example: 100.
        asset_code (str): 1 to 12 letters or digits, e.g. USDC, HTG, XLM. Example: USDC.
        asset_issuer (None | str | Unset): The asset's issuer; default: the configured issuer for the code; refused for
            XLM.
        client_id (None | str | Unset): One of clientId / walletAccountId is required; with clientId the client's wallet
            is used, and
            when both are given the wallet must be the client's (else invalid_wallet).
        memo (None | str | Unset): The Stellar text memo the recipient's wallet shows: at most 28 bytes of UTF-8 (28
            ASCII
            characters; é and other accented letters take 2 bytes), no control characters.
        wallet_account_id (None | str | Unset): A Stellar account (StrKey `G...`, checksum verified).
    """

    asset_amount: Decimal
    asset_code: str
    asset_issuer: None | str | Unset = UNSET
    client_id: None | str | Unset = UNSET
    memo: None | str | Unset = UNSET
    wallet_account_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        asset_amount = self.asset_amount

        asset_code = self.asset_code

        asset_issuer: None | str | Unset
        if isinstance(self.asset_issuer, Unset):
            asset_issuer = UNSET
        else:
            asset_issuer = self.asset_issuer

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

        field_dict.update(
            {
                "assetAmount": asset_amount,
                "assetCode": asset_code,
            }
        )
        if asset_issuer is not UNSET:
            field_dict["assetIssuer"] = asset_issuer
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if memo is not UNSET:
            field_dict["memo"] = memo
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        asset_amount = d.pop("assetAmount")

        asset_code = d.pop("assetCode")

        def _parse_asset_issuer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        asset_issuer = _parse_asset_issuer(d.pop("assetIssuer", UNSET))

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

        create_payout = cls(
            asset_amount=asset_amount,
            asset_code=asset_code,
            asset_issuer=asset_issuer,
            client_id=client_id,
            memo=memo,
            wallet_account_id=wallet_account_id,
        )

        return create_payout
