-- An Idempotency-Key is now claimed inside the transaction of the change it answers, together
-- with its response (docs/design.md, Idempotency), so no claim outlives its request and the
-- claim's lock goes. Claims an older version left without a response are dropped: their keys
-- are free again. Stop processes of older versions before this runs: they still write the lock.
DELETE FROM idempotency_keys WHERE status_code IS NULL;
ALTER TABLE idempotency_keys DROP COLUMN locked_until;
