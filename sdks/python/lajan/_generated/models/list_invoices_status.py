from enum import StrEnum


class ListInvoicesStatus(StrEnum):
    DRAFT = "draft"
    OVERDUE = "overdue"
    PAID = "paid"
    PARTIALLY_PAID = "partially_paid"
    SENT = "sent"
    VIEWED = "viewed"
    VOID = "void"

    def __str__(self) -> str:
        return str(self.value)
