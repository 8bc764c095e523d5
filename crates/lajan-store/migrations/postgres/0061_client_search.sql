-- Client search through trigram indexes (#52): pg_trgm's GIN operator class indexes every three
-- characters of each expression the clients list searches with LIKE '%term%', so the planner
-- reads the postings of a term's trigrams instead of every client. The query is unchanged
-- (clients/sql.rs); each index's expression is the query's, character for character.
--
-- pg_trgm ships with PostgreSQL and is a trusted extension since PostgreSQL 13: a user with
-- CREATE on the database may create it (docs/operations.md). It is created once per database,
-- in `public` when that schema exists (so that no schema dropped later takes it with it), and
-- used from wherever it already is.
DO $$
DECLARE
    home TEXT;
BEGIN
    SELECT extnamespace::regnamespace::text INTO home FROM pg_extension WHERE extname = 'pg_trgm';
    IF home IS NULL THEN
        BEGIN
            IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'public') THEN
                CREATE EXTENSION pg_trgm SCHEMA public;
            ELSE
                CREATE EXTENSION pg_trgm;
            END IF;
        EXCEPTION WHEN unique_violation OR duplicate_object THEN
            NULL; -- created by a migration running beside this one
        END;
        SELECT extnamespace::regnamespace::text INTO home FROM pg_extension WHERE extname = 'pg_trgm';
    END IF;
    EXECUTE format('CREATE INDEX clients_search_name ON clients USING gin '
        '((LOWER(first_name || '' '' || last_name)) %I.gin_trgm_ops) WHERE archived_at IS NULL', home);
    EXECUTE format('CREATE INDEX clients_search_email ON clients USING gin '
        '((LOWER(COALESCE(email, ''''))) %I.gin_trgm_ops) WHERE archived_at IS NULL', home);
    EXECUTE format('CREATE INDEX clients_search_phone ON clients USING gin '
        '((COALESCE(phone_number, '''')) %I.gin_trgm_ops) WHERE archived_at IS NULL', home);
    EXECUTE format('CREATE INDEX clients_search_wallet ON clients USING gin '
        '((LOWER(COALESCE(wallet_account_id, ''''))) %I.gin_trgm_ops) WHERE archived_at IS NULL', home);
END
$$;
