-- The organization's country (ISO 3166-1 alpha-2): phone numbers written without a country code
-- are read as its numbers. Every organization so far is Haitian.
ALTER TABLE settings ADD COLUMN country TEXT NOT NULL DEFAULT 'HT';
