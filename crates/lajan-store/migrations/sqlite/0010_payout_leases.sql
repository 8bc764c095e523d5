-- Fenced leases: each claim writes its token on the payouts it takes, and every write the
-- executor makes to a payout (an attempt, a hold, a settlement) presents it; another claim
-- replaces it, so a late executor can no longer move a payout it lost. Settling clears it.
ALTER TABLE payouts ADD COLUMN lease_token TEXT;
CREATE INDEX payouts_leased ON payouts (lease_token) WHERE lease_token IS NOT NULL;

-- Sandbox payouts are claimed by the hundred, live ones one at a time: the claim picks an
-- environment.
DROP INDEX payouts_claim;
CREATE INDEX payouts_claim ON payouts (approval_status, exec_status, type, env, next_attempt_at);
