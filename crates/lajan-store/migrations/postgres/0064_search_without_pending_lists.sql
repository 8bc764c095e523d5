-- Trigram indexes without a pending list (#52). A GIN index by default queues new entries in a
-- pending list that every search reads linearly until VACUUM (or 4 MB of them) merges it: the
-- scale run measured a rare client search at 66 ms with 10,000 clients, all still queued. Search
-- is what a clerk waits on, so writes merge their entries at once (a little more work per
-- insert), and what is queued now is merged here.
ALTER INDEX clients_search SET (fastupdate = off);
ALTER INDEX invoices_search_number SET (fastupdate = off);
ALTER INDEX payouts_search_wallet SET (fastupdate = off);
SELECT gin_clean_pending_list('clients_search'::regclass);
SELECT gin_clean_pending_list('invoices_search_number'::regclass);
SELECT gin_clean_pending_list('payouts_search_wallet'::regclass);
