-- Sending a stored envelope again is one more submission of its attempt, not a new attempt; the
-- attempt budget counts transactions built since the payout's last manual retry.
ALTER TABLE payout_attempts ADD COLUMN submissions INTEGER NOT NULL DEFAULT 1;
ALTER TABLE payouts ADD COLUMN attempts_before_retry INTEGER NOT NULL DEFAULT 0;
