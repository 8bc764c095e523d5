-- The notification outbox: invoice emails and SMS, queued in the transaction that sends the
-- invoice and delivered by a worker. Sandbox messages are kept here and never delivered.

CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations (id),
    env             TEXT NOT NULL CHECK (env IN ('test', 'live')),
    invoice_id      TEXT REFERENCES invoices (id),
    channel         TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
    recipient       TEXT NOT NULL,
    subject         TEXT,
    body_text       TEXT NOT NULL,
    body_html       TEXT,
    status          TEXT NOT NULL CHECK (status IN ('sandbox', 'queued', 'sent', 'failed')),
    attempts        INTEGER NOT NULL,
    last_error      TEXT,
    provider_id     TEXT,
    next_attempt_at INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX messages_list ON messages (org_id, env, created_at DESC, id DESC);
CREATE INDEX messages_due ON messages (status, next_attempt_at);
