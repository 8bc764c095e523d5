-- The access trail: every console user and API key created or disabled, by whom and when, for
-- the admins' audit page. Written in the same transaction as the change it records.
CREATE TABLE access_changes (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations (id),
    at         BIGINT NOT NULL,
    actor_type TEXT NOT NULL,
    actor_id   TEXT NOT NULL,
    action     TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    subject    TEXT NOT NULL
);
CREATE INDEX access_changes_by_org ON access_changes (org_id, at DESC, id DESC);
