-- A client's credit balance: what the organization holds for the client, per currency (an
-- overpayment, what was paid on an invoice later voided), kept in the transaction that moves it
-- and explained by one transaction row per move. An invoice remembers how much of what it
-- received it holds on the balance (amount_overpaid), so every later change of what it received
-- or asks for moves the balance by the difference, exactly.
ALTER TABLE invoices ADD COLUMN amount_overpaid INTEGER NOT NULL DEFAULT 0;

CREATE TABLE client_credit_balances (
    org_id     TEXT NOT NULL REFERENCES organizations (id),
    env        TEXT NOT NULL CHECK (env IN ('test', 'live')),
    client_id  TEXT NOT NULL REFERENCES clients (id),
    currency   TEXT NOT NULL,
    amount     INTEGER NOT NULL CHECK (amount >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (client_id, currency)
);

CREATE TABLE client_credit_transactions (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organizations (id),
    env           TEXT NOT NULL CHECK (env IN ('test', 'live')),
    client_id     TEXT NOT NULL REFERENCES clients (id),
    currency      TEXT NOT NULL,
    amount        INTEGER NOT NULL,
    balance_after INTEGER NOT NULL,
    cause         TEXT NOT NULL,
    invoice_id    TEXT REFERENCES invoices (id),
    created_at    INTEGER NOT NULL,
    actor_type    TEXT NOT NULL,
    actor_id      TEXT NOT NULL
);
CREATE INDEX client_credit_transactions_list ON client_credit_transactions (client_id, created_at DESC, id DESC);

-- What invoices already received beyond their total (or at all, once void) becomes the balance
-- it always should have been.
UPDATE invoices SET amount_overpaid = (
    SELECT CASE WHEN invoices.status = 'void' THEN p.amount_received
                WHEN p.amount_received > p.amount THEN p.amount_received - p.amount
                ELSE 0 END
    FROM payment_intents p WHERE p.id = invoices.payment_intent_id
);
INSERT INTO client_credit_transactions (id, org_id, env, client_id, currency, amount, balance_after, cause,
                                        invoice_id, created_at, actor_type, actor_id)
SELECT 'cbt_' || substr(i.id, 5), i.org_id, i.env, i.client_id, i.currency, i.amount_overpaid, 0,
       CASE WHEN i.status = 'void' THEN 'invoice_voided' ELSE 'overpayment' END, i.id, i.updated_at, 'system', 'worker'
FROM invoices i WHERE i.amount_overpaid > 0;
INSERT INTO client_credit_balances (org_id, env, client_id, currency, amount, updated_at)
SELECT org_id, env, client_id, currency, SUM(amount), MAX(created_at)
FROM client_credit_transactions GROUP BY org_id, env, client_id, currency;
-- Each backfilled move carries the balance it left, in the order they were made.
UPDATE client_credit_transactions SET balance_after = (
    SELECT r.running FROM (
        SELECT id, SUM(amount) OVER (PARTITION BY client_id, currency ORDER BY created_at, id) AS running
        FROM client_credit_transactions
    ) r WHERE r.id = client_credit_transactions.id
);
