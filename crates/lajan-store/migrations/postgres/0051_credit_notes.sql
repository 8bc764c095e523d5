-- Credit notes: what a sent invoice no longer asks for (a waiver, a rescheduling, a duplicate,
-- a mistake), numbered gaplessly per organization and environment like invoices (CN-000001),
-- voided rather than deleted. An invoice keeps the sum of its credit notes in force
-- (amount_credited); its payment intent asks for the total less that sum.
ALTER TABLE invoices ADD COLUMN amount_credited BIGINT NOT NULL DEFAULT 0;

CREATE TABLE credit_note_counters (
    org_id      TEXT NOT NULL REFERENCES organizations (id),
    env         TEXT NOT NULL CHECK (env IN ('test', 'live')),
    last_number BIGINT NOT NULL,
    PRIMARY KEY (org_id, env)
);

CREATE TABLE credit_notes (
    id             TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES organizations (id),
    env            TEXT NOT NULL CHECK (env IN ('test', 'live')),
    number         TEXT NOT NULL,
    invoice_id     TEXT NOT NULL REFERENCES invoices (id),
    amount         BIGINT NOT NULL CHECK (amount > 0),
    reason         TEXT NOT NULL CHECK (reason IN ('waiver', 'rescheduling', 'duplicate', 'other')),
    memo           TEXT,
    status         TEXT NOT NULL CHECK (status IN ('issued', 'void')),
    created_at     BIGINT NOT NULL,
    actor_type     TEXT NOT NULL,
    actor_id       TEXT NOT NULL,
    voided_at      BIGINT,
    voided_by_type TEXT,
    voided_by_id   TEXT,
    UNIQUE (org_id, env, number)
);
CREATE INDEX credit_notes_by_invoice ON credit_notes (invoice_id, created_at, id);
CREATE INDEX credit_notes_list ON credit_notes (org_id, env, created_at DESC, id DESC);
