from enum import StrEnum


class AssetViewKind(StrEnum):
    FIAT_PEGGED = "fiat-pegged"
    NATIVE = "native"
    STABLECOIN = "stablecoin"

    def __str__(self) -> str:
        return str(self.value)
