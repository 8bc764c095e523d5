-- The registration page's checks on an invitation: the phone (or email) code, kept only as a
-- SHA-256 with its expiry and the wrong tries against it; when the contact was confirmed; the
-- organization's question answered, or the wrong answers counted toward the lock.
ALTER TABLE invitations ADD COLUMN code_hash TEXT;
ALTER TABLE invitations ADD COLUMN code_sent_at INTEGER;
ALTER TABLE invitations ADD COLUMN code_tries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE invitations ADD COLUMN contact_confirmed_at INTEGER;
ALTER TABLE invitations ADD COLUMN verified_at INTEGER;
ALTER TABLE invitations ADD COLUMN verify_failures INTEGER NOT NULL DEFAULT 0;
