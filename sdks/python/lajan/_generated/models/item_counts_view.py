from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ItemCountsView")


@_attrs_define
class ItemCountsView:
    """How many items are in each state; they add up to `itemCount`.

    Attributes:
        awaiting_registration (int): Approved, waiting for the client to register a wallet.
        canceled (int): Its client never registered a wallet, or the organization canceled it.
        executing (int): Being sent (the payout is `ready_to_send`).
        failed (int):
        pending (int): In a draft, awaiting approval, or approved and not yet taken by the executor.
        rejected (int):
        sent (int):
    """

    awaiting_registration: int
    canceled: int
    executing: int
    failed: int
    pending: int
    rejected: int
    sent: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        awaiting_registration = self.awaiting_registration

        canceled = self.canceled

        executing = self.executing

        failed = self.failed

        pending = self.pending

        rejected = self.rejected

        sent = self.sent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "awaitingRegistration": awaiting_registration,
                "canceled": canceled,
                "executing": executing,
                "failed": failed,
                "pending": pending,
                "rejected": rejected,
                "sent": sent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        awaiting_registration = d.pop("awaitingRegistration")

        canceled = d.pop("canceled")

        executing = d.pop("executing")

        failed = d.pop("failed")

        pending = d.pop("pending")

        rejected = d.pop("rejected")

        sent = d.pop("sent")

        item_counts_view = cls(
            awaiting_registration=awaiting_registration,
            canceled=canceled,
            executing=executing,
            failed=failed,
            pending=pending,
            rejected=rejected,
            sent=sent,
        )

        item_counts_view.additional_properties = d
        return item_counts_view

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
