-- Disbursements: batches of payouts of one asset. A draft holds its items; submitting creates one
-- payout per item (payouts.disbursement_id and disbursement_item_id point back), and the items'
-- counts per payout status are kept by triggers in the writing transaction, as payout_counts are.

CREATE TABLE disbursements (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL REFERENCES organizations (id),
    env              TEXT NOT NULL CHECK (env IN ('test', 'live')),
    name             TEXT NOT NULL,
    asset_code       TEXT NOT NULL,
    asset_issuer     TEXT,
    source           TEXT NOT NULL CHECK (source IN ('json', 'csv')),
    status           TEXT NOT NULL CHECK (status IN ('draft', 'pending_approval', 'approved', 'processing',
                                                     'completed', 'partially_failed', 'failed', 'rejected')),
    item_count       BIGINT NOT NULL,
    total_amount     BIGINT NOT NULL,
    created_by_key   TEXT NOT NULL,
    submitted_by_key TEXT,
    approved_by_key  TEXT,
    reject_reason    TEXT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    submitted_at     BIGINT,
    approved_at      BIGINT
);
CREATE INDEX disbursements_list ON disbursements (org_id, env, created_at DESC, id DESC);
CREATE INDEX disbursements_by_status ON disbursements (org_id, env, status, created_at DESC, id DESC);
-- The worker rolls up the batches still running.
CREATE INDEX disbursements_running ON disbursements (status);

CREATE TABLE disbursement_items (
    id                TEXT PRIMARY KEY,
    disbursement_id   TEXT NOT NULL REFERENCES disbursements (id),
    row_number        BIGINT NOT NULL,
    external_id       TEXT,
    client_id         TEXT REFERENCES clients (id),
    wallet_account_id TEXT NOT NULL,
    asset_amount      BIGINT NOT NULL,
    memo              TEXT,
    UNIQUE (disbursement_id, row_number)
);

ALTER TABLE payouts ADD COLUMN disbursement_id TEXT REFERENCES disbursements (id);
ALTER TABLE payouts ADD COLUMN disbursement_item_id TEXT REFERENCES disbursement_items (id);
CREATE UNIQUE INDEX payouts_of_items ON payouts (disbursement_item_id);
CREATE INDEX payouts_of_disbursement ON payouts (disbursement_id, approval_status, exec_status);
-- The executor claims direct payouts and disbursement payouts side by side (by type).
CREATE INDEX payouts_claim ON payouts (approval_status, exec_status, type, next_attempt_at);
-- The balance a disbursement's approval needs counts approved payouts not yet settled.
CREATE INDEX payouts_committed ON payouts (org_id, env, asset_code, approval_status, exec_status);

-- As with payout_counts, a trigger appends a delta row rather than updating one counter row that
-- every payout of a batch would queue on; `compact_counts` folds them.
CREATE TABLE disbursement_counts (
    disbursement_id TEXT NOT NULL,
    approval_status TEXT NOT NULL,
    exec_status     TEXT NOT NULL,
    n               BIGINT NOT NULL,
    amount          BIGINT NOT NULL
);
CREATE INDEX disbursement_counts_key ON disbursement_counts (disbursement_id, approval_status, exec_status);

CREATE FUNCTION disbursement_payouts_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        INSERT INTO disbursement_counts (disbursement_id, approval_status, exec_status, n, amount)
        VALUES (OLD.disbursement_id, OLD.approval_status, OLD.exec_status, -1, -OLD.asset_amount);
    END IF;
    INSERT INTO disbursement_counts (disbursement_id, approval_status, exec_status, n, amount)
    VALUES (NEW.disbursement_id, NEW.approval_status, NEW.exec_status, 1, NEW.asset_amount);
    RETURN NULL;
END
$$;

CREATE TRIGGER disbursement_payouts_insert AFTER INSERT ON payouts
FOR EACH ROW WHEN (NEW.disbursement_id IS NOT NULL) EXECUTE FUNCTION disbursement_payouts_count();
CREATE TRIGGER disbursement_payouts_update AFTER UPDATE OF approval_status, exec_status ON payouts
FOR EACH ROW WHEN (NEW.disbursement_id IS NOT NULL
                   AND (OLD.approval_status IS DISTINCT FROM NEW.approval_status
                        OR OLD.exec_status IS DISTINCT FROM NEW.exec_status))
EXECUTE FUNCTION disbursement_payouts_count();

-- One row per organization, environment and asset, locked by every disbursement approval of
-- that asset so two approvals never both spend the same balance.
CREATE TABLE funds_checks (
    org_id     TEXT NOT NULL,
    env        TEXT NOT NULL,
    asset_code TEXT NOT NULL,
    checked_at BIGINT NOT NULL,
    PRIMARY KEY (org_id, env, asset_code)
);
