-- Payouts, their attempts, and the sandbox ledger's accounts and transactions.

CREATE TABLE payouts (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    type              TEXT NOT NULL CHECK (type IN ('direct', 'disbursement')),
    client_id         TEXT REFERENCES clients (id),
    wallet_account_id TEXT NOT NULL,
    asset_amount      BIGINT NOT NULL,
    asset_code        TEXT NOT NULL,
    asset_issuer      TEXT,
    memo              TEXT,
    approval_status   TEXT NOT NULL CHECK (approval_status IN ('pending', 'approved', 'rejected')),
    exec_status       TEXT NOT NULL CHECK (exec_status IN ('pending', 'ready_to_send', 'sent', 'failed')),
    created_by_key    TEXT NOT NULL,
    approved_by_key   TEXT,
    reject_reason     TEXT,
    next_attempt_at   BIGINT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX payouts_list ON payouts (org_id, env, created_at DESC, id DESC);
CREATE INDEX payouts_work ON payouts (approval_status, exec_status, next_attempt_at);

CREATE TABLE payout_attempts (
    id             TEXT PRIMARY KEY,
    payout_id      TEXT NOT NULL REFERENCES payouts (id),
    attempt_number BIGINT NOT NULL,
    tx_hash        TEXT NOT NULL,
    envelope       TEXT NOT NULL,
    ledger_seq     BIGINT,
    error_code     TEXT,
    error_message  TEXT,
    created_at     BIGINT NOT NULL,
    finished_at    BIGINT,
    UNIQUE (payout_id, attempt_number)
);

-- The simulated network: balances of each organization's sandbox account, and every
-- transaction it accepted, once per hash.
CREATE TABLE sandbox_balances (
    org_id     TEXT NOT NULL REFERENCES organizations (id),
    asset_code TEXT NOT NULL,
    balance    BIGINT NOT NULL,
    PRIMARY KEY (org_id, asset_code)
);

CREATE TABLE sandbox_transactions (
    tx_hash     TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations (id),
    ledger_seq  BIGINT NOT NULL,
    destination TEXT NOT NULL,
    asset_code  TEXT NOT NULL,
    amount      BIGINT NOT NULL,
    memo        TEXT,
    created_at  BIGINT NOT NULL
);
