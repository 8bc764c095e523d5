-- Replaying an endpoint's failed deliveries picks them by when they were created; 0071 moved the
-- endpoint's indexes to `position`, so this range needs its own, kept small by holding only the
-- failed ones.
CREATE INDEX webhook_deliveries_failed_by_time ON webhook_deliveries (endpoint_id, created_at) WHERE status = 'failed';
