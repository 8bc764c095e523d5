from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.payout_view_approval_status import PayoutViewApprovalStatus
from ..models.payout_view_exec_status import PayoutViewExecStatus
from ..models.payout_view_type import PayoutViewType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attempt_view import AttemptView
    from ..models.hold_view import HoldView
    from ..models.payout_client import PayoutClient


T = TypeVar("T", bound="PayoutView")


@_attrs_define
class PayoutView:
    """A payout in full, with every attempt.

    Attributes:
        approval_status (PayoutViewApprovalStatus):
        asset_amount (str):
        asset_code (str):
        attempts (list[AttemptView]):
        created_at (datetime.datetime):
        exec_status (PayoutViewExecStatus): pending, awaiting_registration, ready_to_send, sent, failed or canceled.
        id (str):
        type_ (PayoutViewType):
        updated_at (datetime.datetime):
        asset_issuer (None | str | Unset): null for the native asset (XLM).
        cancel_reason (None | str | Unset): Why it was canceled: receiver_not_registered (its client did not register a
            wallet within
            the settings' registrationWindowDays) or requested (POST /v1/payouts/{id}/cancel); null
            unless execStatus is canceled. Example: receiver_not_registered.
        client (None | PayoutClient | Unset):
        client_id (None | str | Unset):
        hold (HoldView | None | Unset):
        memo (None | str | Unset): The organization's text memo. It is the one on the network unless `walletMemo` is
            set.
        wallet_account_id (None | str | Unset): The wallet paid; null while the client has none: the payout waits in
            `awaiting_registration` and takes the client's wallet when they register one.
        wallet_memo (None | str | Unset): The memo the receiving wallet needs (a custodial wallet or an exchange), taken
            from the
            client with its wallet when the payout was created or released; the transaction carries
            it instead of `memo`. null when the wallet needs none. Example: 1234567.
        wallet_memo_type (None | str | Unset): text, id or hash (null with `walletMemo`). Example: id.
    """

    approval_status: PayoutViewApprovalStatus
    asset_amount: str
    asset_code: str
    attempts: list[AttemptView]
    created_at: datetime.datetime
    exec_status: PayoutViewExecStatus
    id: str
    type_: PayoutViewType
    updated_at: datetime.datetime
    asset_issuer: None | str | Unset = UNSET
    cancel_reason: None | str | Unset = UNSET
    client: None | PayoutClient | Unset = UNSET
    client_id: None | str | Unset = UNSET
    hold: HoldView | None | Unset = UNSET
    memo: None | str | Unset = UNSET
    wallet_account_id: None | str | Unset = UNSET
    wallet_memo: None | str | Unset = UNSET
    wallet_memo_type: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.hold_view import HoldView
        from ..models.payout_client import PayoutClient

        approval_status = self.approval_status.value

        asset_amount = self.asset_amount

        asset_code = self.asset_code

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        created_at = self.created_at.isoformat()

        exec_status = self.exec_status.value

        id = self.id

        type_ = self.type_.value

        updated_at = self.updated_at.isoformat()

        asset_issuer: None | str | Unset
        if isinstance(self.asset_issuer, Unset):
            asset_issuer = UNSET
        else:
            asset_issuer = self.asset_issuer

        cancel_reason: None | str | Unset
        if isinstance(self.cancel_reason, Unset):
            cancel_reason = UNSET
        else:
            cancel_reason = self.cancel_reason

        client: dict[str, Any] | None | Unset
        if isinstance(self.client, Unset):
            client = UNSET
        elif isinstance(self.client, PayoutClient):
            client = self.client.to_dict()
        else:
            client = self.client

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        hold: dict[str, Any] | None | Unset
        if isinstance(self.hold, Unset):
            hold = UNSET
        elif isinstance(self.hold, HoldView):
            hold = self.hold.to_dict()
        else:
            hold = self.hold

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

        wallet_memo: None | str | Unset
        if isinstance(self.wallet_memo, Unset):
            wallet_memo = UNSET
        else:
            wallet_memo = self.wallet_memo

        wallet_memo_type: None | str | Unset
        if isinstance(self.wallet_memo_type, Unset):
            wallet_memo_type = UNSET
        else:
            wallet_memo_type = self.wallet_memo_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "approvalStatus": approval_status,
                "assetAmount": asset_amount,
                "assetCode": asset_code,
                "attempts": attempts,
                "createdAt": created_at,
                "execStatus": exec_status,
                "id": id,
                "type": type_,
                "updatedAt": updated_at,
            }
        )
        if asset_issuer is not UNSET:
            field_dict["assetIssuer"] = asset_issuer
        if cancel_reason is not UNSET:
            field_dict["cancelReason"] = cancel_reason
        if client is not UNSET:
            field_dict["client"] = client
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if hold is not UNSET:
            field_dict["hold"] = hold
        if memo is not UNSET:
            field_dict["memo"] = memo
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id
        if wallet_memo is not UNSET:
            field_dict["walletMemo"] = wallet_memo
        if wallet_memo_type is not UNSET:
            field_dict["walletMemoType"] = wallet_memo_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attempt_view import AttemptView
        from ..models.hold_view import HoldView
        from ..models.payout_client import PayoutClient

        d = dict(src_dict)
        approval_status = PayoutViewApprovalStatus(d.pop("approvalStatus"))

        asset_amount = d.pop("assetAmount")

        asset_code = d.pop("assetCode")

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = AttemptView.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        exec_status = PayoutViewExecStatus(d.pop("execStatus"))

        id = d.pop("id")

        type_ = PayoutViewType(d.pop("type"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_asset_issuer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        asset_issuer = _parse_asset_issuer(d.pop("assetIssuer", UNSET))

        def _parse_cancel_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cancel_reason = _parse_cancel_reason(d.pop("cancelReason", UNSET))

        def _parse_client(data: object) -> None | PayoutClient | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                client_type_1 = PayoutClient.from_dict(data)

                return client_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PayoutClient | Unset, data)

        client = _parse_client(d.pop("client", UNSET))

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_hold(data: object) -> HoldView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                hold_type_1 = HoldView.from_dict(data)

                return hold_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HoldView | None | Unset, data)

        hold = _parse_hold(d.pop("hold", UNSET))

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

        def _parse_wallet_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_memo = _parse_wallet_memo(d.pop("walletMemo", UNSET))

        def _parse_wallet_memo_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_memo_type = _parse_wallet_memo_type(d.pop("walletMemoType", UNSET))

        payout_view = cls(
            approval_status=approval_status,
            asset_amount=asset_amount,
            asset_code=asset_code,
            attempts=attempts,
            created_at=created_at,
            exec_status=exec_status,
            id=id,
            type_=type_,
            updated_at=updated_at,
            asset_issuer=asset_issuer,
            cancel_reason=cancel_reason,
            client=client,
            client_id=client_id,
            hold=hold,
            memo=memo,
            wallet_account_id=wallet_account_id,
            wallet_memo=wallet_memo,
            wallet_memo_type=wallet_memo_type,
        )

        payout_view.additional_properties = d
        return payout_view

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
