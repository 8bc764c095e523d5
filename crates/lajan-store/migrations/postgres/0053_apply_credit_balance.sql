-- An invoice may ask, when it is created, to be paid first from its client's credit balance:
-- applied once, when it is first sent (a draft's total may still change), as a payment of
-- method credit_balance.
ALTER TABLE invoices ADD COLUMN apply_credit_balance BOOLEAN NOT NULL DEFAULT FALSE;
