-- A payment counted on an invoice owes its client a receipt (when the organization sends them):
-- the receipt worker claims the payments whose receipt is due, like other work, and clears the
-- mark in the transaction that queues the receipt.
ALTER TABLE invoice_payments ADD COLUMN receipt_due_at BIGINT;
CREATE INDEX invoice_payments_by_receipt_due ON invoice_payments (receipt_due_at) WHERE receipt_due_at IS NOT NULL;
