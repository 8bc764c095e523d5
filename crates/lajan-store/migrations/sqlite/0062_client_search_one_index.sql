-- Client search through one trigram index (#52): on PostgreSQL, one GIN index over the four
-- searched fields joined replaces 0061's four. SQLite's FTS5 table (0061) already indexes them
-- joined, so nothing changes here; the file keeps both backends' migrations numbered alike.
SELECT 1;
