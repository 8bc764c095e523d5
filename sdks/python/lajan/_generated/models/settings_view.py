from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.settings_view_default_currency import SettingsViewDefaultCurrency
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.settings_change_view import SettingsChangeView


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
        pending_change (None | SettingsChangeView | Unset):
    """

    default_currency: SettingsViewDefaultCurrency
    default_tax_rate: Decimal
    payout_approval_required: bool
    require_distinct_approver: bool
    timezone: str
    pending_change: None | SettingsChangeView | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.settings_change_view import SettingsChangeView

        default_currency = self.default_currency.value

        default_tax_rate = self.default_tax_rate

        payout_approval_required = self.payout_approval_required

        require_distinct_approver = self.require_distinct_approver

        timezone = self.timezone

        pending_change: dict[str, Any] | None | Unset
        if isinstance(self.pending_change, Unset):
            pending_change = UNSET
        elif isinstance(self.pending_change, SettingsChangeView):
            pending_change = self.pending_change.to_dict()
        else:
            pending_change = self.pending_change

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
        if pending_change is not UNSET:
            field_dict["pendingChange"] = pending_change

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.settings_change_view import SettingsChangeView

        d = dict(src_dict)
        default_currency = SettingsViewDefaultCurrency(d.pop("defaultCurrency"))

        default_tax_rate = d.pop("defaultTaxRate")

        payout_approval_required = d.pop("payoutApprovalRequired")

        require_distinct_approver = d.pop("requireDistinctApprover")

        timezone = d.pop("timezone")

        def _parse_pending_change(data: object) -> None | SettingsChangeView | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pending_change_type_1 = SettingsChangeView.from_dict(data)

                return pending_change_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SettingsChangeView | Unset, data)

        pending_change = _parse_pending_change(d.pop("pendingChange", UNSET))

        settings_view = cls(
            default_currency=default_currency,
            default_tax_rate=default_tax_rate,
            payout_approval_required=payout_approval_required,
            require_distinct_approver=require_distinct_approver,
            timezone=timezone,
            pending_change=pending_change,
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
