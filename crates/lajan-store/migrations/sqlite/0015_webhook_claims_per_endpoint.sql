-- The dispatcher claims each endpoint's due deliveries up to that endpoint's free slots, so an
-- endpoint with a backlog it cannot take (one that never answers) is never walked past by the
-- claims of the others: pending deliveries by endpoint, oldest due first.
DROP INDEX webhook_deliveries_due;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending';
