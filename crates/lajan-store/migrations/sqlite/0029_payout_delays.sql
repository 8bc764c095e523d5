-- A payout still unsent long after it became due raises payout.delayed once. unsent_since is
-- when a manual retry queued it again (before the first retry, its approval counts); delayed_at
-- is when the alert was raised, cleared by a retry.
ALTER TABLE payouts ADD COLUMN unsent_since INTEGER;
ALTER TABLE payouts ADD COLUMN delayed_at INTEGER;
-- The alert's search costs what is overdue, not what waits: only unsent, unalerted payouts.
CREATE INDEX payouts_unsent ON payouts ((COALESCE(unsent_since, approved_at)))
    WHERE approval_status = 'approved' AND exec_status IN ('pending', 'ready_to_send') AND delayed_at IS NULL;
-- What /metrics counts: alerted payouts still unsent.
CREATE INDEX payouts_delayed ON payouts (env)
    WHERE delayed_at IS NOT NULL AND exec_status IN ('pending', 'ready_to_send');
