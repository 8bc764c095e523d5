-- Invoices, payment links, payment intents and incoming ledger payments.
-- Money columns are INTEGER cents; quantities inside line_items are ten-thousandths.

CREATE TABLE invoice_counters (
    org_id      TEXT NOT NULL REFERENCES organizations (id),
    env         TEXT NOT NULL CHECK (env IN ('test', 'live')),
    last_number INTEGER NOT NULL,
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
CREATE INDEX invoices_list ON invoices (org_id, env, created_at DESC, id DESC);
CREATE INDEX invoices_by_status ON invoices (org_id, env, status, created_at DESC, id DESC);
CREATE INDEX invoices_by_client ON invoices (org_id, env, client_id, created_at DESC, id DESC);
CREATE INDEX invoices_due ON invoices (status, due_date);

CREATE TABLE payment_links (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    amount            INTEGER NOT NULL,
    currency          TEXT NOT NULL,
    description       TEXT NOT NULL,
    payment_intent_id TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    expires_at        INTEGER
);
CREATE INDEX payment_links_list ON payment_links (org_id, env, created_at DESC, id DESC);

CREATE TABLE payment_intents (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations (id),
    env             TEXT NOT NULL CHECK (env IN ('test', 'live')),
    amount          INTEGER NOT NULL,
    currency        TEXT NOT NULL,
    reference       TEXT NOT NULL UNIQUE,
    status          TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'expired', 'paid')),
    amount_received INTEGER NOT NULL,
    invoice_id      TEXT REFERENCES invoices (id),
    payment_link_id TEXT REFERENCES payment_links (id),
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    paid_at         INTEGER,
    expires_at      INTEGER
);

-- Payments observed arriving on a ledger; processed once by the payment watcher.
CREATE TABLE incoming_payments (
    id                  TEXT PRIMARY KEY,
    org_id              TEXT NOT NULL REFERENCES organizations (id),
    env                 TEXT NOT NULL CHECK (env IN ('test', 'live')),
    ledger_seq          INTEGER NOT NULL,
    tx_hash             TEXT NOT NULL UNIQUE,
    source_account      TEXT NOT NULL,
    destination_account TEXT NOT NULL,
    asset_code          TEXT NOT NULL,
    amount              INTEGER NOT NULL,
    memo                TEXT,
    created_at          INTEGER NOT NULL,
    payment_intent_id   TEXT,
    processed_at        INTEGER
);
CREATE INDEX incoming_payments_pending ON incoming_payments (processed_at, created_at);
CREATE INDEX incoming_payments_by_intent ON incoming_payments (payment_intent_id);

-- The simulated network's ledger sequence, one row per environment that has a sandbox ledger.
CREATE TABLE sandbox_ledger (
    env      TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL
);
