from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.language import Language
from ..models.memo_type import MemoType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.verification_request import VerificationRequest


T = TypeVar("T", bound="UpdateClient")


@_attrs_define
class UpdateClient:
    """A change to a client: fields left out are kept; `null` clears `email`, `phoneNumber`,
    `walletAccountId` or `verification` (a client always has a `language`).

        Attributes:
            email (None | str | Unset):
            first_name (str | Unset):
            language (Language | Unset): A language Lajan speaks to a client in: Haitian Creole, French or English.
            last_name (str | Unset):
            phone_number (None | str | Unset):
            reminders_enabled (bool | Unset): Whether the organization's payment reminders go to the client.
            verification (None | Unset | VerificationRequest):
            wallet_account_id (None | str | Unset):
            wallet_memo (None | str | Unset): The memo the wallet needs; `null` removes it. A new `walletAccountId` given
                without a
                memo removes the old one: a memo belongs to one address.
            wallet_memo_type (MemoType | None | Unset):
    """

    email: None | str | Unset = UNSET
    first_name: str | Unset = UNSET
    language: Language | Unset = UNSET
    last_name: str | Unset = UNSET
    phone_number: None | str | Unset = UNSET
    reminders_enabled: bool | Unset = UNSET
    verification: None | Unset | VerificationRequest = UNSET
    wallet_account_id: None | str | Unset = UNSET
    wallet_memo: None | str | Unset = UNSET
    wallet_memo_type: MemoType | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.verification_request import VerificationRequest

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        first_name = self.first_name

        language: str | Unset = UNSET
        if not isinstance(self.language, Unset):
            language = self.language.value

        last_name = self.last_name

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

        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if language is not UNSET:
            field_dict["language"] = language
        if last_name is not UNSET:
            field_dict["lastName"] = last_name
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

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        first_name = d.pop("firstName", UNSET)

        _language = d.pop("language", UNSET)
        language: Language | Unset
        if isinstance(_language, Unset):
            language = UNSET
        else:
            language = Language(_language)

        last_name = d.pop("lastName", UNSET)

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

        update_client = cls(
            email=email,
            first_name=first_name,
            language=language,
            last_name=last_name,
            phone_number=phone_number,
            reminders_enabled=reminders_enabled,
            verification=verification,
            wallet_account_id=wallet_account_id,
            wallet_memo=wallet_memo,
            wallet_memo_type=wallet_memo_type,
        )

        return update_client
