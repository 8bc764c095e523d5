-- A payout or disbursement item may pay a client who has no wallet yet: it waits in
-- awaiting_registration until the client registers one (the wallet is then copied onto it), or
-- is canceled when the registration window closes.
ALTER TABLE payouts ALTER COLUMN wallet_account_id DROP NOT NULL;
ALTER TABLE payouts DROP CONSTRAINT payouts_exec_status_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_exec_status_check
    CHECK (exec_status IN ('pending', 'awaiting_registration', 'ready_to_send', 'sent', 'failed', 'canceled'));
ALTER TABLE disbursement_items ALTER COLUMN wallet_account_id DROP NOT NULL;
-- The payouts of a client that registers, found without a scan.
CREATE INDEX payouts_awaiting ON payouts (client_id) WHERE exec_status = 'awaiting_registration';
