-- A refused sign-in is counted on the record of the lock that refused it, not written again:
-- a refused caller asking a thousand times a second adds nothing.
ALTER TABLE sign_ins ADD COLUMN refusals BIGINT NOT NULL DEFAULT 1;
-- Old attempts are pruned by age.
CREATE INDEX sign_ins_by_at ON sign_ins (at);
