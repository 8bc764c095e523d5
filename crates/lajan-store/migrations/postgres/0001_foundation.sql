-- Foundation: organizations, API keys, settings, clients, events, idempotency keys, rate-limit windows.
-- Timestamps are BIGINT milliseconds since the Unix epoch (UTC); money will be BIGINT minor units.

CREATE TABLE organizations (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    tier       TEXT NOT NULL CHECK (tier IN ('standard', 'enterprise')),
    created_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations (id),
    env          TEXT NOT NULL CHECK (env IN ('test', 'live')),
    name         TEXT NOT NULL,
    hint         TEXT NOT NULL,
    secret_hash  TEXT NOT NULL UNIQUE,
    scopes       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at   BIGINT
);
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

CREATE TABLE settings (
    org_id                    TEXT NOT NULL REFERENCES organizations (id),
    env                       TEXT NOT NULL CHECK (env IN ('test', 'live')),
    default_currency          TEXT NOT NULL,
    default_tax_rate          BIGINT NOT NULL,
    payout_approval_required  BOOLEAN NOT NULL,
    require_distinct_approver BOOLEAN NOT NULL,
    timezone                  TEXT NOT NULL,
    updated_at                BIGINT NOT NULL,
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
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    archived_at       BIGINT
);
CREATE INDEX clients_list ON clients (org_id, env, created_at DESC, id DESC) WHERE archived_at IS NULL;

CREATE TABLE events (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations (id),
    env        TEXT NOT NULL CHECK (env IN ('test', 'live')),
    type       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    data       TEXT NOT NULL
);
CREATE INDEX events_list ON events (org_id, env, created_at DESC, id DESC);
CREATE INDEX events_by_type ON events (org_id, env, type, created_at DESC, id DESC);

CREATE TABLE idempotency_keys (
    org_id        TEXT NOT NULL REFERENCES organizations (id),
    env           TEXT NOT NULL CHECK (env IN ('test', 'live')),
    key           TEXT NOT NULL,
    request_hash  TEXT NOT NULL,
    status_code   BIGINT,
    response_body BYTEA,
    created_at    BIGINT NOT NULL,
    locked_until  BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    PRIMARY KEY (org_id, env, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE rate_limit_windows (
    bucket       TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    hits         BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limit_windows_expiry ON rate_limit_windows (expires_at);
