-- Invoice and payout search through trigram indexes (#52), as 0062 does for clients: GIN
-- indexes of each invoice's number and each payout's wallet, lowercased as the lists search
-- them. A search by client name goes through 0062's client index, then the new index on a
-- client's payouts. The indexes only narrow: the lists keep their LIKEs (invoices/sql.rs,
-- payouts/list_sql.rs), so results are those of the scans they replace.
DO $$
DECLARE
    home TEXT;
BEGIN
    SELECT extnamespace::regnamespace::text INTO home FROM pg_extension WHERE extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX invoices_search_number ON invoices USING gin ((LOWER(number)) %I.gin_trgm_ops)', home);
    EXECUTE format('CREATE INDEX payouts_search_wallet ON payouts USING gin '
        '((LOWER(wallet_account_id)) %I.gin_trgm_ops)', home);
END
$$;

CREATE INDEX payouts_by_client ON payouts (org_id, env, client_id);
