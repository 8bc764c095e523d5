-- Per-tenant counts kept by triggers in the writing transaction, so list totals and the payout
-- tab counts cost a lookup instead of a scan of every row the tenant has.
--
-- Concurrent writers must not queue on one counter row (that would serialize every invoice and
-- payout of a tenant behind each other's commits), so a trigger only appends a delta row; a count
-- is the SUM of a key's rows, and `compact_counts` (run by the background jobs) folds each key's
-- deltas back into one row in a single statement.

CREATE TABLE invoice_counts (
    org_id TEXT NOT NULL,
    env    TEXT NOT NULL,
    status TEXT NOT NULL,
    n      BIGINT NOT NULL
);
CREATE INDEX invoice_counts_key ON invoice_counts (org_id, env, status);

INSERT INTO invoice_counts (org_id, env, status, n)
SELECT org_id, env, status, COUNT(*) FROM invoices GROUP BY org_id, env, status;

CREATE FUNCTION invoices_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO invoice_counts (org_id, env, status, n) VALUES (OLD.org_id, OLD.env, OLD.status, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO invoice_counts (org_id, env, status, n) VALUES (NEW.org_id, NEW.env, NEW.status, 1);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER invoices_count_insert_delete AFTER INSERT OR DELETE ON invoices
FOR EACH ROW EXECUTE FUNCTION invoices_count();
CREATE TRIGGER invoices_count_update AFTER UPDATE OF status ON invoices
FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION invoices_count();

CREATE TABLE payout_counts (
    org_id          TEXT NOT NULL,
    env             TEXT NOT NULL,
    type            TEXT NOT NULL,
    approval_status TEXT NOT NULL,
    exec_status     TEXT NOT NULL,
    n               BIGINT NOT NULL
);
CREATE INDEX payout_counts_key ON payout_counts (org_id, env, type, approval_status, exec_status);

INSERT INTO payout_counts (org_id, env, type, approval_status, exec_status, n)
SELECT org_id, env, type, approval_status, exec_status, COUNT(*) FROM payouts
GROUP BY org_id, env, type, approval_status, exec_status;

CREATE FUNCTION payouts_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO payout_counts (org_id, env, type, approval_status, exec_status, n)
        VALUES (OLD.org_id, OLD.env, OLD.type, OLD.approval_status, OLD.exec_status, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO payout_counts (org_id, env, type, approval_status, exec_status, n)
        VALUES (NEW.org_id, NEW.env, NEW.type, NEW.approval_status, NEW.exec_status, 1);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER payouts_count_insert_delete AFTER INSERT OR DELETE ON payouts
FOR EACH ROW EXECUTE FUNCTION payouts_count();
CREATE TRIGGER payouts_count_update AFTER UPDATE OF approval_status, exec_status ON payouts
FOR EACH ROW WHEN (OLD.approval_status IS DISTINCT FROM NEW.approval_status
                   OR OLD.exec_status IS DISTINCT FROM NEW.exec_status)
EXECUTE FUNCTION payouts_count();

-- The payout tabs (pending approval, executing, failed, ...) list by state, newest first.
CREATE INDEX payouts_by_state ON payouts (org_id, env, approval_status, exec_status, created_at DESC, id DESC);
