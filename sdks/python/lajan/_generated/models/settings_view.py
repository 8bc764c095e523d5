from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.settings_view_default_currency import SettingsViewDefaultCurrency
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.recommended_wallet_view import RecommendedWalletView
    from ..models.reminders_view import RemindersView
    from ..models.settings_change_view import SettingsChangeView


T = TypeVar("T", bound="SettingsView")


@_attrs_define
class SettingsView:
    """
    Attributes:
        allow_partial_payments (bool): When true (the default), the payment page lets a payer pay part of what is due,
            any amount
            up to it; when false it asks for exactly what is due. A smaller payment that arrives
            anyway is still counted.
        default_client_language (str): The language of a client created without one: ht, fr or en. Example: ht.
        default_currency (SettingsViewDefaultCurrency): Currency of new invoices that name none: `HTG` or `USD`.
            Example: HTG.
        default_tax_rate (Decimal): Percent applied to line items without their own `taxRate`, 0 to 100, up to 3 decimals.
            Example: 10.
        invitation_resend_days (int): Days before an unanswered invitation is sent again. Example: 3.
        invitation_resends (int): How many times an unanswered invitation is sent again. Example: 2.
        payment_receipts (bool): When true (the default), a client gets a short receipt, with what is left, when a
            payment
            of their invoice lands.
        payout_approval_required (bool): When true, new payouts wait for approval.
        recommended_wallets (list[RecommendedWalletView]): The wallets the registration page suggests to a receiver who
            has none, in this order.
        registration_window_days (int): Days an approved payout waits for its client to register a wallet before it is
            canceled. Example: 14.
        reminders (RemindersView): The reminder schedule: each unpaid instalment (or invoice) is reminded on these days
            from
            its due date, at the organization's time of day, on each channel the client can receive.
        require_distinct_approver (bool): When true, the key approving a payout must differ from the key that created
            it.
        timezone (str): IANA timezone in which invoice due dates are judged. Example: America/Port-au-Prince.
        whatsapp_invitations (bool): Invitations to a phone go by WhatsApp (through the same SMS provider) instead of
            SMS.
        home_domain (None | str | Unset): The organization's own domain, pointed at Lajan, whose stellar.toml names it.
            Example: pay.fonkoze.example.
        org_description (None | str | Unset): SEP-1 `ORG_DESCRIPTION`. Example: Microfinance for Haiti's rural women.
        org_logo (None | str | Unset): SEP-1 `ORG_LOGO`. Example: https://fonkoze.example/logo.png.
        org_official_email (None | str | Unset): SEP-1 `ORG_OFFICIAL_EMAIL`. Example: info@fonkoze.example.
        org_support_email (None | str | Unset): SEP-1 `ORG_SUPPORT_EMAIL`. Example: help@fonkoze.example.
        org_url (None | str | Unset): SEP-1 `ORG_URL`. Example: https://fonkoze.example.
        pending_change (None | SettingsChangeView | Unset):
    """

    allow_partial_payments: bool
    default_client_language: str
    default_currency: SettingsViewDefaultCurrency
    default_tax_rate: Decimal
    invitation_resend_days: int
    invitation_resends: int
    payment_receipts: bool
    payout_approval_required: bool
    recommended_wallets: list[RecommendedWalletView]
    registration_window_days: int
    reminders: RemindersView
    require_distinct_approver: bool
    timezone: str
    whatsapp_invitations: bool
    home_domain: None | str | Unset = UNSET
    org_description: None | str | Unset = UNSET
    org_logo: None | str | Unset = UNSET
    org_official_email: None | str | Unset = UNSET
    org_support_email: None | str | Unset = UNSET
    org_url: None | str | Unset = UNSET
    pending_change: None | SettingsChangeView | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.settings_change_view import SettingsChangeView

        allow_partial_payments = self.allow_partial_payments

        default_client_language = self.default_client_language

        default_currency = self.default_currency.value

        default_tax_rate = self.default_tax_rate

        invitation_resend_days = self.invitation_resend_days

        invitation_resends = self.invitation_resends

        payment_receipts = self.payment_receipts

        payout_approval_required = self.payout_approval_required

        recommended_wallets = []
        for recommended_wallets_item_data in self.recommended_wallets:
            recommended_wallets_item = recommended_wallets_item_data.to_dict()
            recommended_wallets.append(recommended_wallets_item)

        registration_window_days = self.registration_window_days

        reminders = self.reminders.to_dict()

        require_distinct_approver = self.require_distinct_approver

        timezone = self.timezone

        whatsapp_invitations = self.whatsapp_invitations

        home_domain: None | str | Unset
        if isinstance(self.home_domain, Unset):
            home_domain = UNSET
        else:
            home_domain = self.home_domain

        org_description: None | str | Unset
        if isinstance(self.org_description, Unset):
            org_description = UNSET
        else:
            org_description = self.org_description

        org_logo: None | str | Unset
        if isinstance(self.org_logo, Unset):
            org_logo = UNSET
        else:
            org_logo = self.org_logo

        org_official_email: None | str | Unset
        if isinstance(self.org_official_email, Unset):
            org_official_email = UNSET
        else:
            org_official_email = self.org_official_email

        org_support_email: None | str | Unset
        if isinstance(self.org_support_email, Unset):
            org_support_email = UNSET
        else:
            org_support_email = self.org_support_email

        org_url: None | str | Unset
        if isinstance(self.org_url, Unset):
            org_url = UNSET
        else:
            org_url = self.org_url

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
                "allowPartialPayments": allow_partial_payments,
                "defaultClientLanguage": default_client_language,
                "defaultCurrency": default_currency,
                "defaultTaxRate": default_tax_rate,
                "invitationResendDays": invitation_resend_days,
                "invitationResends": invitation_resends,
                "paymentReceipts": payment_receipts,
                "payoutApprovalRequired": payout_approval_required,
                "recommendedWallets": recommended_wallets,
                "registrationWindowDays": registration_window_days,
                "reminders": reminders,
                "requireDistinctApprover": require_distinct_approver,
                "timezone": timezone,
                "whatsappInvitations": whatsapp_invitations,
            }
        )
        if home_domain is not UNSET:
            field_dict["homeDomain"] = home_domain
        if org_description is not UNSET:
            field_dict["orgDescription"] = org_description
        if org_logo is not UNSET:
            field_dict["orgLogo"] = org_logo
        if org_official_email is not UNSET:
            field_dict["orgOfficialEmail"] = org_official_email
        if org_support_email is not UNSET:
            field_dict["orgSupportEmail"] = org_support_email
        if org_url is not UNSET:
            field_dict["orgUrl"] = org_url
        if pending_change is not UNSET:
            field_dict["pendingChange"] = pending_change

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.recommended_wallet_view import RecommendedWalletView
        from ..models.reminders_view import RemindersView
        from ..models.settings_change_view import SettingsChangeView

        d = dict(src_dict)
        allow_partial_payments = d.pop("allowPartialPayments")

        default_client_language = d.pop("defaultClientLanguage")

        default_currency = SettingsViewDefaultCurrency(d.pop("defaultCurrency"))

        default_tax_rate = d.pop("defaultTaxRate")

        invitation_resend_days = d.pop("invitationResendDays")

        invitation_resends = d.pop("invitationResends")

        payment_receipts = d.pop("paymentReceipts")

        payout_approval_required = d.pop("payoutApprovalRequired")

        recommended_wallets = []
        _recommended_wallets = d.pop("recommendedWallets")
        for recommended_wallets_item_data in _recommended_wallets:
            recommended_wallets_item = RecommendedWalletView.from_dict(
                recommended_wallets_item_data
            )

            recommended_wallets.append(recommended_wallets_item)

        registration_window_days = d.pop("registrationWindowDays")

        reminders = RemindersView.from_dict(d.pop("reminders"))

        require_distinct_approver = d.pop("requireDistinctApprover")

        timezone = d.pop("timezone")

        whatsapp_invitations = d.pop("whatsappInvitations")

        def _parse_home_domain(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        home_domain = _parse_home_domain(d.pop("homeDomain", UNSET))

        def _parse_org_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        org_description = _parse_org_description(d.pop("orgDescription", UNSET))

        def _parse_org_logo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        org_logo = _parse_org_logo(d.pop("orgLogo", UNSET))

        def _parse_org_official_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        org_official_email = _parse_org_official_email(d.pop("orgOfficialEmail", UNSET))

        def _parse_org_support_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        org_support_email = _parse_org_support_email(d.pop("orgSupportEmail", UNSET))

        def _parse_org_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        org_url = _parse_org_url(d.pop("orgUrl", UNSET))

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
            allow_partial_payments=allow_partial_payments,
            default_client_language=default_client_language,
            default_currency=default_currency,
            default_tax_rate=default_tax_rate,
            invitation_resend_days=invitation_resend_days,
            invitation_resends=invitation_resends,
            payment_receipts=payment_receipts,
            payout_approval_required=payout_approval_required,
            recommended_wallets=recommended_wallets,
            registration_window_days=registration_window_days,
            reminders=reminders,
            require_distinct_approver=require_distinct_approver,
            timezone=timezone,
            whatsapp_invitations=whatsapp_invitations,
            home_domain=home_domain,
            org_description=org_description,
            org_logo=org_logo,
            org_official_email=org_official_email,
            org_support_email=org_support_email,
            org_url=org_url,
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
