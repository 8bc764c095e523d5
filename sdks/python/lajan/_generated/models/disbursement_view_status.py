from enum import StrEnum


class DisbursementViewStatus(StrEnum):
    APPROVED = "approved"
    COMPLETED = "completed"
    DRAFT = "draft"
    FAILED = "failed"
    PARTIALLY_FAILED = "partially_failed"
    PENDING_APPROVAL = "pending_approval"
    PROCESSING = "processing"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
