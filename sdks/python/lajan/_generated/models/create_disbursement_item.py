from __future__ import annotations

from decimal import Decimal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.verification_request import VerificationRequest


T = TypeVar("T", bound="CreateDisbursementItem")


@_attrs_define
class CreateDisbursementItem:
    """One payout of the batch, validated as a single payout is.

    Attributes:
        asset_amount (Decimal): Positive, a plain decimal with at most 2 decimals as written (1e2 and 10.000 are refused);
            read exactly. Example: 125.5.
        client_id (None | str | Unset): One of clientId / walletAccountId / phoneNumber / email is required; with
            clientId the
            client's wallet is used, and when both are given the wallet must be the client's (else
            invalid_wallet).
        email (None | str | Unset):
        external_id (None | str | Unset): Your reference for the item (at most 100 characters), unique in the batch.
        first_name (None | str | Unset): For a client this row makes.
        last_name (None | str | Unset): For a client this row makes.
        memo (None | str | Unset): At most 28 bytes of UTF-8.
        phone_number (None | str | Unset): Instead of clientId or walletAccountId: the receiver's E.164 phone number
            and/or email.
            The organization's client with that contact is paid (a wallet or not: without one the
            payout waits in awaiting_registration); when there is none, a client is made from this
            row (firstName and lastName then required) when the draft is stored. Example: +50937000000.
        verification (None | Unset | VerificationRequest):
        wallet_account_id (None | str | Unset):
    """

    asset_amount: Decimal
    client_id: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET
    memo: None | str | Unset = UNSET
    phone_number: None | str | Unset = UNSET
    verification: None | Unset | VerificationRequest = UNSET
    wallet_account_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.verification_request import VerificationRequest

        asset_amount = self.asset_amount

        client_id: None | str | Unset
        if isinstance(self.client_id, Unset):
            client_id = UNSET
        else:
            client_id = self.client_id

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        first_name: None | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        last_name: None | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        memo: None | str | Unset
        if isinstance(self.memo, Unset):
            memo = UNSET
        else:
            memo = self.memo

        phone_number: None | str | Unset
        if isinstance(self.phone_number, Unset):
            phone_number = UNSET
        else:
            phone_number = self.phone_number

        verification: dict[str, Any] | None | Unset
        if isinstance(self.verification, Unset):
            verification = UNSET
        elif isinstance(self.verification, VerificationRequest):
            verification = self.verification.to_dict()
        else:
            verification = self.verification

        wallet_account_id: None | str | Unset
        if isinstance(self.wallet_account_id, Unset):
            wallet_account_id = UNSET
        else:
            wallet_account_id = self.wallet_account_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assetAmount": asset_amount,
            }
        )
        if client_id is not UNSET:
            field_dict["clientId"] = client_id
        if email is not UNSET:
            field_dict["email"] = email
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if last_name is not UNSET:
            field_dict["lastName"] = last_name
        if memo is not UNSET:
            field_dict["memo"] = memo
        if phone_number is not UNSET:
            field_dict["phoneNumber"] = phone_number
        if verification is not UNSET:
            field_dict["verification"] = verification
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verification_request import VerificationRequest

        d = dict(src_dict)
        asset_amount = d.pop("assetAmount")

        def _parse_client_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_id = _parse_client_id(d.pop("clientId", UNSET))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_first_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_name = _parse_first_name(d.pop("firstName", UNSET))

        def _parse_last_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_name = _parse_last_name(d.pop("lastName", UNSET))

        def _parse_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        memo = _parse_memo(d.pop("memo", UNSET))

        def _parse_phone_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_number = _parse_phone_number(d.pop("phoneNumber", UNSET))

        def _parse_verification(data: object) -> None | Unset | VerificationRequest:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                verification_type_1 = VerificationRequest.from_dict(data)

                return verification_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | VerificationRequest, data)

        verification = _parse_verification(d.pop("verification", UNSET))

        def _parse_wallet_account_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_account_id = _parse_wallet_account_id(d.pop("walletAccountId", UNSET))

        create_disbursement_item = cls(
            asset_amount=asset_amount,
            client_id=client_id,
            email=email,
            external_id=external_id,
            first_name=first_name,
            last_name=last_name,
            memo=memo,
            phone_number=phone_number,
            verification=verification,
            wallet_account_id=wallet_account_id,
        )

        return create_disbursement_item
