from enum import StrEnum


class ListDisbursementItemsStatus(StrEnum):
    EXECUTING = "executing"
    FAILED = "failed"
    PENDING = "pending"
    REJECTED = "rejected"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
