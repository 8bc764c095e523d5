-- The memo a custodial wallet or an exchange needs to credit its customer: the client's, kept
-- with the wallet it belongs to, and the payout's copy, taken with the wallet when the payout is
-- created or released, so a later change to the client never redirects money already approved.
-- The kind is Stellar's (text, id, hash); the value is the text, the id in decimal, or the hash
-- in lowercase hex.
ALTER TABLE clients ADD COLUMN wallet_memo_type TEXT;
ALTER TABLE clients ADD COLUMN wallet_memo TEXT;
ALTER TABLE payouts ADD COLUMN wallet_memo_type TEXT;
ALTER TABLE payouts ADD COLUMN wallet_memo TEXT;
