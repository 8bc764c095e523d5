from enum import StrEnum


class PaymentLinkViewStatus(StrEnum):
    ACTIVE = "active"
    EXPIRED = "expired"
    INACTIVE = "inactive"
    PAID = "paid"

    def __str__(self) -> str:
        return str(self.value)
