from enum import StrEnum


class DisbursementItemViewApprovalStatusType2Type1(StrEnum):
    APPROVED = "approved"
    PENDING = "pending"
    REJECTED = "rejected"

    def __str__(self) -> str:
        return str(self.value)
