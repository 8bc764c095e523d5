-- Console users: finance staff who sign in with an email address (one user per address, across
-- organizations) and an Argon2id password hash (PHC string), each with one role.
CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organizations (id),
    email         TEXT NOT NULL UNIQUE,
    name          TEXT,
    role          TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    disabled_at   INTEGER
);
CREATE INDEX users_by_org ON users (org_id, created_at);
