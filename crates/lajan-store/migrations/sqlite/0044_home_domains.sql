-- An organization's own domain, pointed at Lajan, and what its stellar.toml says about it
-- (SEP-1 [DOCUMENTATION], as JSON): wallets meet the organization, not the deployment. One
-- organization per domain in an environment; a stellar.toml request finds it by its host.
ALTER TABLE settings ADD COLUMN home_domain TEXT;
ALTER TABLE settings ADD COLUMN documentation TEXT NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX settings_by_home_domain ON settings (env, home_domain) WHERE home_domain IS NOT NULL;
