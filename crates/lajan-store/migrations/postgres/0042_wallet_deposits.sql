-- SEP-24 deposits: a wallet's user registering the wallet's account on Lajan's interactive page,
-- then following the payout waiting for them until it is paid. The page's link is kept as a
-- hash; the SEP status is read from the registration and the payout, never stored. memo is the
-- SEP-10 id memo in decimal (a u64 does not fit PostgreSQL's signed BIGINT).
CREATE TABLE wallet_deposits (
    id              TEXT PRIMARY KEY,
    env             TEXT NOT NULL CHECK (env IN ('test', 'live')),
    account         TEXT NOT NULL,
    memo            TEXT,
    asset_code      TEXT NOT NULL,
    lang            TEXT NOT NULL,
    link_hash       TEXT NOT NULL UNIQUE,
    link_expires_at BIGINT NOT NULL,
    started_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    registered_at   BIGINT,
    org_id          TEXT REFERENCES organizations (id),
    client_id       TEXT REFERENCES clients (id),
    payout_id       TEXT REFERENCES payouts (id)
);
CREATE INDEX wallet_deposits_by_account ON wallet_deposits (account, env, started_at DESC, id DESC);
CREATE INDEX wallet_deposits_unfinished ON wallet_deposits (link_expires_at) WHERE registered_at IS NULL;
