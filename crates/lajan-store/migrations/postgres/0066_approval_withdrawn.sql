-- Who took a payout's approval back by changing where it may go (a client's contact or question,
-- an unlock): under four eyes that person may not approve it again.
ALTER TABLE payouts ADD COLUMN approval_withdrawn_by TEXT;
-- Where a key or user came from (when, made by whom): a settings change's second person is
-- checked against it.
CREATE INDEX access_changes_by_subject ON access_changes (subject_id);
