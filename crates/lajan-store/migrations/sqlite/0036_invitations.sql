-- A receiver's invitation to register a wallet. The transaction that approves a payout to a
-- client without a wallet records the client's invitation as due (this table is its outbox);
-- the notification worker turns it into a message in the client's language and schedules the
-- resends. At most one invitation per client; every link sent for it is kept, as a SHA-256 of
-- its token only, and works while the invitation is live. WhatsApp messages join the outbox
-- (SQLite changes a CHECK only by rebuilding the table, as 0033 does), and a message names the
-- client it went to.
CREATE TABLE invitations (
    client_id     TEXT PRIMARY KEY REFERENCES clients (id),
    org_id        TEXT NOT NULL REFERENCES organizations (id),
    env           TEXT NOT NULL CHECK (env IN ('test', 'live')),
    status        TEXT NOT NULL CHECK (status IN ('invited', 'registered', 'locked', 'expired')),
    sends         INTEGER NOT NULL,
    last_sent_at  INTEGER,
    next_send_at  INTEGER,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    registered_at INTEGER,
    locked_at     INTEGER
);
CREATE INDEX invitations_due ON invitations (next_send_at) WHERE status = 'invited' AND next_send_at IS NOT NULL;

CREATE TABLE invitation_links (
    token_hash TEXT PRIMARY KEY,
    client_id  TEXT NOT NULL REFERENCES invitations (client_id),
    created_at INTEGER NOT NULL
);
CREATE INDEX invitation_links_by_client ON invitation_links (client_id);

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
    status          TEXT NOT NULL CHECK (status IN ('sandbox', 'queued', 'sent', 'failed')),
    attempts        INTEGER NOT NULL,
    last_error      TEXT,
    provider_id     TEXT,
    next_attempt_at INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER,
    client_id       TEXT REFERENCES clients (id)
);
INSERT INTO messages_rebuilt (id, org_id, env, invoice_id, channel, recipient, subject, body_text, body_html, status,
                              attempts, last_error, provider_id, next_attempt_at, created_at, sent_at)
SELECT id, org_id, env, invoice_id, channel, recipient, subject, body_text, body_html, status,
       attempts, last_error, provider_id, next_attempt_at, created_at, sent_at
FROM messages;
DROP TABLE messages;
ALTER TABLE messages_rebuilt RENAME TO messages;
CREATE INDEX messages_list ON messages (org_id, env, created_at DESC, id DESC);
CREATE INDEX messages_due ON messages (status, next_attempt_at);
