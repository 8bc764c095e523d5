-- Since when every answer of the endpoint has been a failure (NULL after a success): an endpoint
-- failing for five days without a single success is disabled.
ALTER TABLE webhook_endpoints ADD COLUMN failing_since BIGINT;
