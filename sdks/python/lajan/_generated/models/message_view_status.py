from enum import StrEnum


class MessageViewStatus(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    QUEUED = "queued"
    SENT = "sent"
    UNDELIVERABLE = "undeliverable"

    def __str__(self) -> str:
        return str(self.value)
