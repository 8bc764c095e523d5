from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.payment_link_view_currency import PaymentLinkViewCurrency
from ..models.payment_link_view_status import PaymentLinkViewStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="PaymentLinkView")


@_attrs_define
class PaymentLinkView:
    """A payment link as the payment-links area shows it.

    Attributes:
        amount (str):  Example: 500.00.
        amount_paid (str): Received so far (may exceed the amount).
        created_at (datetime.datetime):
        currency (PaymentLinkViewCurrency):
        description (str):
        id (str):  Example: pl_01a1fc8be56c7228a813c8461b65a699.
        status (PaymentLinkViewStatus): active, inactive, expired or paid.
        url (str):
        expires_at (datetime.datetime | None | Unset):
    """

    amount: str
    amount_paid: str
    created_at: datetime.datetime
    currency: PaymentLinkViewCurrency
    description: str
    id: str
    status: PaymentLinkViewStatus
    url: str
    expires_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        amount_paid = self.amount_paid

        created_at = self.created_at.isoformat()

        currency = self.currency.value

        description = self.description

        id = self.id

        status = self.status.value

        url = self.url

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "amountPaid": amount_paid,
                "createdAt": created_at,
                "currency": currency,
                "description": description,
                "id": id,
                "status": status,
                "url": url,
            }
        )
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        amount_paid = d.pop("amountPaid")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        currency = PaymentLinkViewCurrency(d.pop("currency"))

        description = d.pop("description")

        id = d.pop("id")

        status = PaymentLinkViewStatus(d.pop("status"))

        url = d.pop("url")

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))

        payment_link_view = cls(
            amount=amount,
            amount_paid=amount_paid,
            created_at=created_at,
            currency=currency,
            description=description,
            id=id,
            status=status,
            url=url,
            expires_at=expires_at,
        )

        payment_link_view.additional_properties = d
        return payment_link_view

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
