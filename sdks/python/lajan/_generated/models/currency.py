from enum import StrEnum


class Currency(StrEnum):
    HTG = "HTG"
    USD = "USD"

    def __str__(self) -> str:
        return str(self.value)
