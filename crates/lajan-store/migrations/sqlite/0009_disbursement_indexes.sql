-- Every payout status change updates each index that holds a status, and the executor changes
-- three per payout: a batch's payouts are found by their disbursement alone, and the claim's
-- index (0008) replaces the older work index, which it covers.
DROP INDEX payouts_of_disbursement;
CREATE INDEX payouts_of_disbursement ON payouts (disbursement_id);
DROP INDEX payouts_work;

-- A live approval counts the payouts sent since Horizon reported the balance (the unsettled ones
-- are found through payouts_by_state). Sandbox payouts never enter this index.
DROP INDEX payouts_committed;
CREATE INDEX payouts_sent_live ON payouts (org_id, updated_at) WHERE env = 'live' AND exec_status = 'sent';
