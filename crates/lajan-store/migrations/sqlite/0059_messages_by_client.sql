-- A message about an invoice names the client it went to as well, so a client's messages
-- (invoice sends, reminders, receipts, invitations) read as one list.
UPDATE messages SET client_id = (SELECT i.client_id FROM invoices i WHERE i.id = messages.invoice_id)
 WHERE client_id IS NULL AND invoice_id IS NOT NULL;
