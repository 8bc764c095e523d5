-- An invoice's statement reads the credit balance moves it made, through this index.
CREATE INDEX client_credit_transactions_by_invoice ON client_credit_transactions (invoice_id, created_at, id);
