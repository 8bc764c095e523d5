from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.language import Language
from ..models.memo_type import MemoType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.verification_request import VerificationRequest


T = TypeVar("T", bound="CreateClient")


@_attrs_define
class CreateClient:
    """A new client. `firstName` and `lastName` are required; the rest are optional.

    Attributes:
        first_name (str):  Example: Marie.
        last_name (str):  Example: Jean-Baptiste.
        email (None | str | Unset):  Example: marie@example.ht.
        language (Language | None | Unset):
        phone_number (None | str | Unset):  Example: +50937000000.
        reminders_enabled (bool | Unset): Whether the organization's payment reminders go to the client (default true);
            invoices
            and receipts still do.
        verification (None | Unset | VerificationRequest):
        wallet_account_id (None | str | Unset):  Example: GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H.
        wallet_memo (None | str | Unset): The memo the wallet needs to credit the client, when it is a custodial wallet
            or an
            exchange (needs `walletAccountId`): every payout to the wallet carries it. Example: 1234567.
        wallet_memo_type (MemoType | None | Unset):
    """

    first_name: str
    last_name: str
    email: None | str | Unset = UNSET
    language: Language | None | Unset = UNSET
    phone_number: None | str | Unset = UNSET
    reminders_enabled: bool | Unset = UNSET
    verification: None | Unset | VerificationRequest = UNSET
    wallet_account_id: None | str | Unset = UNSET
    wallet_memo: None | str | Unset = UNSET
    wallet_memo_type: MemoType | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.verification_request import VerificationRequest

        first_name = self.first_name

        last_name = self.last_name

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        language: None | str | Unset
        if isinstance(self.language, Unset):
            language = UNSET
        elif isinstance(self.language, Language):
            language = self.language.value
        else:
            language = self.language

        phone_number: None | str | Unset
        if isinstance(self.phone_number, Unset):
            phone_number = UNSET
        else:
            phone_number = self.phone_number

        reminders_enabled = self.reminders_enabled

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

        wallet_memo: None | str | Unset
        if isinstance(self.wallet_memo, Unset):
            wallet_memo = UNSET
        else:
            wallet_memo = self.wallet_memo

        wallet_memo_type: None | str | Unset
        if isinstance(self.wallet_memo_type, Unset):
            wallet_memo_type = UNSET
        elif isinstance(self.wallet_memo_type, MemoType):
            wallet_memo_type = self.wallet_memo_type.value
        else:
            wallet_memo_type = self.wallet_memo_type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "firstName": first_name,
                "lastName": last_name,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if language is not UNSET:
            field_dict["language"] = language
        if phone_number is not UNSET:
            field_dict["phoneNumber"] = phone_number
        if reminders_enabled is not UNSET:
            field_dict["remindersEnabled"] = reminders_enabled
        if verification is not UNSET:
            field_dict["verification"] = verification
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id
        if wallet_memo is not UNSET:
            field_dict["walletMemo"] = wallet_memo
        if wallet_memo_type is not UNSET:
            field_dict["walletMemoType"] = wallet_memo_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.verification_request import VerificationRequest

        d = dict(src_dict)
        first_name = d.pop("firstName")

        last_name = d.pop("lastName")

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_language(data: object) -> Language | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                language_type_1 = Language(data)

                return language_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Language | None | Unset, data)

        language = _parse_language(d.pop("language", UNSET))

        def _parse_phone_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_number = _parse_phone_number(d.pop("phoneNumber", UNSET))

        reminders_enabled = d.pop("remindersEnabled", UNSET)

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

        def _parse_wallet_memo(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_memo = _parse_wallet_memo(d.pop("walletMemo", UNSET))

        def _parse_wallet_memo_type(data: object) -> MemoType | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                wallet_memo_type_type_1 = MemoType(data)

                return wallet_memo_type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemoType | None | Unset, data)

        wallet_memo_type = _parse_wallet_memo_type(d.pop("walletMemoType", UNSET))

        create_client = cls(
            first_name=first_name,
            last_name=last_name,
            email=email,
            language=language,
            phone_number=phone_number,
            reminders_enabled=reminders_enabled,
            verification=verification,
            wallet_account_id=wallet_account_id,
            wallet_memo=wallet_memo,
            wallet_memo_type=wallet_memo_type,
        )

        return create_client
