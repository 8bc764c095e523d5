-- Every message is a record an integrator can read: the language and template it was written
-- in, and a status that only moves forward: queued, sent (the provider took it), delivered,
-- failed (with the provider's reason), undeliverable. Sandbox messages are never handed to a
-- provider: they are delivered at once, simulated, so the sandbox shows the shape live has.
ALTER TABLE messages ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE messages ADD COLUMN template TEXT NOT NULL DEFAULT 'invoice';
ALTER TABLE messages ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE messages DROP CONSTRAINT messages_status_check;
UPDATE messages SET status = 'delivered', sent_at = created_at WHERE status = 'sandbox';
UPDATE messages SET template = 'invitation' WHERE client_id IS NOT NULL AND invoice_id IS NULL;
UPDATE messages SET updated_at = COALESCE(sent_at, created_at);
ALTER TABLE messages ADD CONSTRAINT messages_status_check
    CHECK (status IN ('queued', 'sent', 'delivered', 'failed', 'undeliverable'));
CREATE INDEX messages_by_invoice ON messages (invoice_id, created_at DESC, id DESC) WHERE invoice_id IS NOT NULL;
CREATE INDEX messages_by_client ON messages (client_id, created_at DESC, id DESC) WHERE client_id IS NOT NULL;
CREATE INDEX messages_by_status ON messages (org_id, env, status, created_at DESC, id DESC);
