-- Every message is a record an integrator can read: the language and template it was written
-- in, and a status that only moves forward: queued, sent (the provider took it), delivered,
-- failed (with the provider's reason), undeliverable. Sandbox messages are never handed to a
-- provider: they are delivered at once, simulated, so the sandbox shows the shape live has.
CREATE TABLE messages_rebuilt (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations (id),
    env             TEXT NOT NULL CHECK (env IN ('test', 'live')),
    invoice_id      TEXT REFERENCES invoices (id),
    channel         TEXT NOT NULL CHECK (channel IN ('email', 'sms', 'whatsapp')),
    recipient       TEXT NOT NULL,
    subject         TEXT,
    body_text       TEXT NOT NULL,
    body_html       TEXT,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'delivered', 'failed', 'undeliverable')),
    attempts        INTEGER NOT NULL,
    last_error      TEXT,
    provider_id     TEXT,
    next_attempt_at INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER,
    client_id       TEXT REFERENCES clients (id),
    language        TEXT NOT NULL DEFAULT 'en',
    template        TEXT NOT NULL DEFAULT 'invoice',
    updated_at      INTEGER NOT NULL DEFAULT 0
);
INSERT INTO messages_rebuilt (id, org_id, env, invoice_id, channel, recipient, subject, body_text, body_html, status,
                              attempts, last_error, provider_id, next_attempt_at, created_at, sent_at, client_id,
                              template, updated_at)
SELECT id, org_id, env, invoice_id, channel, recipient, subject, body_text, body_html,
       CASE WHEN status = 'sandbox' THEN 'delivered' ELSE status END,
       attempts, last_error, provider_id, next_attempt_at, created_at,
       CASE WHEN status = 'sandbox' THEN created_at ELSE sent_at END, client_id,
       CASE WHEN client_id IS NOT NULL AND invoice_id IS NULL THEN 'invitation' ELSE 'invoice' END,
       COALESCE(sent_at, created_at)
FROM messages;
DROP TABLE messages;
ALTER TABLE messages_rebuilt RENAME TO messages;
CREATE INDEX messages_list ON messages (org_id, env, created_at DESC, id DESC);
CREATE INDEX messages_due ON messages (status, next_attempt_at);
CREATE INDEX messages_by_invoice ON messages (invoice_id, created_at DESC, id DESC) WHERE invoice_id IS NOT NULL;
CREATE INDEX messages_by_client ON messages (client_id, created_at DESC, id DESC) WHERE client_id IS NOT NULL;
CREATE INDEX messages_by_status ON messages (org_id, env, status, created_at DESC, id DESC);
