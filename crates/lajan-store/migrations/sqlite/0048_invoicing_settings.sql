-- How an organization's invoices are paid (whether the payment page lets a payer pay part of
-- what is due), as one JSON object so later invoicing settings need no new column; '{}' is the
-- defaults.
ALTER TABLE settings ADD COLUMN invoicing TEXT NOT NULL DEFAULT '{}';
