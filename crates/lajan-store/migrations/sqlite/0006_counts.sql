-- Per-tenant counts kept by triggers in the writing transaction, so list totals and the payout
-- tab counts cost a lookup instead of a scan of every row the tenant has. SQLite has one writer,
-- so each key is one row updated in place.

CREATE TABLE invoice_counts (
    org_id TEXT NOT NULL,
    env    TEXT NOT NULL,
    status TEXT NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (org_id, env, status)
);

INSERT INTO invoice_counts (org_id, env, status, n)
SELECT org_id, env, status, COUNT(*) FROM invoices GROUP BY org_id, env, status;

CREATE TRIGGER invoices_count_insert AFTER INSERT ON invoices
BEGIN
    INSERT INTO invoice_counts (org_id, env, status, n) VALUES (NEW.org_id, NEW.env, NEW.status, 1)
    ON CONFLICT (org_id, env, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER invoices_count_update AFTER UPDATE OF status ON invoices WHEN OLD.status <> NEW.status
BEGIN
    UPDATE invoice_counts SET n = n - 1 WHERE org_id = OLD.org_id AND env = OLD.env AND status = OLD.status;
    INSERT INTO invoice_counts (org_id, env, status, n) VALUES (NEW.org_id, NEW.env, NEW.status, 1)
    ON CONFLICT (org_id, env, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER invoices_count_delete AFTER DELETE ON invoices
BEGIN
    UPDATE invoice_counts SET n = n - 1 WHERE org_id = OLD.org_id AND env = OLD.env AND status = OLD.status;
END;

CREATE TABLE payout_counts (
    org_id          TEXT NOT NULL,
    env             TEXT NOT NULL,
    type            TEXT NOT NULL,
    approval_status TEXT NOT NULL,
    exec_status     TEXT NOT NULL,
    n               BIGINT NOT NULL,
    PRIMARY KEY (org_id, env, type, approval_status, exec_status)
);

INSERT INTO payout_counts (org_id, env, type, approval_status, exec_status, n)
SELECT org_id, env, type, approval_status, exec_status, COUNT(*) FROM payouts
GROUP BY org_id, env, type, approval_status, exec_status;

CREATE TRIGGER payouts_count_insert AFTER INSERT ON payouts
BEGIN
    INSERT INTO payout_counts (org_id, env, type, approval_status, exec_status, n)
    VALUES (NEW.org_id, NEW.env, NEW.type, NEW.approval_status, NEW.exec_status, 1)
    ON CONFLICT (org_id, env, type, approval_status, exec_status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER payouts_count_update AFTER UPDATE OF approval_status, exec_status ON payouts
WHEN OLD.approval_status <> NEW.approval_status OR OLD.exec_status <> NEW.exec_status
BEGIN
    UPDATE payout_counts SET n = n - 1
    WHERE org_id = OLD.org_id AND env = OLD.env AND type = OLD.type
      AND approval_status = OLD.approval_status AND exec_status = OLD.exec_status;
    INSERT INTO payout_counts (org_id, env, type, approval_status, exec_status, n)
    VALUES (NEW.org_id, NEW.env, NEW.type, NEW.approval_status, NEW.exec_status, 1)
    ON CONFLICT (org_id, env, type, approval_status, exec_status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER payouts_count_delete AFTER DELETE ON payouts
BEGIN
    UPDATE payout_counts SET n = n - 1
    WHERE org_id = OLD.org_id AND env = OLD.env AND type = OLD.type
      AND approval_status = OLD.approval_status AND exec_status = OLD.exec_status;
END;

-- The payout tabs (pending approval, executing, failed, ...) list by state, newest first.
CREATE INDEX payouts_by_state ON payouts (org_id, env, approval_status, exec_status, created_at DESC, id DESC);
