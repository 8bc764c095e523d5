-- The language Lajan speaks to a client in (invitations, messages, the pages they open): ht, fr
-- or en. Clients made before it read Creole, as a new client does unless told otherwise.
ALTER TABLE clients ADD COLUMN language TEXT NOT NULL DEFAULT 'ht' CHECK (language IN ('ht', 'fr', 'en'));
