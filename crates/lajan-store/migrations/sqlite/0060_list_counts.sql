-- What each list shows, counted per tenant by triggers in the writing transaction, so a list's
-- total is a lookup of a few rows instead of a count of every row it matches (#52). `list` names
-- the list, `scope` the parent it is listed under ('' or a webhook endpoint's id), `bucket` the
-- value of the one filter it is counted by ('' when none; a status, an event type). SQLite has one
-- writer, so each key is one row updated in place.
--
-- A migration that rebuilds one of these tables must create its triggers again.

CREATE TABLE list_counts (
    org_id TEXT NOT NULL,
    env    TEXT NOT NULL,
    list   TEXT NOT NULL,
    scope  TEXT NOT NULL,
    bucket TEXT NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (org_id, env, list, scope, bucket)
);

INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
SELECT org_id, env, 'clients', '', '', COUNT(*) FROM clients WHERE archived_at IS NULL GROUP BY org_id, env;
INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
SELECT org_id, env, 'events', '', type, COUNT(*) FROM events GROUP BY org_id, env, type;
INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
SELECT org_id, env, 'messages', '', status, COUNT(*) FROM messages GROUP BY org_id, env, status;
INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
SELECT org_id, env, 'deliveries', endpoint_id, status, COUNT(*) FROM webhook_deliveries GROUP BY org_id, env, endpoint_id, status;
INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
SELECT org_id, env, 'payment_links', '', '', COUNT(*) FROM payment_links WHERE deleted_at IS NULL GROUP BY org_id, env;
INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
SELECT org_id, env, 'disbursements', '', status, COUNT(*) FROM disbursements GROUP BY org_id, env, status;
INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
SELECT org_id, env, 'webhook_endpoints', '', '', COUNT(*) FROM webhook_endpoints GROUP BY org_id, env;

-- Clients and payment links: those not archived (deleted).
CREATE TRIGGER clients_count_insert AFTER INSERT ON clients WHEN NEW.archived_at IS NULL
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'clients', '', '', 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER clients_count_archive AFTER UPDATE OF archived_at ON clients
WHEN (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'clients', '', '', IIF(NEW.archived_at IS NULL, 1, -1))
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER clients_count_delete AFTER DELETE ON clients WHEN OLD.archived_at IS NULL
BEGIN
    UPDATE list_counts SET n = n - 1 WHERE org_id = OLD.org_id AND env = OLD.env AND list = 'clients' AND scope = '' AND bucket = '';
END;

CREATE TRIGGER payment_links_count_insert AFTER INSERT ON payment_links WHEN NEW.deleted_at IS NULL
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'payment_links', '', '', 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER payment_links_count_delete AFTER UPDATE OF deleted_at ON payment_links
WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'payment_links', '', '', IIF(NEW.deleted_at IS NULL, 1, -1))
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + excluded.n;
END;

-- Events by type; never deleted.
CREATE TRIGGER events_count_insert AFTER INSERT ON events
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'events', '', NEW.type, 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;

-- Messages, deliveries and disbursements by status.
CREATE TRIGGER messages_count_insert AFTER INSERT ON messages
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'messages', '', NEW.status, 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER messages_count_update AFTER UPDATE OF status ON messages WHEN OLD.status <> NEW.status
BEGIN
    UPDATE list_counts SET n = n - 1
    WHERE org_id = OLD.org_id AND env = OLD.env AND list = 'messages' AND scope = '' AND bucket = OLD.status;
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'messages', '', NEW.status, 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;

-- A webhook endpoint's deliveries go with it; its counts are removed with them (webhooks/sql.rs),
-- not one row at a time.
CREATE TRIGGER deliveries_count_insert AFTER INSERT ON webhook_deliveries
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'deliveries', NEW.endpoint_id, NEW.status, 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER deliveries_count_update AFTER UPDATE OF status ON webhook_deliveries WHEN OLD.status <> NEW.status
BEGIN
    UPDATE list_counts SET n = n - 1
    WHERE org_id = OLD.org_id AND env = OLD.env AND list = 'deliveries' AND scope = OLD.endpoint_id AND bucket = OLD.status;
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'deliveries', NEW.endpoint_id, NEW.status, 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER disbursements_count_insert AFTER INSERT ON disbursements
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'disbursements', '', NEW.status, 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER disbursements_count_update AFTER UPDATE OF status ON disbursements WHEN OLD.status <> NEW.status
BEGIN
    UPDATE list_counts SET n = n - 1
    WHERE org_id = OLD.org_id AND env = OLD.env AND list = 'disbursements' AND scope = '' AND bucket = OLD.status;
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'disbursements', '', NEW.status, 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER disbursements_count_delete AFTER DELETE ON disbursements
BEGIN
    UPDATE list_counts SET n = n - 1
    WHERE org_id = OLD.org_id AND env = OLD.env AND list = 'disbursements' AND scope = '' AND bucket = OLD.status;
END;

CREATE TRIGGER webhook_endpoints_count_insert AFTER INSERT ON webhook_endpoints
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'webhook_endpoints', '', '', 1)
    ON CONFLICT (org_id, env, list, scope, bucket) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER webhook_endpoints_count_delete AFTER DELETE ON webhook_endpoints
BEGIN
    UPDATE list_counts SET n = n - 1
    WHERE org_id = OLD.org_id AND env = OLD.env AND list = 'webhook_endpoints' AND scope = '' AND bucket = '';
END;

-- A delivery list filtered by status pages through an index, as the others do.
CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries (endpoint_id, status, created_at DESC, id DESC);
