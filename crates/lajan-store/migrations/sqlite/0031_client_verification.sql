-- What a receiver must answer before registering a wallet, when the organization asks: the kind
-- of question and the Argon2id hash (PHC string) of the normalized answer, never the answer.
ALTER TABLE clients ADD COLUMN verification_kind TEXT
    CHECK (verification_kind IN ('date_of_birth', 'national_id', 'pin', 'year_month'));
ALTER TABLE clients ADD COLUMN verification_hash TEXT;
