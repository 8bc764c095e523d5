-- Trigram indexes without a pending list (#52): PostgreSQL's GIN indexes stop queueing new
-- entries. SQLite's FTS5 tables merge theirs as they write, so nothing changes here; the file
-- keeps both backends' migrations numbered alike.
SELECT 1;
