from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.settings_view_default_currency import SettingsViewDefaultCurrency

T = TypeVar("T", bound="SettingsView")


@_attrs_define
class SettingsView:
    """
    Attributes:
        default_currency (SettingsViewDefaultCurrency): Currency of new invoices that name none: `HTG` or `USD`.
            Example: HTG.
        default_tax_rate (Decimal): Percent applied to line items without their own `taxRate`, 0 to 100, up to 3 decimals.
            Example: 10.
        payout_approval_required (bool): When true, new payouts wait for approval.
        require_distinct_approver (bool): When true, the key approving a payout must differ from the key that created
            it.
        timezone (str): IANA timezone in which invoice due dates are judged. Example: America/Port-au-Prince.
    """

    default_currency: SettingsViewDefaultCurrency
    default_tax_rate: Decimal
    payout_approval_required: bool
    require_distinct_approver: bool
    timezone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        default_currency = self.default_currency.value

        default_tax_rate = self.default_tax_rate

        payout_approval_required = self.payout_approval_required

        require_distinct_approver = self.require_distinct_approver

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "defaultCurrency": default_currency,
                "defaultTaxRate": default_tax_rate,
                "payoutApprovalRequired": payout_approval_required,
                "requireDistinctApprover": require_distinct_approver,
                "timezone": timezone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        default_currency = SettingsViewDefaultCurrency(d.pop("defaultCurrency"))

        default_tax_rate = d.pop("defaultTaxRate")

        payout_approval_required = d.pop("payoutApprovalRequired")

        require_distinct_approver = d.pop("requireDistinctApprover")

        timezone = d.pop("timezone")

        settings_view = cls(
            default_currency=default_currency,
            default_tax_rate=default_tax_rate,
            payout_approval_required=payout_approval_required,
            require_distinct_approver=require_distinct_approver,
            timezone=timezone,
        )

        settings_view.additional_properties = d
        return settings_view

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
