from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.queued_message import QueuedMessage


T = TypeVar("T", bound="ReminderView")


@_attrs_define
class ReminderView:
    """A payment reminder as `invoice.reminder_sent` shows it: what it reminded of and its messages.

    Attributes:
        amount_due (str): What was still due of it. Example: 500.00.
        due_date (datetime.date):  Example: 2026-12-15.
        messages (list[QueuedMessage]):
        offset_days (int): Days from the due date it was sent at (negative: before). Example: 3.
        installment (int | None | Unset): The instalment it is about (from 1); null for an invoice without a plan.
    """

    amount_due: str
    due_date: datetime.date
    messages: list[QueuedMessage]
    offset_days: int
    installment: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_due = self.amount_due

        due_date = self.due_date.isoformat()

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        offset_days = self.offset_days

        installment: int | None | Unset
        if isinstance(self.installment, Unset):
            installment = UNSET
        else:
            installment = self.installment

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amountDue": amount_due,
                "dueDate": due_date,
                "messages": messages,
                "offsetDays": offset_days,
            }
        )
        if installment is not UNSET:
            field_dict["installment"] = installment

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queued_message import QueuedMessage

        d = dict(src_dict)
        amount_due = d.pop("amountDue")

        due_date = datetime.date.fromisoformat(d.pop("dueDate"))

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = QueuedMessage.from_dict(messages_item_data)

            messages.append(messages_item)

        offset_days = d.pop("offsetDays")

        def _parse_installment(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        installment = _parse_installment(d.pop("installment", UNSET))

        reminder_view = cls(
            amount_due=amount_due,
            due_date=due_date,
            messages=messages,
            offset_days=offset_days,
            installment=installment,
        )

        reminder_view.additional_properties = d
        return reminder_view

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
