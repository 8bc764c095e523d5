-- Payment reminders: a client may opt out; an invoice keeps when its next reminder falls
-- (claimed by the reminder worker like other work); each reminder sent is recorded once per
-- (invoice, instalment, offset): instalment 0 is an invoice without a plan.
ALTER TABLE clients ADD COLUMN reminders_enabled BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE invoices ADD COLUMN next_reminder_at BIGINT;
CREATE INDEX invoices_by_next_reminder ON invoices (next_reminder_at) WHERE next_reminder_at IS NOT NULL;
CREATE TABLE invoice_reminders (
    invoice_id TEXT NOT NULL,
    installment INTEGER NOT NULL,
    offset_days INTEGER NOT NULL,
    org_id TEXT NOT NULL,
    env TEXT NOT NULL,
    sent_at BIGINT NOT NULL,
    PRIMARY KEY (invoice_id, installment, offset_days)
);
-- Invoices sent before reminders existed are looked at once; a reminder whose moment is more
-- than 12 hours past is never sent, so this reminds nobody of an old date at once.
UPDATE invoices SET next_reminder_at = sent_at
 WHERE status IN ('sent', 'viewed', 'partially_paid', 'overdue') AND sent_at IS NOT NULL;
