-- A receiver's invitation to register a wallet. The transaction that approves a payout to a
-- client without a wallet records the client's invitation as due (this table is its outbox);
-- the notification worker turns it into a message in the client's language and schedules the
-- resends. At most one invitation per client; every link sent for it is kept, as a SHA-256 of
-- its token only, and works while the invitation is live. WhatsApp messages join the outbox,
-- and a message names the client it went to.
CREATE TABLE invitations (
    client_id     TEXT PRIMARY KEY REFERENCES clients (id),
    org_id        TEXT NOT NULL REFERENCES organizations (id),
    env           TEXT NOT NULL CHECK (env IN ('test', 'live')),
    status        TEXT NOT NULL CHECK (status IN ('invited', 'registered', 'locked', 'expired')),
    sends         BIGINT NOT NULL,
    last_sent_at  BIGINT,
    next_send_at  BIGINT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    registered_at BIGINT,
    locked_at     BIGINT
);
CREATE INDEX invitations_due ON invitations (next_send_at) WHERE status = 'invited' AND next_send_at IS NOT NULL;

CREATE TABLE invitation_links (
    token_hash TEXT PRIMARY KEY,
    client_id  TEXT NOT NULL REFERENCES invitations (client_id),
    created_at BIGINT NOT NULL
);
CREATE INDEX invitation_links_by_client ON invitation_links (client_id);

ALTER TABLE messages ADD COLUMN client_id TEXT REFERENCES clients (id);
ALTER TABLE messages DROP CONSTRAINT messages_channel_check;
ALTER TABLE messages ADD CONSTRAINT messages_channel_check CHECK (channel IN ('email', 'sms', 'whatsapp'));
