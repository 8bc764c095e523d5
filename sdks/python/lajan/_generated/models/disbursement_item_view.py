from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.disbursement_item_view_approval_status_type_1 import (
    DisbursementItemViewApprovalStatusType1,
)
from ..models.disbursement_item_view_approval_status_type_2_type_1 import (
    DisbursementItemViewApprovalStatusType2Type1,
)
from ..models.disbursement_item_view_approval_status_type_3_type_1 import (
    DisbursementItemViewApprovalStatusType3Type1,
)
from ..models.disbursement_item_view_exec_status_type_1 import (
    DisbursementItemViewExecStatusType1,
)
from ..models.disbursement_item_view_exec_status_type_2_type_1 import (
    DisbursementItemViewExecStatusType2Type1,
)
from ..models.disbursement_item_view_exec_status_type_3_type_1 import (
    DisbursementItemViewExecStatusType3Type1,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="DisbursementItemView")


@_attrs_define
class DisbursementItemView:
    """One item of a disbursement and, once submitted, its payout. A row of the CSV report too,
    with the same columns in this order.

        Attributes:
            asset_amount (str):  Example: 125.50.
            id (str):  Example: dsi_01a1fc8be56c7228a813c8461b65a699.
            row (int): The item's row as given: its place in `items`, or the CSV data row, from 1.
            approval_status (DisbursementItemViewApprovalStatusType1 | DisbursementItemViewApprovalStatusType2Type1 |
                DisbursementItemViewApprovalStatusType3Type1 | None | Unset): The payout's pending, approved or rejected; null
                in a draft.
            client_id (None | str | Unset):
            error_code (None | str | Unset): Why the latest attempt failed, e.g. `op_no_trust`.
            error_message (None | str | Unset):
            exec_status (DisbursementItemViewExecStatusType1 | DisbursementItemViewExecStatusType2Type1 |
                DisbursementItemViewExecStatusType3Type1 | None | Unset): The payout's pending, awaiting_registration,
                ready_to_send, sent, failed or canceled; null in
                a draft.
            external_id (None | str | Unset):
            memo (None | str | Unset):
            payout_id (None | str | Unset): The payout paying this item; null in a draft.
            tx_hash (None | str | Unset): The hash of the payout's latest transaction.
            wallet_account_id (None | str | Unset): The wallet paid: the one given, or the client's when the draft was
                created; null when
                the client had none (the payout takes their wallet when they register one).
    """

    asset_amount: str
    id: str
    row: int
    approval_status: (
        DisbursementItemViewApprovalStatusType1
        | DisbursementItemViewApprovalStatusType2Type1
        | DisbursementItemViewApprovalStatusType3Type1
        | None
        | Unset
    ) = UNSET
    client_id: None | str | Unset = UNSET
    error_code: None | str | Unset = UNSET
    error_message: None | str | Unset = UNSET
    exec_status: (
        DisbursementItemViewExecStatusType1
        | DisbursementItemViewExecStatusType2Type1
        | DisbursementItemViewExecStatusType3Type1
        | None
        | Unset
    ) = UNSET
    external_id: None | str | Unset = UNSET
    memo: None | str | Unset = UNSET
    payout_id: None | str | Unset = UNSET
    tx_hash: None | str | Unset = UNSET
    wallet_account_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        asset_amount = self.asset_amount

        id = self.id

        row = self.row

        approval_status: None | str | Unset
        if isinstance(self.approval_status, Unset):
            approval_status = UNSET
        elif (
            isinstance(self.approval_status, DisbursementItemViewApprovalStatusType1)
            or isinstance(
                self.approval_status, DisbursementItemViewApprovalStatusType2Type1
            )
            or isinstance(
                self.approval_status, DisbursementItemViewApprovalStatusType3Type1
            )
        ):
            approval_status = self.approval_status.value
        else:
            approval_status = self.approval_status

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        error_code: None | str | Unset
        if isinstance(self.error_code, Unset):
            error_code = UNSET
        else:
            error_code = self.error_code

        error_message: None | str | Unset
        if isinstance(self.error_message, Unset):
            error_message = UNSET
        else:
            error_message = self.error_message

        exec_status: None | str | Unset
        if isinstance(self.exec_status, Unset):
            exec_status = UNSET
        elif (
            isinstance(self.exec_status, DisbursementItemViewExecStatusType1)
            or isinstance(self.exec_status, DisbursementItemViewExecStatusType2Type1)
            or isinstance(self.exec_status, DisbursementItemViewExecStatusType3Type1)
        ):
            exec_status = self.exec_status.value
        else:
            exec_status = self.exec_status

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

        payout_id: None | str | Unset
        if isinstance(self.payout_id, Unset):
            payout_id = UNSET
        else:
            payout_id = self.payout_id

        tx_hash: None | str | Unset
        if isinstance(self.tx_hash, Unset):
            tx_hash = UNSET
        else:
            tx_hash = self.tx_hash

        wallet_account_id: None | str | Unset
        if isinstance(self.wallet_account_id, Unset):
            wallet_account_id = UNSET
        else:
            wallet_account_id = self.wallet_account_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "assetAmount": asset_amount,
                "id": id,
                "row": row,
            }
        )
        if approval_status is not UNSET:
            field_dict["approvalStatus"] = approval_status
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if error_code is not UNSET:
            field_dict["errorCode"] = error_code
        if error_message is not UNSET:
            field_dict["errorMessage"] = error_message
        if exec_status is not UNSET:
            field_dict["execStatus"] = exec_status
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if memo is not UNSET:
            field_dict["memo"] = memo
        if payout_id is not UNSET:
            field_dict["payoutId"] = payout_id
        if tx_hash is not UNSET:
            field_dict["txHash"] = tx_hash
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        asset_amount = d.pop("assetAmount")

        id = d.pop("id")

        row = d.pop("row")

        def _parse_approval_status(
            data: object,
        ) -> (
            DisbursementItemViewApprovalStatusType1
            | DisbursementItemViewApprovalStatusType2Type1
            | DisbursementItemViewApprovalStatusType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approval_status_type_1 = DisbursementItemViewApprovalStatusType1(data)

                return approval_status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approval_status_type_2_type_1 = (
                    DisbursementItemViewApprovalStatusType2Type1(data)
                )

                return approval_status_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approval_status_type_3_type_1 = (
                    DisbursementItemViewApprovalStatusType3Type1(data)
                )

                return approval_status_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                DisbursementItemViewApprovalStatusType1
                | DisbursementItemViewApprovalStatusType2Type1
                | DisbursementItemViewApprovalStatusType3Type1
                | None
                | Unset,
                data,
            )

        approval_status = _parse_approval_status(d.pop("approvalStatus", UNSET))

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_error_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_code = _parse_error_code(d.pop("errorCode", UNSET))

        def _parse_error_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_message = _parse_error_message(d.pop("errorMessage", UNSET))

        def _parse_exec_status(
            data: object,
        ) -> (
            DisbursementItemViewExecStatusType1
            | DisbursementItemViewExecStatusType2Type1
            | DisbursementItemViewExecStatusType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                exec_status_type_1 = DisbursementItemViewExecStatusType1(data)

                return exec_status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                exec_status_type_2_type_1 = DisbursementItemViewExecStatusType2Type1(
                    data
                )

                return exec_status_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                exec_status_type_3_type_1 = DisbursementItemViewExecStatusType3Type1(
                    data
                )

                return exec_status_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                DisbursementItemViewExecStatusType1
                | DisbursementItemViewExecStatusType2Type1
                | DisbursementItemViewExecStatusType3Type1
                | None
                | Unset,
                data,
            )

        exec_status = _parse_exec_status(d.pop("execStatus", UNSET))

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

        def _parse_payout_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        payout_id = _parse_payout_id(d.pop("payoutId", UNSET))

        def _parse_tx_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tx_hash = _parse_tx_hash(d.pop("txHash", UNSET))

        def _parse_wallet_account_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_account_id = _parse_wallet_account_id(d.pop("walletAccountId", UNSET))

        disbursement_item_view = cls(
            asset_amount=asset_amount,
            id=id,
            row=row,
            approval_status=approval_status,
            client_id=client_id,
            error_code=error_code,
            error_message=error_message,
            exec_status=exec_status,
            external_id=external_id,
            memo=memo,
            payout_id=payout_id,
            tx_hash=tx_hash,
            wallet_account_id=wallet_account_id,
        )

        disbursement_item_view.additional_properties = d
        return disbursement_item_view

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
