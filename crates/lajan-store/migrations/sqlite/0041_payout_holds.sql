-- Why a payout is held back while its destination cannot take it (op_no_destination, op_no_trust,
-- with words for the organization) and since when: it is checked again until the receiver fixes
-- it, and fails once held for the registration window. Cleared when a transaction is built.
ALTER TABLE payouts ADD COLUMN hold_code TEXT;
ALTER TABLE payouts ADD COLUMN hold_message TEXT;
ALTER TABLE payouts ADD COLUMN held_since INTEGER;
