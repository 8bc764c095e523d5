-- Client search through one trigram index (#52). 0061 indexed each of the four searched
-- expressions: a search read the postings of its trigrams four times, and invoices and payouts,
-- which search by client name whether or not the client is archived, could use none of them
-- (they were partial). This index holds the four fields joined by newlines, lowercased, for
-- every client; the lists ask it for candidates and keep their exact LIKEs on what it finds
-- (clients/sql.rs repeats the expression character for character), so results do not change.
DROP INDEX clients_search_name;
DROP INDEX clients_search_email;
DROP INDEX clients_search_phone;
DROP INDEX clients_search_wallet;

DO $$
DECLARE
    home TEXT;
BEGIN
    SELECT extnamespace::regnamespace::text INTO home FROM pg_extension WHERE extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX clients_search ON clients USING gin '
        '((LOWER(first_name || '' '' || last_name || E''\n'' || COALESCE(email, '''') || E''\n'' '
        '|| COALESCE(phone_number, '''') || E''\n'' || COALESCE(wallet_account_id, ''''))) %I.gin_trgm_ops)', home);
END
$$;
