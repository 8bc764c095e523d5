from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.invitation_view import InvitationView
    from ..models.verification_view import VerificationView


T = TypeVar("T", bound="InvitedClientView")


@_attrs_define
class InvitedClientView:
    """The `data.object` of `client.invited`: the client, and its invitation as of the send.

    Attributes:
        created_at (datetime.datetime):
        first_name (str):
        id (str):  Example: cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
        language (str): The language Lajan speaks to the client in: invitations, messages and the pages they
            open (`ht` Haitian Creole, `fr` French, `en` English). Example: ht.
        last_name (str):
        reminders_enabled (bool): Whether the organization's payment reminders go to the client.
        updated_at (datetime.datetime):
        invitation (InvitationView): A client's invitation to register a wallet.
        email (None | str | Unset):
        phone_number (None | str | Unset): E.164. Example: +50937000000.
        verification (None | Unset | VerificationView):
        wallet_account_id (None | str | Unset): Stellar account (StrKey, `G...`). Example:
            GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H.
        wallet_memo (None | str | Unset): The memo the wallet needs to credit the client (a custodial wallet or an
            exchange): text
            (at most 28 bytes), an id (a whole number) or a hash (64 hex digits). Every payout to the
            wallet carries it. null when the wallet needs none. Example: 1234567.
        wallet_memo_type (None | str | Unset): text, id or hash (null with `walletMemo`). Example: id.
    """

    created_at: datetime.datetime
    first_name: str
    id: str
    language: str
    last_name: str
    reminders_enabled: bool
    updated_at: datetime.datetime
    invitation: InvitationView
    email: None | str | Unset = UNSET
    phone_number: None | str | Unset = UNSET
    verification: None | Unset | VerificationView = UNSET
    wallet_account_id: None | str | Unset = UNSET
    wallet_memo: None | str | Unset = UNSET
    wallet_memo_type: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.verification_view import VerificationView

        created_at = self.created_at.isoformat()

        first_name = self.first_name

        id = self.id

        language = self.language

        last_name = self.last_name

        reminders_enabled = self.reminders_enabled

        updated_at = self.updated_at.isoformat()

        invitation = self.invitation.to_dict()

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        phone_number: None | str | Unset
        if isinstance(self.phone_number, Unset):
            phone_number = UNSET
        else:
            phone_number = self.phone_number

        verification: dict[str, Any] | None | Unset
        if isinstance(self.verification, Unset):
            verification = UNSET
        elif isinstance(self.verification, VerificationView):
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
        else:
            wallet_memo_type = self.wallet_memo_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "firstName": first_name,
                "id": id,
                "language": language,
                "lastName": last_name,
                "remindersEnabled": reminders_enabled,
                "updatedAt": updated_at,
                "invitation": invitation,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if phone_number is not UNSET:
            field_dict["phoneNumber"] = phone_number
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
        from ..models.invitation_view import InvitationView
        from ..models.verification_view import VerificationView

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        first_name = d.pop("firstName")

        id = d.pop("id")

        language = d.pop("language")

        last_name = d.pop("lastName")

        reminders_enabled = d.pop("remindersEnabled")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        invitation = InvitationView.from_dict(d.pop("invitation"))

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_phone_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_number = _parse_phone_number(d.pop("phoneNumber", UNSET))

        def _parse_verification(data: object) -> None | Unset | VerificationView:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                verification_type_1 = VerificationView.from_dict(data)

                return verification_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | VerificationView, data)

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

        def _parse_wallet_memo_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_memo_type = _parse_wallet_memo_type(d.pop("walletMemoType", UNSET))

        invited_client_view = cls(
            created_at=created_at,
            first_name=first_name,
            id=id,
            language=language,
            last_name=last_name,
            reminders_enabled=reminders_enabled,
            updated_at=updated_at,
            invitation=invitation,
            email=email,
            phone_number=phone_number,
            verification=verification,
            wallet_account_id=wallet_account_id,
            wallet_memo=wallet_memo,
            wallet_memo_type=wallet_memo_type,
        )

        invited_client_view.additional_properties = d
        return invited_client_view

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
