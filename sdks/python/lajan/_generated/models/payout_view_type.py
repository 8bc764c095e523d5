from enum import StrEnum


class PayoutViewType(StrEnum):
    DIRECT = "direct"
    DISBURSEMENT = "disbursement"

    def __str__(self) -> str:
        return str(self.value)
