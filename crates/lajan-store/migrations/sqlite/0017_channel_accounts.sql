-- Live payouts may take a channel account as their transaction's source: the attempt names it.
-- A channel is held by the one attempt whose transaction may still use its sequence (not
-- applied, and never finished or of unknown outcome); the index makes a second such attempt on
-- the same channel impossible, whichever process builds it, and after a crash the attempts
-- left unsettled still hold their channels.
ALTER TABLE payout_attempts ADD COLUMN channel_account TEXT;
CREATE UNIQUE INDEX payout_attempts_channel_held ON payout_attempts (channel_account)
    WHERE channel_account IS NOT NULL AND ledger_seq IS NULL AND (error_code IS NULL OR error_code = 'tx_timeout');
