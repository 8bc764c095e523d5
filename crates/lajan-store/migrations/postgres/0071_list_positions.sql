-- Every list that pages by cursor in commit order, as the event feed is (migration 0069): a
-- row takes a position when its transaction commits, under its tenant's feed lock, so a reader
-- that saw a row of a list sees every row that list will ever hold below it. Lists, their
-- cursors and their indexes move from (created_at, id) to position; created_at stays the
-- clock's and what the API shows. The statements' own orders (by time) keep their indexes.

CREATE SEQUENCE list_positions;
CREATE FUNCTION list_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(20260069, hashtext(NEW.org_id || ':' || NEW.env));
    EXECUTE format('UPDATE %I.%I SET position = nextval(''list_positions'') WHERE id = $1', TG_TABLE_SCHEMA, TG_TABLE_NAME)
    USING NEW.id;
    RETURN NULL;
END
$$;

ALTER TABLE clients ADD COLUMN position BIGINT;
UPDATE clients SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM clients) AS ordered WHERE clients.id = ordered.id;
CREATE CONSTRAINT TRIGGER clients_position AFTER INSERT ON clients
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE invoices ADD COLUMN position BIGINT;
UPDATE invoices SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM invoices) AS ordered WHERE invoices.id = ordered.id;
CREATE CONSTRAINT TRIGGER invoices_position AFTER INSERT ON invoices
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE invoice_payments ADD COLUMN position BIGINT;
UPDATE invoice_payments SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM invoice_payments) AS ordered WHERE invoice_payments.id = ordered.id;
CREATE CONSTRAINT TRIGGER invoice_payments_position AFTER INSERT ON invoice_payments
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE payouts ADD COLUMN position BIGINT;
UPDATE payouts SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM payouts) AS ordered WHERE payouts.id = ordered.id;
CREATE CONSTRAINT TRIGGER payouts_position AFTER INSERT ON payouts
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE disbursements ADD COLUMN position BIGINT;
UPDATE disbursements SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM disbursements) AS ordered WHERE disbursements.id = ordered.id;
CREATE CONSTRAINT TRIGGER disbursements_position AFTER INSERT ON disbursements
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE messages ADD COLUMN position BIGINT;
UPDATE messages SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM messages) AS ordered WHERE messages.id = ordered.id;
CREATE CONSTRAINT TRIGGER messages_position AFTER INSERT ON messages
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE payment_links ADD COLUMN position BIGINT;
UPDATE payment_links SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM payment_links) AS ordered WHERE payment_links.id = ordered.id;
CREATE CONSTRAINT TRIGGER payment_links_position AFTER INSERT ON payment_links
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE webhook_endpoints ADD COLUMN position BIGINT;
UPDATE webhook_endpoints SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM webhook_endpoints) AS ordered WHERE webhook_endpoints.id = ordered.id;
CREATE CONSTRAINT TRIGGER webhook_endpoints_position AFTER INSERT ON webhook_endpoints
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE webhook_deliveries ADD COLUMN position BIGINT;
UPDATE webhook_deliveries SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM webhook_deliveries) AS ordered WHERE webhook_deliveries.id = ordered.id;
CREATE CONSTRAINT TRIGGER webhook_deliveries_position AFTER INSERT ON webhook_deliveries
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

ALTER TABLE client_credit_transactions ADD COLUMN position BIGINT;
UPDATE client_credit_transactions SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM client_credit_transactions) AS ordered WHERE client_credit_transactions.id = ordered.id;
CREATE CONSTRAINT TRIGGER client_credit_transactions_position AFTER INSERT ON client_credit_transactions
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_position();

SELECT setval('list_positions', GREATEST((SELECT COALESCE(MAX(position), 0) FROM clients), (SELECT COALESCE(MAX(position), 0) FROM invoices), (SELECT COALESCE(MAX(position), 0) FROM invoice_payments), (SELECT COALESCE(MAX(position), 0) FROM payouts), (SELECT COALESCE(MAX(position), 0) FROM disbursements), (SELECT COALESCE(MAX(position), 0) FROM messages), (SELECT COALESCE(MAX(position), 0) FROM payment_links), (SELECT COALESCE(MAX(position), 0) FROM webhook_endpoints), (SELECT COALESCE(MAX(position), 0) FROM webhook_deliveries), (SELECT COALESCE(MAX(position), 0) FROM client_credit_transactions)) + 1, false);

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
