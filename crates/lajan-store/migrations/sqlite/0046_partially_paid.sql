-- An invoice some of whose total has been paid is `partially_paid` (`overdue` still wins once its
-- due date passes). SQLite changes a CHECK only by rebuilding the table (its documented twelve
-- steps: the store runs migrations with foreign keys off and checks them after), so invoices are
-- copied into their new shape and their indexes and count triggers made again, as they were.
CREATE TABLE invoices_rebuilt (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    number            TEXT NOT NULL,
    client_id         TEXT NOT NULL REFERENCES clients (id),
    currency          TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('draft', 'sent', 'viewed', 'partially_paid', 'paid', 'overdue', 'void')),
    due_date          TEXT NOT NULL,
    memo              TEXT,
    line_items        TEXT NOT NULL,
    subtotal          INTEGER NOT NULL,
    tax               INTEGER NOT NULL,
    total             INTEGER NOT NULL,
    payment_intent_id TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    sent_at           INTEGER,
    paid_at           INTEGER,
    voided_at         INTEGER,
    void_reason       TEXT,
    UNIQUE (org_id, env, number)
);

INSERT INTO invoices_rebuilt SELECT * FROM invoices;
DROP TABLE invoices;
ALTER TABLE invoices_rebuilt RENAME TO invoices;

CREATE INDEX invoices_list ON invoices (org_id, env, created_at DESC, id DESC);
CREATE INDEX invoices_by_status ON invoices (org_id, env, status, created_at DESC, id DESC);
CREATE INDEX invoices_by_client ON invoices (org_id, env, client_id, created_at DESC, id DESC);
CREATE INDEX invoices_due ON invoices (status, due_date);

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
