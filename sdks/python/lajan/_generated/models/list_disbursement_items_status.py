from enum import StrEnum


class ListDisbursementItemsStatus(StrEnum):
    AWAITING_REGISTRATION = "awaiting_registration"
    CANCELED = "canceled"
    EXECUTING = "executing"
    FAILED = "failed"
    PENDING = "pending"
    REJECTED = "rejected"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
