-- Invoices partly paid before the status existed say so now (the count triggers follow).
UPDATE invoices SET status = 'partially_paid'
WHERE status IN ('sent', 'viewed')
  AND EXISTS (SELECT 1 FROM payment_intents p
              WHERE p.id = invoices.payment_intent_id AND p.amount_received > 0 AND p.amount_received < p.amount);
