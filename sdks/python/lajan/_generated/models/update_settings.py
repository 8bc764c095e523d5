from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.currency import Currency
from ..models.language import Language
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.recommended_wallet_request import RecommendedWalletRequest
    from ..models.reminders_request import RemindersRequest


T = TypeVar("T", bound="UpdateSettings")


@_attrs_define
class UpdateSettings:
    """Fields to change; those left out keep their value. `null` is a `validation_error`; the
    organization's Stellar profile (`homeDomain` to `orgSupportEmail`) is cleared field by field
    with an empty string.

        Attributes:
            allow_partial_payments (bool | Unset): Whether the payment page lets a payer pay part of what is due.
            default_client_language (Language | Unset): A language Lajan speaks to a client in: Haitian Creole, French or
                English.
            default_currency (Currency | Unset): An invoicing currency.
            default_tax_rate (Decimal | Unset):
            home_domain (str | Unset): A domain of the organization's own (a host, with a port at most) whose DNS points at
                Lajan: the stellar.toml served for it names the organization and its documentation, and
                wallets authenticate there (SEP-10 challenges for that domain). Read in the environment
                wallets meet (live when the deployment has a live network, else the sandbox). One
                organization's only: another's is `homeDomain: is in use already`. Example: pay.fonkoze.example.
            invitation_resend_days (int | Unset):
            invitation_resends (int | Unset):
            org_description (str | Unset): SEP-1 `ORG_DESCRIPTION`. Example: Microfinance for Haiti's rural women.
            org_logo (str | Unset): SEP-1 `ORG_LOGO`: an https link to its logo. Example: https://fonkoze.example/logo.png.
            org_official_email (str | Unset): SEP-1 `ORG_OFFICIAL_EMAIL`. Example: info@fonkoze.example.
            org_support_email (str | Unset): SEP-1 `ORG_SUPPORT_EMAIL`: where a receiver writes for help. Example:
                help@fonkoze.example.
            org_url (str | Unset): SEP-1 `ORG_URL`: the organization's website, an https link. Example:
                https://fonkoze.example.
            payment_receipts (bool | Unset): Whether a client gets a short receipt, with what is left, when a payment lands.
            payout_approval_required (bool | Unset):
            recommended_wallets (list[RecommendedWalletRequest] | Unset): The whole list, replacing the one before (`[]`
                clears it); at most 10.
            registration_window_days (int | Unset):
            reminders (RemindersRequest | Unset): A change to the reminder schedule; fields left out keep their value.
            require_distinct_approver (bool | Unset):
            timezone (str | Unset):
            whatsapp_invitations (bool | Unset):
    """

    allow_partial_payments: bool | Unset = UNSET
    default_client_language: Language | Unset = UNSET
    default_currency: Currency | Unset = UNSET
    default_tax_rate: Decimal | Unset = UNSET
    home_domain: str | Unset = UNSET
    invitation_resend_days: int | Unset = UNSET
    invitation_resends: int | Unset = UNSET
    org_description: str | Unset = UNSET
    org_logo: str | Unset = UNSET
    org_official_email: str | Unset = UNSET
    org_support_email: str | Unset = UNSET
    org_url: str | Unset = UNSET
    payment_receipts: bool | Unset = UNSET
    payout_approval_required: bool | Unset = UNSET
    recommended_wallets: list[RecommendedWalletRequest] | Unset = UNSET
    registration_window_days: int | Unset = UNSET
    reminders: RemindersRequest | Unset = UNSET
    require_distinct_approver: bool | Unset = UNSET
    timezone: str | Unset = UNSET
    whatsapp_invitations: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        allow_partial_payments = self.allow_partial_payments

        default_client_language: str | Unset = UNSET
        if not isinstance(self.default_client_language, Unset):
            default_client_language = self.default_client_language.value

        default_currency: str | Unset = UNSET
        if not isinstance(self.default_currency, Unset):
            default_currency = self.default_currency.value

        default_tax_rate = self.default_tax_rate

        home_domain = self.home_domain

        invitation_resend_days = self.invitation_resend_days

        invitation_resends = self.invitation_resends

        org_description = self.org_description

        org_logo = self.org_logo

        org_official_email = self.org_official_email

        org_support_email = self.org_support_email

        org_url = self.org_url

        payment_receipts = self.payment_receipts

        payout_approval_required = self.payout_approval_required

        recommended_wallets: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.recommended_wallets, Unset):
            recommended_wallets = []
            for recommended_wallets_item_data in self.recommended_wallets:
                recommended_wallets_item = recommended_wallets_item_data.to_dict()
                recommended_wallets.append(recommended_wallets_item)

        registration_window_days = self.registration_window_days

        reminders: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reminders, Unset):
            reminders = self.reminders.to_dict()

        require_distinct_approver = self.require_distinct_approver

        timezone = self.timezone

        whatsapp_invitations = self.whatsapp_invitations

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if allow_partial_payments is not UNSET:
            field_dict["allowPartialPayments"] = allow_partial_payments
        if default_client_language is not UNSET:
            field_dict["defaultClientLanguage"] = default_client_language
        if default_currency is not UNSET:
            field_dict["defaultCurrency"] = default_currency
        if default_tax_rate is not UNSET:
            field_dict["defaultTaxRate"] = default_tax_rate
        if home_domain is not UNSET:
            field_dict["homeDomain"] = home_domain
        if invitation_resend_days is not UNSET:
            field_dict["invitationResendDays"] = invitation_resend_days
        if invitation_resends is not UNSET:
            field_dict["invitationResends"] = invitation_resends
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
        if payment_receipts is not UNSET:
            field_dict["paymentReceipts"] = payment_receipts
        if payout_approval_required is not UNSET:
            field_dict["payoutApprovalRequired"] = payout_approval_required
        if recommended_wallets is not UNSET:
            field_dict["recommendedWallets"] = recommended_wallets
        if registration_window_days is not UNSET:
            field_dict["registrationWindowDays"] = registration_window_days
        if reminders is not UNSET:
            field_dict["reminders"] = reminders
        if require_distinct_approver is not UNSET:
            field_dict["requireDistinctApprover"] = require_distinct_approver
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if whatsapp_invitations is not UNSET:
            field_dict["whatsappInvitations"] = whatsapp_invitations

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.recommended_wallet_request import RecommendedWalletRequest
        from ..models.reminders_request import RemindersRequest

        d = dict(src_dict)
        allow_partial_payments = d.pop("allowPartialPayments", UNSET)

        _default_client_language = d.pop("defaultClientLanguage", UNSET)
        default_client_language: Language | Unset
        if isinstance(_default_client_language, Unset):
            default_client_language = UNSET
        else:
            default_client_language = Language(_default_client_language)

        _default_currency = d.pop("defaultCurrency", UNSET)
        default_currency: Currency | Unset
        if isinstance(_default_currency, Unset):
            default_currency = UNSET
        else:
            default_currency = Currency(_default_currency)

        default_tax_rate = d.pop("defaultTaxRate", UNSET)

        home_domain = d.pop("homeDomain", UNSET)

        invitation_resend_days = d.pop("invitationResendDays", UNSET)

        invitation_resends = d.pop("invitationResends", UNSET)

        org_description = d.pop("orgDescription", UNSET)

        org_logo = d.pop("orgLogo", UNSET)

        org_official_email = d.pop("orgOfficialEmail", UNSET)

        org_support_email = d.pop("orgSupportEmail", UNSET)

        org_url = d.pop("orgUrl", UNSET)

        payment_receipts = d.pop("paymentReceipts", UNSET)

        payout_approval_required = d.pop("payoutApprovalRequired", UNSET)

        _recommended_wallets = d.pop("recommendedWallets", UNSET)
        recommended_wallets: list[RecommendedWalletRequest] | Unset = UNSET
        if _recommended_wallets is not UNSET:
            recommended_wallets = []
            for recommended_wallets_item_data in _recommended_wallets:
                recommended_wallets_item = RecommendedWalletRequest.from_dict(
                    recommended_wallets_item_data
                )

                recommended_wallets.append(recommended_wallets_item)

        registration_window_days = d.pop("registrationWindowDays", UNSET)

        _reminders = d.pop("reminders", UNSET)
        reminders: RemindersRequest | Unset
        if isinstance(_reminders, Unset):
            reminders = UNSET
        else:
            reminders = RemindersRequest.from_dict(_reminders)

        require_distinct_approver = d.pop("requireDistinctApprover", UNSET)

        timezone = d.pop("timezone", UNSET)

        whatsapp_invitations = d.pop("whatsappInvitations", UNSET)

        update_settings = cls(
            allow_partial_payments=allow_partial_payments,
            default_client_language=default_client_language,
            default_currency=default_currency,
            default_tax_rate=default_tax_rate,
            home_domain=home_domain,
            invitation_resend_days=invitation_resend_days,
            invitation_resends=invitation_resends,
            org_description=org_description,
            org_logo=org_logo,
            org_official_email=org_official_email,
            org_support_email=org_support_email,
            org_url=org_url,
            payment_receipts=payment_receipts,
            payout_approval_required=payout_approval_required,
            recommended_wallets=recommended_wallets,
            registration_window_days=registration_window_days,
            reminders=reminders,
            require_distinct_approver=require_distinct_approver,
            timezone=timezone,
            whatsapp_invitations=whatsapp_invitations,
        )

        return update_settings
