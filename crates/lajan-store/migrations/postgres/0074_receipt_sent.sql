-- When a payment's receipt went to the client: a reversal after it owes the client a short
-- correction (sent by the receipt worker, which the reversal makes the payment due for again);
-- a reversal before it means no receipt goes at all. Receipts sent before this column were
-- not marked, so their payments' reversals send no correction.
ALTER TABLE invoice_payments ADD COLUMN receipt_sent_at BIGINT;
