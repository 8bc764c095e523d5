-- Webhook endpoints, their subscriptions, and the deliveries of events to them. A delivery row
-- is written in the transaction that writes its event (the outbox), one per enabled endpoint of
-- the event's organization and environment subscribed to its type; the dispatcher claims due
-- deliveries under a lease and records every attempt.

CREATE TABLE webhook_endpoints (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations (id),
    env         TEXT NOT NULL CHECK (env IN ('test', 'live')),
    url         TEXT NOT NULL,
    description TEXT,
    secret      TEXT NOT NULL,
    enabled     BOOLEAN NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints (org_id, env, created_at DESC, id DESC);

-- An event name, "*", or an area wildcard such as "invoice.*".
CREATE TABLE webhook_subscriptions (
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    pattern     TEXT NOT NULL,
    PRIMARY KEY (endpoint_id, pattern)
);

CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id        TEXT NOT NULL REFERENCES events (id),
    org_id          TEXT NOT NULL,
    env             TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        BIGINT NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    lease_token     TEXT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
    id             TEXT PRIMARY KEY,
    delivery_id    TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt_number BIGINT NOT NULL,
    at             BIGINT NOT NULL,
    http_status    BIGINT,
    error          TEXT,
    duration_ms    BIGINT NOT NULL,
    response_body  TEXT,
    UNIQUE (delivery_id, attempt_number)
);
