-- A wallet deposit's page proves the contact itself: its own code (bound to the deposit, never
-- the invitation's), its own confirmation and answer, so a page never inherits what the receiver
-- confirmed on another. Deposits count the codes sent to and the wrong codes given for one
-- contact (kept as a SHA-256) across pages; an invitation counts wrong codes over its life.
ALTER TABLE wallet_deposits ADD COLUMN contact_hash TEXT;
ALTER TABLE wallet_deposits ADD COLUMN code_hash TEXT;
ALTER TABLE wallet_deposits ADD COLUMN code_sent_at INTEGER;
ALTER TABLE wallet_deposits ADD COLUMN code_tries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE wallet_deposits ADD COLUMN codes_sent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE wallet_deposits ADD COLUMN contact_confirmed_at INTEGER;
ALTER TABLE wallet_deposits ADD COLUMN verified_at INTEGER;
CREATE INDEX wallet_deposits_by_contact ON wallet_deposits (contact_hash, updated_at) WHERE contact_hash IS NOT NULL;
ALTER TABLE invitations ADD COLUMN code_failures INTEGER NOT NULL DEFAULT 0;
