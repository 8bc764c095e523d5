-- A payout or disbursement item may pay a client who has no wallet yet: it waits in
-- awaiting_registration until the client registers one (the wallet is then copied onto it), or
-- is canceled when the registration window closes. SQLite changes a column's NOT NULL and a
-- CHECK only by rebuilding the table (its documented twelve steps: the store runs migrations with
-- foreign keys off and checks them after), so both tables are copied into their new shape and
-- their indexes and triggers made again, as they were.
CREATE TABLE disbursement_items_rebuilt (
    id                TEXT PRIMARY KEY,
    disbursement_id   TEXT NOT NULL REFERENCES disbursements (id),
    row_number        INTEGER NOT NULL,
    external_id       TEXT,
    client_id         TEXT REFERENCES clients (id),
    wallet_account_id TEXT,
    asset_amount      INTEGER NOT NULL,
    memo              TEXT,
    UNIQUE (disbursement_id, row_number)
);

INSERT INTO disbursement_items_rebuilt SELECT * FROM disbursement_items;
DROP TABLE disbursement_items;
ALTER TABLE disbursement_items_rebuilt RENAME TO disbursement_items;

CREATE TABLE payouts_rebuilt (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    type              TEXT NOT NULL CHECK (type IN ('direct', 'disbursement')),
    client_id         TEXT REFERENCES clients (id),
    wallet_account_id TEXT,
    asset_amount      INTEGER NOT NULL,
    asset_code        TEXT NOT NULL,
    asset_issuer      TEXT,
    memo              TEXT,
    approval_status   TEXT NOT NULL CHECK (approval_status IN ('pending', 'approved', 'rejected')),
    exec_status       TEXT NOT NULL CHECK (exec_status IN ('pending', 'awaiting_registration', 'ready_to_send', 'sent', 'failed', 'canceled')),
    created_by_key    TEXT NOT NULL,
    approved_by_key   TEXT,
    reject_reason     TEXT,
    next_attempt_at   INTEGER NOT NULL,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
    , disbursement_id TEXT REFERENCES disbursements (id), disbursement_item_id TEXT REFERENCES disbursement_items (id), lease_token TEXT, attempts_before_retry INTEGER NOT NULL DEFAULT 0, approved_at INTEGER, unsent_since INTEGER, delayed_at INTEGER);

INSERT INTO payouts_rebuilt SELECT * FROM payouts;
DROP TABLE payouts;
ALTER TABLE payouts_rebuilt RENAME TO payouts;
CREATE INDEX payouts_list ON payouts (org_id, env, created_at DESC, id DESC);
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
CREATE INDEX payouts_by_state ON payouts (org_id, env, approval_status, exec_status, created_at DESC, id DESC);
CREATE UNIQUE INDEX payouts_of_items ON payouts (disbursement_item_id);
CREATE TRIGGER disbursement_payouts_insert AFTER INSERT ON payouts WHEN NEW.disbursement_id IS NOT NULL
BEGIN
    INSERT INTO disbursement_counts (disbursement_id, approval_status, exec_status, n, amount)
    VALUES (NEW.disbursement_id, NEW.approval_status, NEW.exec_status, 1, NEW.asset_amount)
    ON CONFLICT (disbursement_id, approval_status, exec_status)
    DO UPDATE SET n = n + 1, amount = amount + excluded.amount;
END;
CREATE TRIGGER disbursement_payouts_update AFTER UPDATE OF approval_status, exec_status ON payouts
WHEN NEW.disbursement_id IS NOT NULL
 AND (OLD.approval_status <> NEW.approval_status OR OLD.exec_status <> NEW.exec_status)
BEGIN
    UPDATE disbursement_counts SET n = n - 1, amount = amount - OLD.asset_amount
    WHERE disbursement_id = OLD.disbursement_id
      AND approval_status = OLD.approval_status AND exec_status = OLD.exec_status;
    INSERT INTO disbursement_counts (disbursement_id, approval_status, exec_status, n, amount)
    VALUES (NEW.disbursement_id, NEW.approval_status, NEW.exec_status, 1, NEW.asset_amount)
    ON CONFLICT (disbursement_id, approval_status, exec_status)
    DO UPDATE SET n = n + 1, amount = amount + excluded.amount;
END;
CREATE INDEX payouts_of_disbursement ON payouts (disbursement_id);
CREATE INDEX payouts_sent_live ON payouts (org_id, updated_at) WHERE env = 'live' AND exec_status = 'sent';
CREATE INDEX payouts_leased ON payouts (lease_token) WHERE lease_token IS NOT NULL;
CREATE INDEX payouts_claim ON payouts (approval_status, exec_status, type, env, next_attempt_at);
CREATE INDEX payouts_unsent ON payouts ((COALESCE(unsent_since, approved_at)))
    WHERE approval_status = 'approved' AND exec_status IN ('pending', 'ready_to_send') AND delayed_at IS NULL;
CREATE INDEX payouts_delayed ON payouts (env)
    WHERE delayed_at IS NOT NULL AND exec_status IN ('pending', 'ready_to_send');

-- The payouts of a client that registers, found without a scan.
CREATE INDEX payouts_awaiting ON payouts (client_id) WHERE exec_status = 'awaiting_registration';
