-- Invoices, payment links, payment intents and incoming ledger payments.
-- Money columns are BIGINT cents; quantities inside line_items are ten-thousandths.

CREATE TABLE invoice_counters (
    org_id      TEXT NOT NULL REFERENCES organizations (id),
    env         TEXT NOT NULL CHECK (env IN ('test', 'live')),
    last_number BIGINT NOT NULL,
    PRIMARY KEY (org_id, env)
);

CREATE TABLE invoices (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    number            TEXT NOT NULL,
    client_id         TEXT NOT NULL REFERENCES clients (id),
    currency          TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('draft', 'sent', 'viewed', 'paid', 'overdue', 'void')),
    due_date          TEXT NOT NULL,
    memo              TEXT,
    line_items        TEXT NOT NULL,
    subtotal          BIGINT NOT NULL,
    tax               BIGINT NOT NULL,
    total             BIGINT NOT NULL,
    payment_intent_id TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    sent_at           BIGINT,
    paid_at           BIGINT,
    voided_at         BIGINT,
    void_reason       TEXT,
    UNIQUE (org_id, env, number)
);
CREATE INDEX invoices_list ON invoices (org_id, env, created_at DESC, id DESC);
CREATE INDEX invoices_by_status ON invoices (org_id, env, status, created_at DESC, id DESC);
CREATE INDEX invoices_by_client ON invoices (org_id, env, client_id, created_at DESC, id DESC);
CREATE INDEX invoices_due ON invoices (status, due_date);

CREATE TABLE payment_links (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    amount            BIGINT NOT NULL,
    currency          TEXT NOT NULL,
    description       TEXT NOT NULL,
    payment_intent_id TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    expires_at        BIGINT
);
CREATE INDEX payment_links_list ON payment_links (org_id, env, created_at DESC, id DESC);

CREATE TABLE payment_intents (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations (id),
    env             TEXT NOT NULL CHECK (env IN ('test', 'live')),
    amount          BIGINT NOT NULL,
    currency        TEXT NOT NULL,
    reference       TEXT NOT NULL UNIQUE,
    status          TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'expired', 'paid')),
    amount_received BIGINT NOT NULL,
    invoice_id      TEXT REFERENCES invoices (id),
    payment_link_id TEXT REFERENCES payment_links (id),
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    paid_at         BIGINT,
    expires_at      BIGINT
);

-- Payments observed arriving on a ledger; processed once by the payment watcher.
CREATE TABLE incoming_payments (
    id                  TEXT PRIMARY KEY,
    org_id              TEXT NOT NULL REFERENCES organizations (id),
    env                 TEXT NOT NULL CHECK (env IN ('test', 'live')),
    ledger_seq          BIGINT NOT NULL,
    tx_hash             TEXT NOT NULL UNIQUE,
    source_account      TEXT NOT NULL,
    destination_account TEXT NOT NULL,
    asset_code          TEXT NOT NULL,
    amount              BIGINT NOT NULL,
    memo                TEXT,
    created_at          BIGINT NOT NULL,
    payment_intent_id   TEXT,
    processed_at        BIGINT
);
CREATE INDEX incoming_payments_pending ON incoming_payments (processed_at, created_at);
CREATE INDEX incoming_payments_by_intent ON incoming_payments (payment_intent_id);

-- The simulated network's ledger sequence, one row per environment that has a sandbox ledger.
CREATE TABLE sandbox_ledger (
    env      TEXT PRIMARY KEY,
    last_seq BIGINT NOT NULL
);
