-- Every payment counted on an invoice, whatever its size: from the ledger (its transaction hash
-- as the reference, the ledger payment it counts) and, from the next slice on, those received
-- outside Lajan. A payment is never deleted; a reversal keeps it with why, when and by whom.
CREATE TABLE invoice_payments (
    id                  TEXT PRIMARY KEY,
    org_id              TEXT NOT NULL REFERENCES organizations (id),
    env                 TEXT NOT NULL CHECK (env IN ('test', 'live')),
    invoice_id          TEXT NOT NULL REFERENCES invoices (id),
    amount              BIGINT NOT NULL,
    method              TEXT NOT NULL,
    reference           TEXT,
    incoming_payment_id TEXT UNIQUE REFERENCES incoming_payments (id),
    paid_at             BIGINT NOT NULL,
    created_at          BIGINT NOT NULL,
    actor_type          TEXT NOT NULL,
    actor_id            TEXT NOT NULL,
    reversed_at         BIGINT,
    reversed_by_type    TEXT,
    reversed_by_id      TEXT,
    reversal_reason     TEXT
);
CREATE INDEX invoice_payments_by_invoice ON invoice_payments (invoice_id, created_at, id);

-- The ledger payments already counted on invoices, as the records they would have been.
INSERT INTO invoice_payments (id, org_id, env, invoice_id, amount, method, reference, incoming_payment_id,
                              paid_at, created_at, actor_type, actor_id)
SELECT 'ipy_' || substr(ip.id, 4), ip.org_id, ip.env, pi.invoice_id, ip.amount, 'stellar', ip.tx_hash, ip.id,
       ip.created_at, ip.processed_at, 'system', 'worker'
FROM incoming_payments ip JOIN payment_intents pi ON pi.id = ip.payment_intent_id
WHERE pi.invoice_id IS NOT NULL AND ip.processed_at IS NOT NULL;
