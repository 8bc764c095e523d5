-- Who took a payout's approval back by changing where it may go (a client's contact or question,
-- an unlock): under four eyes that person may not approve it again.
ALTER TABLE payouts ADD COLUMN approval_withdrawn_by TEXT;
