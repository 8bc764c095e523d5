from __future__ import annotations

from decimal import Decimal
import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.currency import Currency
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatePaymentLink")


@_attrs_define
class CreatePaymentLink:
    """
    Attributes:
        amount (Decimal): Positive, at most 2 decimal places and at most 922337203685.47; read exactly. Example: 500.
        description (str): One line, at most 500 characters. Example: Membership fee 2027.
        currency (Currency | None | Unset):
        expires_at (datetime.datetime | None | Unset): When the link stops accepting payments (RFC 3339, in the future
            and before
            2100-01-01T00:00:00Z); default: never.
    """

    amount: Decimal
    description: str
    currency: Currency | None | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        description = self.description

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        elif isinstance(self.currency, Currency):
            currency = self.currency.value
        else:
            currency = self.currency

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "description": description,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        description = d.pop("description")

        def _parse_currency(data: object) -> Currency | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_1 = Currency(data)

                return currency_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Currency | None | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

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

        create_payment_link = cls(
            amount=amount,
            description=description,
            currency=currency,
            expires_at=expires_at,
        )

        return create_payment_link
