from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttemptView")


@_attrs_define
class AttemptView:
    """
    Attributes:
        attempt_number (int):
        created_at (datetime.datetime):
        id (str):  Example: att_01a1fc8be56c7228a813c8461b65a699.
        tx_hash (str): The transaction's hash, stored before it was submitted.
        error_code (None | str | Unset): A Horizon result code such as `op_no_destination`, or `tx_timeout`.
        error_message (None | str | Unset):
        ledger_seq (int | None | Unset): The ledger that included it; null while unknown or when it failed.
    """

    attempt_number: int
    created_at: datetime.datetime
    id: str
    tx_hash: str
    error_code: None | str | Unset = UNSET
    error_message: None | str | Unset = UNSET
    ledger_seq: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_number = self.attempt_number

        created_at = self.created_at.isoformat()

        id = self.id

        tx_hash = self.tx_hash

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

        ledger_seq: int | None | Unset
        if isinstance(self.ledger_seq, Unset):
            ledger_seq = UNSET
        else:
            ledger_seq = self.ledger_seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptNumber": attempt_number,
                "createdAt": created_at,
                "id": id,
                "txHash": tx_hash,
            }
        )
        if error_code is not UNSET:
            field_dict["errorCode"] = error_code
        if error_message is not UNSET:
            field_dict["errorMessage"] = error_message
        if ledger_seq is not UNSET:
            field_dict["ledgerSeq"] = ledger_seq

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt_number = d.pop("attemptNumber")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = d.pop("id")

        tx_hash = d.pop("txHash")

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

        def _parse_ledger_seq(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ledger_seq = _parse_ledger_seq(d.pop("ledgerSeq", UNSET))

        attempt_view = cls(
            attempt_number=attempt_number,
            created_at=created_at,
            id=id,
            tx_hash=tx_hash,
            error_code=error_code,
            error_message=error_message,
            ledger_seq=ledger_seq,
        )

        attempt_view.additional_properties = d
        return attempt_view

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
