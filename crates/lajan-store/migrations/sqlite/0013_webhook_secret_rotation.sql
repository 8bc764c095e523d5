-- After a rotation, the secret it replaced keeps signing (beside the new one) until
-- previous_secret_until, so receivers can switch without missing a delivery.
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until INTEGER;
