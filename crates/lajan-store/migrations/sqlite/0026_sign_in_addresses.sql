-- The client address of each sign-in attempt: failures are counted per address across emails
-- (password spraying), and a locked email still lets its owner in from an address that has not
-- failed lately.
ALTER TABLE sign_ins ADD COLUMN client_address TEXT;
CREATE INDEX sign_ins_by_address ON sign_ins (client_address, at);
