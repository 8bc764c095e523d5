-- Keys Lajan signs with as a Stellar service (SEP-10 challenges), one per network it speaks for.
-- Only the sandbox's is kept here, made at first use, so a fresh deployment answers wallets at
-- once; a live key is configuration (a secret, like the distribution account's), never stored.
CREATE TABLE signing_keys (
    network TEXT PRIMARY KEY,
    secret_seed TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
