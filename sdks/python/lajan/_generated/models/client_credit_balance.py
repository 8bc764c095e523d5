from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.credit_balance_view import CreditBalanceView


T = TypeVar("T", bound="ClientCreditBalance")


@_attrs_define
class ClientCreditBalance:
    """What the organization holds for a client.

    Attributes:
        balances (list[CreditBalanceView]): One per currency the client ever held credit in (zero included), by currency
            code.
        client_id (str):  Example: cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b.
    """

    balances: list[CreditBalanceView]
    client_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        balances = []
        for balances_item_data in self.balances:
            balances_item = balances_item_data.to_dict()
            balances.append(balances_item)

        client_id = self.client_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "balances": balances,
                "clientId": client_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.credit_balance_view import CreditBalanceView

        d = dict(src_dict)
        balances = []
        _balances = d.pop("balances")
        for balances_item_data in _balances:
            balances_item = CreditBalanceView.from_dict(balances_item_data)

            balances.append(balances_item)

        client_id = d.pop("clientId")

        client_credit_balance = cls(
            balances=balances,
            client_id=client_id,
        )

        client_credit_balance.additional_properties = d
        return client_credit_balance

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
