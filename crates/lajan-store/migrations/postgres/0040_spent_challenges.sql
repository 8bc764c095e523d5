-- SEP-10 challenges already exchanged for a token. A challenge is exchanged once, so a signed
-- challenge a wallet leaked cannot be replayed; its hash is kept only until the challenge
-- expires, when it could not be exchanged anyway.
CREATE TABLE spent_challenges (
    hash TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX spent_challenges_expiry ON spent_challenges (expires_at);
