-- Client search through a trigram index (#52): FTS5 with the trigram tokenizer indexes every
-- three characters of a client's searchable text (name, email, phone number, wallet), folding
-- case, so a substring search reads the postings of its trigrams instead of every client. The
-- index only narrows: the list still applies its LIKE to what it finds, so results are exactly
-- those of the scan it replaces (clients/sql.rs).
--
-- The FTS table keeps no copy of the text (contentless; deletable, SQLite 3.43+). Its rows are
-- numbered by `client_search_keys.key`, an INTEGER PRIMARY KEY, because a table's implicit rowid
-- (clients has a TEXT key) may change on VACUUM, which backups run.

CREATE TABLE client_search_keys (
    key       INTEGER PRIMARY KEY,
    client_id TEXT NOT NULL UNIQUE
);

CREATE VIRTUAL TABLE clients_search USING fts5(body, content = '', contentless_delete = 1, tokenize = 'trigram');

INSERT INTO client_search_keys (client_id) SELECT id FROM clients ORDER BY created_at, id;
INSERT INTO clients_search (rowid, body)
SELECT k.key, c.first_name || ' ' || c.last_name || char(10) || COALESCE(c.email, '') || char(10)
              || COALESCE(c.phone_number, '') || char(10) || COALESCE(c.wallet_account_id, '')
FROM client_search_keys k JOIN clients c ON c.id = k.client_id;

CREATE TRIGGER clients_search_insert AFTER INSERT ON clients
BEGIN
    INSERT INTO client_search_keys (client_id) VALUES (NEW.id);
    INSERT INTO clients_search (rowid, body)
    VALUES ((SELECT key FROM client_search_keys WHERE client_id = NEW.id),
            NEW.first_name || ' ' || NEW.last_name || char(10) || COALESCE(NEW.email, '') || char(10)
            || COALESCE(NEW.phone_number, '') || char(10) || COALESCE(NEW.wallet_account_id, ''));
END;

CREATE TRIGGER clients_search_update AFTER UPDATE OF first_name, last_name, email, phone_number, wallet_account_id ON clients
WHEN OLD.first_name IS NOT NEW.first_name OR OLD.last_name IS NOT NEW.last_name OR OLD.email IS NOT NEW.email
  OR OLD.phone_number IS NOT NEW.phone_number OR OLD.wallet_account_id IS NOT NEW.wallet_account_id
BEGIN
    DELETE FROM clients_search WHERE rowid = (SELECT key FROM client_search_keys WHERE client_id = NEW.id);
    INSERT INTO clients_search (rowid, body)
    VALUES ((SELECT key FROM client_search_keys WHERE client_id = NEW.id),
            NEW.first_name || ' ' || NEW.last_name || char(10) || COALESCE(NEW.email, '') || char(10)
            || COALESCE(NEW.phone_number, '') || char(10) || COALESCE(NEW.wallet_account_id, ''));
END;

CREATE TRIGGER clients_search_delete AFTER DELETE ON clients
BEGIN
    DELETE FROM clients_search WHERE rowid = (SELECT key FROM client_search_keys WHERE client_id = OLD.id);
    DELETE FROM client_search_keys WHERE client_id = OLD.id;
END;
