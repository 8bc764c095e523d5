from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.intent_state import IntentState


T = TypeVar("T", bound="SandboxPaymentView")


@_attrs_define
class SandboxPaymentView:
    """A payment recorded on the sandbox ledger.

    Attributes:
        amount (str):
        asset_code (str):
        destination_account (str):
        id (str):
        ledger_seq (int):
        payment_intent (IntentState):
        source_account (str):
        tx_hash (str): SHA-256 of the simulated transaction envelope, hex.
        memo (None | str | Unset):
    """

    amount: str
    asset_code: str
    destination_account: str
    id: str
    ledger_seq: int
    payment_intent: IntentState
    source_account: str
    tx_hash: str
    memo: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        asset_code = self.asset_code

        destination_account = self.destination_account

        id = self.id

        ledger_seq = self.ledger_seq

        payment_intent = self.payment_intent.to_dict()

        source_account = self.source_account

        tx_hash = self.tx_hash

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "assetCode": asset_code,
                "destinationAccount": destination_account,
                "id": id,
                "ledgerSeq": ledger_seq,
                "paymentIntent": payment_intent,
                "sourceAccount": source_account,
                "txHash": tx_hash,
            }
        )
        if memo is not UNSET:
            field_dict["memo"] = memo

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.intent_state import IntentState

        d = dict(src_dict)
        amount = d.pop("amount")

        asset_code = d.pop("assetCode")

        destination_account = d.pop("destinationAccount")

        id = d.pop("id")

        ledger_seq = d.pop("ledgerSeq")

        payment_intent = IntentState.from_dict(d.pop("paymentIntent"))

        source_account = d.pop("sourceAccount")

        tx_hash = d.pop("txHash")

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        sandbox_payment_view = cls(
            amount=amount,
            asset_code=asset_code,
            destination_account=destination_account,
            id=id,
            ledger_seq=ledger_seq,
            payment_intent=payment_intent,
            source_account=source_account,
            tx_hash=tx_hash,
            memo=memo,
        )

        sandbox_payment_view.additional_properties = d
        return sandbox_payment_view

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
