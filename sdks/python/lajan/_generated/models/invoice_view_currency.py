from enum import StrEnum


class InvoiceViewCurrency(StrEnum):
    HTG = "HTG"
    USD = "USD"

    def __str__(self) -> str:
        return str(self.value)
