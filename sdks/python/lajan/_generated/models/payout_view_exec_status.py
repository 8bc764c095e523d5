from enum import StrEnum


class PayoutViewExecStatus(StrEnum):
    AWAITING_REGISTRATION = "awaiting_registration"
    CANCELED = "canceled"
    FAILED = "failed"
    PENDING = "pending"
    READY_TO_SEND = "ready_to_send"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
