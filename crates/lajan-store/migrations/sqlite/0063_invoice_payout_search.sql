-- Invoice and payout search through trigram indexes (#52), as 0061 does for clients: FTS5
-- tables (trigram tokenizer, contentless) of each invoice's number and each payout's wallet,
-- numbered through INTEGER PRIMARY KEY side tables (VACUUM may renumber implicit rowids). A
-- search by client name goes through 0061's client index, then the new index on a client's
-- payouts. The indexes only narrow: the lists keep their LIKEs (invoices/sql.rs,
-- payouts/list_sql.rs), so results are those of the scans they replace.

CREATE TABLE invoice_search_keys (
    key        INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL UNIQUE
);

CREATE VIRTUAL TABLE invoices_search USING fts5(number, content = '', contentless_delete = 1, tokenize = 'trigram');

INSERT INTO invoice_search_keys (invoice_id) SELECT id FROM invoices ORDER BY created_at, id;
INSERT INTO invoices_search (rowid, number)
SELECT k.key, i.number FROM invoice_search_keys k JOIN invoices i ON i.id = k.invoice_id;

CREATE TRIGGER invoices_search_insert AFTER INSERT ON invoices
BEGIN
    INSERT INTO invoice_search_keys (invoice_id) VALUES (NEW.id);
    INSERT INTO invoices_search (rowid, number)
    VALUES ((SELECT key FROM invoice_search_keys WHERE invoice_id = NEW.id), NEW.number);
END;

CREATE TRIGGER invoices_search_update AFTER UPDATE OF number ON invoices
WHEN OLD.number IS NOT NEW.number
BEGIN
    DELETE FROM invoices_search WHERE rowid = (SELECT key FROM invoice_search_keys WHERE invoice_id = NEW.id);
    INSERT INTO invoices_search (rowid, number)
    VALUES ((SELECT key FROM invoice_search_keys WHERE invoice_id = NEW.id), NEW.number);
END;

CREATE TRIGGER invoices_search_delete AFTER DELETE ON invoices
BEGIN
    DELETE FROM invoices_search WHERE rowid = (SELECT key FROM invoice_search_keys WHERE invoice_id = OLD.id);
    DELETE FROM invoice_search_keys WHERE invoice_id = OLD.id;
END;

CREATE TABLE payout_search_keys (
    key       INTEGER PRIMARY KEY,
    payout_id TEXT NOT NULL UNIQUE
);

CREATE VIRTUAL TABLE payouts_search USING fts5(wallet, content = '', contentless_delete = 1, tokenize = 'trigram');

INSERT INTO payout_search_keys (payout_id) SELECT id FROM payouts ORDER BY created_at, id;
INSERT INTO payouts_search (rowid, wallet)
SELECT k.key, COALESCE(p.wallet_account_id, '') FROM payout_search_keys k JOIN payouts p ON p.id = k.payout_id;

CREATE TRIGGER payouts_search_insert AFTER INSERT ON payouts
BEGIN
    INSERT INTO payout_search_keys (payout_id) VALUES (NEW.id);
    INSERT INTO payouts_search (rowid, wallet)
    VALUES ((SELECT key FROM payout_search_keys WHERE payout_id = NEW.id), COALESCE(NEW.wallet_account_id, ''));
END;

-- A payout awaiting its receiver's registration gets its wallet later.
CREATE TRIGGER payouts_search_update AFTER UPDATE OF wallet_account_id ON payouts
WHEN OLD.wallet_account_id IS NOT NEW.wallet_account_id
BEGIN
    DELETE FROM payouts_search WHERE rowid = (SELECT key FROM payout_search_keys WHERE payout_id = NEW.id);
    INSERT INTO payouts_search (rowid, wallet)
    VALUES ((SELECT key FROM payout_search_keys WHERE payout_id = NEW.id), COALESCE(NEW.wallet_account_id, ''));
END;

CREATE TRIGGER payouts_search_delete AFTER DELETE ON payouts
BEGIN
    DELETE FROM payouts_search WHERE rowid = (SELECT key FROM payout_search_keys WHERE payout_id = OLD.id);
    DELETE FROM payout_search_keys WHERE payout_id = OLD.id;
END;

CREATE INDEX payouts_by_client ON payouts (org_id, env, client_id);
