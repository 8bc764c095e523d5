from enum import StrEnum


class InvoiceSummaryCurrency(StrEnum):
    HTG = "HTG"
    USD = "USD"

    def __str__(self) -> str:
        return str(self.value)
