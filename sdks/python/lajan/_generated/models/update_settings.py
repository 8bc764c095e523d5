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


T = TypeVar("T", bound="UpdateSettings")


@_attrs_define
class UpdateSettings:
    """Fields to change; those left out keep their value. None can be cleared: `null` is a
    `validation_error`.

        Attributes:
            default_client_language (Language | Unset): A language Lajan speaks to a client in: Haitian Creole, French or
                English.
            default_currency (Currency | Unset): An invoicing currency.
            default_tax_rate (Decimal | Unset):
            invitation_resend_days (int | Unset):
            invitation_resends (int | Unset):
            payout_approval_required (bool | Unset):
            recommended_wallets (list[RecommendedWalletRequest] | Unset): The whole list, replacing the one before (`[]`
                clears it); at most 10.
            registration_window_days (int | Unset):
            require_distinct_approver (bool | Unset):
            timezone (str | Unset):
            whatsapp_invitations (bool | Unset):
    """

    default_client_language: Language | Unset = UNSET
    default_currency: Currency | Unset = UNSET
    default_tax_rate: Decimal | Unset = UNSET
    invitation_resend_days: int | Unset = UNSET
    invitation_resends: int | Unset = UNSET
    payout_approval_required: bool | Unset = UNSET
    recommended_wallets: list[RecommendedWalletRequest] | Unset = UNSET
    registration_window_days: int | Unset = UNSET
    require_distinct_approver: bool | Unset = UNSET
    timezone: str | Unset = UNSET
    whatsapp_invitations: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        default_client_language: str | Unset = UNSET
        if not isinstance(self.default_client_language, Unset):
            default_client_language = self.default_client_language.value

        default_currency: str | Unset = UNSET
        if not isinstance(self.default_currency, Unset):
            default_currency = self.default_currency.value

        default_tax_rate = self.default_tax_rate

        invitation_resend_days = self.invitation_resend_days

        invitation_resends = self.invitation_resends

        payout_approval_required = self.payout_approval_required

        recommended_wallets: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.recommended_wallets, Unset):
            recommended_wallets = []
            for recommended_wallets_item_data in self.recommended_wallets:
                recommended_wallets_item = recommended_wallets_item_data.to_dict()
                recommended_wallets.append(recommended_wallets_item)

        registration_window_days = self.registration_window_days

        require_distinct_approver = self.require_distinct_approver

        timezone = self.timezone

        whatsapp_invitations = self.whatsapp_invitations

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if default_client_language is not UNSET:
            field_dict["defaultClientLanguage"] = default_client_language
        if default_currency is not UNSET:
            field_dict["defaultCurrency"] = default_currency
        if default_tax_rate is not UNSET:
            field_dict["defaultTaxRate"] = default_tax_rate
        if invitation_resend_days is not UNSET:
            field_dict["invitationResendDays"] = invitation_resend_days
        if invitation_resends is not UNSET:
            field_dict["invitationResends"] = invitation_resends
        if payout_approval_required is not UNSET:
            field_dict["payoutApprovalRequired"] = payout_approval_required
        if recommended_wallets is not UNSET:
            field_dict["recommendedWallets"] = recommended_wallets
        if registration_window_days is not UNSET:
            field_dict["registrationWindowDays"] = registration_window_days
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

        d = dict(src_dict)
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

        invitation_resend_days = d.pop("invitationResendDays", UNSET)

        invitation_resends = d.pop("invitationResends", UNSET)

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

        require_distinct_approver = d.pop("requireDistinctApprover", UNSET)

        timezone = d.pop("timezone", UNSET)

        whatsapp_invitations = d.pop("whatsappInvitations", UNSET)

        update_settings = cls(
            default_client_language=default_client_language,
            default_currency=default_currency,
            default_tax_rate=default_tax_rate,
            invitation_resend_days=invitation_resend_days,
            invitation_resends=invitation_resends,
            payout_approval_required=payout_approval_required,
            recommended_wallets=recommended_wallets,
            registration_window_days=registration_window_days,
            require_distinct_approver=require_distinct_approver,
            timezone=timezone,
            whatsapp_invitations=whatsapp_invitations,
        )

        return update_settings
