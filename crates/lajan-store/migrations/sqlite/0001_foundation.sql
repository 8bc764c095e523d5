-- Foundation: organizations, API keys, settings, clients, events, idempotency keys, rate-limit windows.
-- Timestamps are INTEGER milliseconds since the Unix epoch (UTC); money will be INTEGER minor units.

CREATE TABLE organizations (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    tier       TEXT NOT NULL CHECK (tier IN ('standard', 'enterprise')),
    created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations (id),
    env          TEXT NOT NULL CHECK (env IN ('test', 'live')),
    name         TEXT NOT NULL,
    hint         TEXT NOT NULL,
    secret_hash  TEXT NOT NULL UNIQUE,
    scopes       TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
);
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

CREATE TABLE settings (
    org_id                    TEXT NOT NULL REFERENCES organizations (id),
    env                       TEXT NOT NULL CHECK (env IN ('test', 'live')),
    default_currency          TEXT NOT NULL,
    default_tax_rate          INTEGER NOT NULL,
    payout_approval_required  BOOLEAN NOT NULL,
    require_distinct_approver BOOLEAN NOT NULL,
    timezone                  TEXT NOT NULL,
    updated_at                INTEGER NOT NULL,
    PRIMARY KEY (org_id, env)
);

CREATE TABLE clients (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    first_name        TEXT NOT NULL,
    last_name         TEXT NOT NULL,
    email             TEXT,
    phone_number      TEXT,
    wallet_account_id TEXT,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    archived_at       INTEGER
);
CREATE INDEX clients_list ON clients (org_id, env, created_at DESC, id DESC) WHERE archived_at IS NULL;

CREATE TABLE events (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations (id),
    env        TEXT NOT NULL CHECK (env IN ('test', 'live')),
    type       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    data       TEXT NOT NULL
);
CREATE INDEX events_list ON events (org_id, env, created_at DESC, id DESC);
CREATE INDEX events_by_type ON events (org_id, env, type, created_at DESC, id DESC);

CREATE TABLE idempotency_keys (
    org_id        TEXT NOT NULL REFERENCES organizations (id),
    env           TEXT NOT NULL CHECK (env IN ('test', 'live')),
    key           TEXT NOT NULL,
    request_hash  TEXT NOT NULL,
    status_code   INTEGER,
    response_body BLOB,
    created_at    INTEGER NOT NULL,
    locked_until  INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    PRIMARY KEY (org_id, env, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE rate_limit_windows (
    bucket       TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    hits         INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limit_windows_expiry ON rate_limit_windows (expires_at);
