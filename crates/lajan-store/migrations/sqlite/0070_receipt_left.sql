-- What an invoice still owed right after each payment, written with the payment: its receipt
-- says that, not what is owed when the receipt worker gets to it (later payments may have paid
-- the rest by then). Payments from before it have none; their receipts tell what is owed now.
ALTER TABLE invoice_payments ADD COLUMN receipt_left BIGINT;
