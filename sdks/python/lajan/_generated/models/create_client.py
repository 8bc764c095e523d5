from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateClient")


@_attrs_define
class CreateClient:
    """A new client. `firstName` and `lastName` are required; the rest are optional.

    Attributes:
        first_name (str):  Example: Marie.
        last_name (str):  Example: Jean-Baptiste.
        email (None | str | Unset):  Example: marie@example.ht.
        language (None | str | Unset): The language Lajan speaks to the client in: `ht` (the default), `fr` or `en`.
            Example: ht.
        phone_number (None | str | Unset):  Example: +50937000000.
        wallet_account_id (None | str | Unset):  Example: GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H.
    """

    first_name: str
    last_name: str
    email: None | str | Unset = UNSET
    language: None | str | Unset = UNSET
    phone_number: None | str | Unset = UNSET
    wallet_account_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
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
        else:
            language = self.language

        phone_number: None | str | Unset
        if isinstance(self.phone_number, Unset):
            phone_number = UNSET
        else:
            phone_number = self.phone_number

        wallet_account_id: None | str | Unset
        if isinstance(self.wallet_account_id, Unset):
            wallet_account_id = UNSET
        else:
            wallet_account_id = self.wallet_account_id

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
        if wallet_account_id is not UNSET:
            field_dict["walletAccountId"] = wallet_account_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
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

        def _parse_language(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        language = _parse_language(d.pop("language", UNSET))

        def _parse_phone_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_number = _parse_phone_number(d.pop("phoneNumber", UNSET))

        def _parse_wallet_account_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_account_id = _parse_wallet_account_id(d.pop("walletAccountId", UNSET))

        create_client = cls(
            first_name=first_name,
            last_name=last_name,
            email=email,
            language=language,
            phone_number=phone_number,
            wallet_account_id=wallet_account_id,
        )

        return create_client
