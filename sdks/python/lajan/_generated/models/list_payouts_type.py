from enum import StrEnum


class ListPayoutsType(StrEnum):
    DIRECT = "direct"
    DISBURSEMENT = "disbursement"

    def __str__(self) -> str:
        return str(self.value)
