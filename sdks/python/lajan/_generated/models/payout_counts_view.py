from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PayoutCountsView")


@_attrs_define
class PayoutCountsView:
    """
    Attributes:
        all_ (int):
        approved (int):
        awaiting_registration (int): Approved, waiting for the client to register a wallet.
        canceled (int):
        completed (int):
        executing (int):
        failed (int):
        pending_approval (int):
        rejected (int):
    """

    all_: int
    approved: int
    awaiting_registration: int
    canceled: int
    completed: int
    executing: int
    failed: int
    pending_approval: int
    rejected: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        all_ = self.all_

        approved = self.approved

        awaiting_registration = self.awaiting_registration

        canceled = self.canceled

        completed = self.completed

        executing = self.executing

        failed = self.failed

        pending_approval = self.pending_approval

        rejected = self.rejected

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "all": all_,
                "approved": approved,
                "awaiting_registration": awaiting_registration,
                "canceled": canceled,
                "completed": completed,
                "executing": executing,
                "failed": failed,
                "pending_approval": pending_approval,
                "rejected": rejected,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        all_ = d.pop("all")

        approved = d.pop("approved")

        awaiting_registration = d.pop("awaiting_registration")

        canceled = d.pop("canceled")

        completed = d.pop("completed")

        executing = d.pop("executing")

        failed = d.pop("failed")

        pending_approval = d.pop("pending_approval")

        rejected = d.pop("rejected")

        payout_counts_view = cls(
            all_=all_,
            approved=approved,
            awaiting_registration=awaiting_registration,
            canceled=canceled,
            completed=completed,
            executing=executing,
            failed=failed,
            pending_approval=pending_approval,
            rejected=rejected,
        )

        payout_counts_view.additional_properties = d
        return payout_counts_view

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
