-- The interactive page of a wallet deposit asks for the phone or email the organization knows:
-- the deposit counts the contacts given (a bound on guesses) and, once one matched an open
-- invitation, names its client; clients are found by contact across organizations.
ALTER TABLE wallet_deposits ADD COLUMN contact_tries BIGINT NOT NULL DEFAULT 0;
CREATE INDEX clients_by_phone_everywhere ON clients (phone_number) WHERE archived_at IS NULL AND phone_number IS NOT NULL;
CREATE INDEX clients_by_email_everywhere ON clients (LOWER(email)) WHERE archived_at IS NULL AND email IS NOT NULL;
