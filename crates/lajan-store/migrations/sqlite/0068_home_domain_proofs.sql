-- A home domain is served only once its organization proved it holds the domain (a DNS TXT
-- record with a token Lajan made for it), and a domain is one organization's only once proved:
-- a claim alone no longer keeps a domain from its owner, first come, first served.
CREATE TABLE home_domain_proofs (
    org_id      TEXT NOT NULL,
    env         TEXT NOT NULL,
    domain      TEXT NOT NULL,
    token       TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    verified_at BIGINT,
    PRIMARY KEY (org_id, env)
);
CREATE UNIQUE INDEX home_domain_proofs_proved ON home_domain_proofs (env, domain) WHERE verified_at IS NOT NULL;
DROP INDEX settings_by_home_domain;
CREATE INDEX settings_by_home_domain ON settings (env, home_domain) WHERE home_domain IS NOT NULL;
-- Domains set before proofs existed were served already; wallets meet them there, so they stay
-- served (an operator who doubts one clears it and has it proved).
INSERT INTO home_domain_proofs (org_id, env, domain, token, created_at, verified_at)
SELECT org_id, env, home_domain, 'set before proofs', 0, 0 FROM settings WHERE home_domain IS NOT NULL;
