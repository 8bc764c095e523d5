-- When each payout was approved, so the time from approval to sent can be measured (metrics).
-- Payouts approved before this migration keep NULL: their approval time was not kept.
ALTER TABLE payouts ADD COLUMN approved_at BIGINT;
