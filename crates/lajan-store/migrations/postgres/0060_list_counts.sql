-- What each list shows, counted per tenant by triggers in the writing transaction, so a list's
-- total is a sum of a few rows instead of a count of every row it matches (#52). `list` names the
-- list, `scope` the parent it is listed under ('' or a webhook endpoint's id), `bucket` the value
-- of the one filter it is counted by ('' when none; a status, an event type).
--
-- As in 0006, a trigger only appends a delta row, so concurrent writers never queue on one
-- counter row; a count is the SUM of a key's rows and `compact_counts` folds them.

CREATE TABLE list_counts (
    org_id TEXT NOT NULL,
    env    TEXT NOT NULL,
    list   TEXT NOT NULL,
    scope  TEXT NOT NULL,
    bucket TEXT NOT NULL,
    n      BIGINT NOT NULL
);
CREATE INDEX list_counts_key ON list_counts (org_id, env, list, scope, bucket);

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

-- Lists whose rows leave when a column becomes non-null: archived clients, deleted links.
CREATE FUNCTION clients_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.archived_at IS NULL THEN
        INSERT INTO list_counts VALUES (OLD.org_id, OLD.env, 'clients', '', '', -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.archived_at IS NULL THEN
        INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'clients', '', '', 1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER clients_count AFTER INSERT OR DELETE ON clients
FOR EACH ROW EXECUTE FUNCTION clients_list_count();
CREATE TRIGGER clients_count_archive AFTER UPDATE OF archived_at ON clients
FOR EACH ROW WHEN ((OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)) EXECUTE FUNCTION clients_list_count();

CREATE FUNCTION payment_links_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
        INSERT INTO list_counts VALUES (OLD.org_id, OLD.env, 'payment_links', '', '', -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
        INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'payment_links', '', '', 1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER payment_links_count AFTER INSERT OR DELETE ON payment_links
FOR EACH ROW EXECUTE FUNCTION payment_links_list_count();
CREATE TRIGGER payment_links_count_delete AFTER UPDATE OF deleted_at ON payment_links
FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION payment_links_list_count();

CREATE FUNCTION webhook_endpoints_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO list_counts VALUES (OLD.org_id, OLD.env, 'webhook_endpoints', '', '', -1);
    ELSE
        INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'webhook_endpoints', '', '', 1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER webhook_endpoints_count AFTER INSERT OR DELETE ON webhook_endpoints
FOR EACH ROW EXECUTE FUNCTION webhook_endpoints_list_count();

-- Lists counted by a status or a type.
CREATE FUNCTION events_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'events', '', NEW.type, 1);
    RETURN NULL;
END
$$;
CREATE TRIGGER events_count AFTER INSERT ON events
FOR EACH ROW EXECUTE FUNCTION events_list_count();

CREATE FUNCTION messages_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        INSERT INTO list_counts VALUES (OLD.org_id, OLD.env, 'messages', '', OLD.status, -1);
    END IF;
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'messages', '', NEW.status, 1);
    RETURN NULL;
END
$$;
CREATE TRIGGER messages_count AFTER INSERT ON messages
FOR EACH ROW EXECUTE FUNCTION messages_list_count();
CREATE TRIGGER messages_count_update AFTER UPDATE OF status ON messages
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION messages_list_count();

CREATE FUNCTION disbursements_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO list_counts VALUES (OLD.org_id, OLD.env, 'disbursements', '', OLD.status, -1);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'disbursements', '', NEW.status, 1);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER disbursements_count AFTER INSERT OR DELETE ON disbursements
FOR EACH ROW EXECUTE FUNCTION disbursements_list_count();
CREATE TRIGGER disbursements_count_update AFTER UPDATE OF status ON disbursements
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION disbursements_list_count();

-- A webhook endpoint's deliveries go with it; its counts are removed with them (webhooks/sql.rs),
-- not one delta at a time.
CREATE FUNCTION deliveries_list_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        INSERT INTO list_counts VALUES (OLD.org_id, OLD.env, 'deliveries', OLD.endpoint_id, OLD.status, -1);
    END IF;
    INSERT INTO list_counts VALUES (NEW.org_id, NEW.env, 'deliveries', NEW.endpoint_id, NEW.status, 1);
    RETURN NULL;
END
$$;
CREATE TRIGGER deliveries_count AFTER INSERT ON webhook_deliveries
FOR EACH ROW EXECUTE FUNCTION deliveries_list_count();
CREATE TRIGGER deliveries_count_update AFTER UPDATE OF status ON webhook_deliveries
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION deliveries_list_count();

-- A delivery list filtered by status pages through an index, as the others do.
CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries (endpoint_id, status, created_at DESC, id DESC);
