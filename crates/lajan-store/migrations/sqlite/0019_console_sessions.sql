-- Console sessions: the browser holds a random token, this table only its SHA-256 digest, so a
-- copy of the database cannot be replayed as someone's session.
CREATE TABLE console_sessions (
    token_digest TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id),
    environment  TEXT NOT NULL,
    csrf         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    ended_at     INTEGER
);
CREATE INDEX console_sessions_by_user ON console_sessions (user_id);

-- Every sign-in attempt, by the email typed (known or not): the lockout counts the failures
-- since the last success, and admins read their organization's.
CREATE TABLE sign_ins (
    id      TEXT PRIMARY KEY,
    email   TEXT NOT NULL,
    user_id TEXT,
    org_id  TEXT,
    outcome TEXT NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX sign_ins_by_email ON sign_ins (email, at);
CREATE INDEX sign_ins_by_org ON sign_ins (org_id, at);
