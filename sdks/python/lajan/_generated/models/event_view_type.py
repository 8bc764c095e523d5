from enum import StrEnum


class EventViewType(StrEnum):
    CLIENT_CREATED = "client.created"
    CLIENT_DELETED = "client.deleted"
    CLIENT_UPDATED = "client.updated"
    DISBURSEMENT_APPROVED = "disbursement.approved"
    DISBURSEMENT_COMPLETED = "disbursement.completed"
    DISBURSEMENT_CREATED = "disbursement.created"
    DISBURSEMENT_FAILED = "disbursement.failed"
    DISBURSEMENT_PARTIALLY_FAILED = "disbursement.partially_failed"
    DISBURSEMENT_REJECTED = "disbursement.rejected"
    DISBURSEMENT_SUBMITTED = "disbursement.submitted"
    INVOICE_CREATED = "invoice.created"
    INVOICE_OVERDUE = "invoice.overdue"
    INVOICE_PAID = "invoice.paid"
    INVOICE_SENT = "invoice.sent"
    INVOICE_VIEWED = "invoice.viewed"
    INVOICE_VOIDED = "invoice.voided"
    PAYMENT_LINK_CREATED = "payment_link.created"
    PAYMENT_LINK_DEACTIVATED = "payment_link.deactivated"
    PAYMENT_LINK_PAID = "payment_link.paid"
    PAYOUT_APPROVED = "payout.approved"
    PAYOUT_CANCELED = "payout.canceled"
    PAYOUT_COMPLETED = "payout.completed"
    PAYOUT_CREATED = "payout.created"
    PAYOUT_DELAYED = "payout.delayed"
    PAYOUT_FAILED = "payout.failed"
    PAYOUT_REJECTED = "payout.rejected"
    PAYOUT_RETRIED = "payout.retried"
    SETTINGS_CHANGE_CANCELLED = "settings.change_cancelled"
    SETTINGS_CHANGE_REQUESTED = "settings.change_requested"
    SETTINGS_UPDATED = "settings.updated"
    WEBHOOK_ENDPOINT_DISABLED = "webhook_endpoint.disabled"
    WEBHOOK_ENDPOINT_TEST = "webhook_endpoint.test"

    def __str__(self) -> str:
        return str(self.value)
