from enum import StrEnum


class AssetViewCode(StrEnum):
    EURC = "EURC"
    HTG = "HTG"
    USD = "USD"
    USDC = "USDC"
    USDT = "USDT"
    XLM = "XLM"

    def __str__(self) -> str:
        return str(self.value)
