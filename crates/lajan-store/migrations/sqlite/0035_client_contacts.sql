-- A disbursement row that names a receiver by phone number or email finds the organization's
-- client through these, whatever the table holds.
CREATE INDEX clients_by_phone ON clients (org_id, env, phone_number) WHERE archived_at IS NULL AND phone_number IS NOT NULL;
CREATE INDEX clients_by_email ON clients (org_id, env, LOWER(email)) WHERE archived_at IS NULL AND email IS NOT NULL;
