from enum import StrEnum


class ListPayoutsStatus(StrEnum):
    APPROVED = "approved"
    AWAITING_REGISTRATION = "awaiting_registration"
    CANCELED = "canceled"
    COMPLETED = "completed"
    EXECUTING = "executing"
    FAILED = "failed"
    PENDING_APPROVAL = "pending_approval"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
