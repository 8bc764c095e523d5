-- Ledgers closing on a clock in the sandbox, and where each ledger watcher stopped reading.

-- When the last sandbox ledger closed (ms); 0 for rows written before ledgers closed on a clock.
ALTER TABLE sandbox_ledger ADD COLUMN closed_at INTEGER NOT NULL DEFAULT 0;

-- A watcher's saved position in a ledger's stream, e.g. Horizon's paging_token for the payments
-- to the live receiving account.
CREATE TABLE ledger_cursors (
    name       TEXT PRIMARY KEY,
    cursor     TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
