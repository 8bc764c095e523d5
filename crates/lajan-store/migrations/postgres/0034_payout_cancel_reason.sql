-- Why a payout was canceled: receiver_not_registered (its client did not register a wallet in
-- time) or requested (the organization called it off); and the waiting payouts by approval
-- time, which the expiry job reads oldest first.
ALTER TABLE payouts ADD COLUMN cancel_reason TEXT CHECK (cancel_reason IN ('receiver_not_registered', 'requested'));
CREATE INDEX payouts_awaiting_since ON payouts (approved_at) WHERE exec_status = 'awaiting_registration';
