from enum import StrEnum


class IntentStateStatus(StrEnum):
    ACTIVE = "active"
    EXPIRED = "expired"
    INACTIVE = "inactive"
    PAID = "paid"

    def __str__(self) -> str:
        return str(self.value)
