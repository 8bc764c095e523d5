-- Every list that pages by cursor in commit order, as the event feed is (see the PostgreSQL
-- migration of the same number): SQLite has one writer at a time, so each row takes the next
-- position of its table as it is written. Lists, their cursors and their indexes move from
-- (created_at, id) to position; created_at stays the clock's and what the API shows.



ALTER TABLE clients ADD COLUMN position BIGINT;
UPDATE clients SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM clients) AS ordered WHERE clients.id = ordered.id;
CREATE UNIQUE INDEX clients_by_position ON clients (position);
CREATE TRIGGER clients_position AFTER INSERT ON clients
BEGIN
    UPDATE clients SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM clients) WHERE id = NEW.id;
END;

ALTER TABLE invoices ADD COLUMN position BIGINT;
UPDATE invoices SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM invoices) AS ordered WHERE invoices.id = ordered.id;
CREATE UNIQUE INDEX invoices_by_position ON invoices (position);
CREATE TRIGGER invoices_position AFTER INSERT ON invoices
BEGIN
    UPDATE invoices SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM invoices) WHERE id = NEW.id;
END;

ALTER TABLE invoice_payments ADD COLUMN position BIGINT;
UPDATE invoice_payments SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM invoice_payments) AS ordered WHERE invoice_payments.id = ordered.id;
CREATE UNIQUE INDEX invoice_payments_by_position ON invoice_payments (position);
CREATE TRIGGER invoice_payments_position AFTER INSERT ON invoice_payments
BEGIN
    UPDATE invoice_payments SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM invoice_payments) WHERE id = NEW.id;
END;

ALTER TABLE payouts ADD COLUMN position BIGINT;
UPDATE payouts SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM payouts) AS ordered WHERE payouts.id = ordered.id;
CREATE UNIQUE INDEX payouts_by_position ON payouts (position);
CREATE TRIGGER payouts_position AFTER INSERT ON payouts
BEGIN
    UPDATE payouts SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM payouts) WHERE id = NEW.id;
END;

ALTER TABLE disbursements ADD COLUMN position BIGINT;
UPDATE disbursements SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM disbursements) AS ordered WHERE disbursements.id = ordered.id;
CREATE UNIQUE INDEX disbursements_by_position ON disbursements (position);
CREATE TRIGGER disbursements_position AFTER INSERT ON disbursements
BEGIN
    UPDATE disbursements SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM disbursements) WHERE id = NEW.id;
END;

ALTER TABLE messages ADD COLUMN position BIGINT;
UPDATE messages SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM messages) AS ordered WHERE messages.id = ordered.id;
CREATE UNIQUE INDEX messages_by_position ON messages (position);
CREATE TRIGGER messages_position AFTER INSERT ON messages
BEGIN
    UPDATE messages SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM messages) WHERE id = NEW.id;
END;

ALTER TABLE payment_links ADD COLUMN position BIGINT;
UPDATE payment_links SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM payment_links) AS ordered WHERE payment_links.id = ordered.id;
CREATE UNIQUE INDEX payment_links_by_position ON payment_links (position);
CREATE TRIGGER payment_links_position AFTER INSERT ON payment_links
BEGIN
    UPDATE payment_links SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM payment_links) WHERE id = NEW.id;
END;

ALTER TABLE webhook_endpoints ADD COLUMN position BIGINT;
UPDATE webhook_endpoints SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM webhook_endpoints) AS ordered WHERE webhook_endpoints.id = ordered.id;
CREATE UNIQUE INDEX webhook_endpoints_by_position ON webhook_endpoints (position);
CREATE TRIGGER webhook_endpoints_position AFTER INSERT ON webhook_endpoints
BEGIN
    UPDATE webhook_endpoints SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM webhook_endpoints) WHERE id = NEW.id;
END;

ALTER TABLE webhook_deliveries ADD COLUMN position BIGINT;
UPDATE webhook_deliveries SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM webhook_deliveries) AS ordered WHERE webhook_deliveries.id = ordered.id;
CREATE UNIQUE INDEX webhook_deliveries_by_position ON webhook_deliveries (position);
CREATE TRIGGER webhook_deliveries_position AFTER INSERT ON webhook_deliveries
BEGIN
    UPDATE webhook_deliveries SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM webhook_deliveries) WHERE id = NEW.id;
END;

ALTER TABLE client_credit_transactions ADD COLUMN position BIGINT;
UPDATE client_credit_transactions SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM client_credit_transactions) AS ordered WHERE client_credit_transactions.id = ordered.id;
CREATE UNIQUE INDEX client_credit_transactions_by_position ON client_credit_transactions (position);
CREATE TRIGGER client_credit_transactions_position AFTER INSERT ON client_credit_transactions
BEGIN
    UPDATE client_credit_transactions SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM client_credit_transactions) WHERE id = NEW.id;
END;

DROP INDEX clients_list;
DROP INDEX invoices_list;
DROP INDEX invoices_by_status;
DROP INDEX invoices_by_client;
DROP INDEX payouts_list;
DROP INDEX payouts_by_state;
DROP INDEX disbursements_list;
DROP INDEX disbursements_by_status;
DROP INDEX messages_list;
DROP INDEX messages_by_status;
DROP INDEX messages_by_client;
DROP INDEX messages_by_invoice;
DROP INDEX payment_links_list;
DROP INDEX webhook_endpoints_list;
DROP INDEX webhook_deliveries_of_endpoint;
DROP INDEX webhook_deliveries_by_status;
DROP INDEX client_credit_transactions_list;
CREATE INDEX clients_list ON clients (org_id, env, position DESC) WHERE archived_at IS NULL;
CREATE INDEX invoices_list ON invoices (org_id, env, position DESC);
CREATE INDEX invoices_by_status ON invoices (org_id, env, status, position DESC);
CREATE INDEX invoices_by_client ON invoices (org_id, env, client_id, position DESC);
CREATE INDEX payouts_list ON payouts (org_id, env, position DESC);
CREATE INDEX payouts_by_state ON payouts (org_id, env, approval_status, exec_status, position DESC);
CREATE INDEX disbursements_list ON disbursements (org_id, env, position DESC);
CREATE INDEX disbursements_by_status ON disbursements (org_id, env, status, position DESC);
CREATE INDEX messages_list ON messages (org_id, env, position DESC);
CREATE INDEX messages_by_status ON messages (org_id, env, status, position DESC);
CREATE INDEX messages_by_client ON messages (client_id, position DESC) WHERE client_id IS NOT NULL;
CREATE INDEX messages_by_invoice ON messages (invoice_id, position DESC) WHERE invoice_id IS NOT NULL;
CREATE INDEX payment_links_list ON payment_links (org_id, env, position DESC);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints (org_id, env, position DESC);
CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id, position DESC);
CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries (endpoint_id, status, position DESC);
CREATE INDEX client_credit_transactions_list ON client_credit_transactions (client_id, position DESC);
CREATE INDEX invoice_payments_in_order ON invoice_payments (invoice_id, position DESC);
