from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.currency import Currency
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateSettings")


@_attrs_define
class UpdateSettings:
    """Fields to change; those left out keep their value. None can be cleared: `null` is a
    `validation_error`.

        Attributes:
            default_currency (Currency | Unset): An invoicing currency.
            default_tax_rate (Decimal | Unset):
            payout_approval_required (bool | Unset):
            require_distinct_approver (bool | Unset):
            timezone (str | Unset):
    """

    default_currency: Currency | Unset = UNSET
    default_tax_rate: Decimal | Unset = UNSET
    payout_approval_required: bool | Unset = UNSET
    require_distinct_approver: bool | Unset = UNSET
    timezone: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        default_currency: str | Unset = UNSET
        if not isinstance(self.default_currency, Unset):
            default_currency = self.default_currency.value

        default_tax_rate = self.default_tax_rate

        payout_approval_required = self.payout_approval_required

        require_distinct_approver = self.require_distinct_approver

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if default_currency is not UNSET:
            field_dict["defaultCurrency"] = default_currency
        if default_tax_rate is not UNSET:
            field_dict["defaultTaxRate"] = default_tax_rate
        if payout_approval_required is not UNSET:
            field_dict["payoutApprovalRequired"] = payout_approval_required
        if require_distinct_approver is not UNSET:
            field_dict["requireDistinctApprover"] = require_distinct_approver
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _default_currency = d.pop("defaultCurrency", UNSET)
        default_currency: Currency | Unset
        if isinstance(_default_currency, Unset):
            default_currency = UNSET
        else:
            default_currency = Currency(_default_currency)

        default_tax_rate = d.pop("defaultTaxRate", UNSET)

        payout_approval_required = d.pop("payoutApprovalRequired", UNSET)

        require_distinct_approver = d.pop("requireDistinctApprover", UNSET)

        timezone = d.pop("timezone", UNSET)

        update_settings = cls(
            default_currency=default_currency,
            default_tax_rate=default_tax_rate,
            payout_approval_required=payout_approval_required,
            require_distinct_approver=require_distinct_approver,
            timezone=timezone,
        )

        return update_settings
