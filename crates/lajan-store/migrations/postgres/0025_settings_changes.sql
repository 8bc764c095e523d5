-- Every change of an environment's settings, for the audit page, and the approval-policy changes
-- that wait for a second person (status 'pending' until confirmed, cancelled, replaced or past
-- expires_at). Written in the same transaction as the settings it changes.
CREATE TABLE settings_changes (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations (id),
    env               TEXT NOT NULL CHECK (env IN ('test', 'live')),
    requested_at      BIGINT NOT NULL,
    actor_type        TEXT NOT NULL,
    actor_id          TEXT NOT NULL,
    before_settings   TEXT NOT NULL,
    after_settings    TEXT NOT NULL,
    status            TEXT NOT NULL,
    expires_at        BIGINT,
    decided_at        BIGINT,
    decided_by_type   TEXT,
    decided_by_id     TEXT
);
CREATE INDEX settings_changes_by_org ON settings_changes (org_id, requested_at DESC, id DESC);
-- At most one change waits per environment: a new one replaces it.
CREATE UNIQUE INDEX settings_changes_one_pending ON settings_changes (org_id, env) WHERE status = 'pending';
