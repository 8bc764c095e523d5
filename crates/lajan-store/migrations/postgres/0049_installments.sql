-- An invoice may be due in instalments: the plan as JSON ([{amount, dueDate}], summing to the
-- total; NULL for an invoice due at once) and the due date of the oldest instalment not yet
-- paid, kept with every change of what the invoice received, which the overdue job judges
-- instead of the invoice's own due date.
ALTER TABLE invoices ADD COLUMN installments TEXT;
ALTER TABLE invoices ADD COLUMN next_due_date TEXT;
CREATE INDEX invoices_next_due ON invoices (status, next_due_date);
