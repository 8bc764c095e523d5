-- DELETE /v1/payment-links/{id} takes a link out of the API (GET answers 404, lists leave it out), as
-- DELETE /v1/clients/{id} does; its page and its payments stay.
ALTER TABLE payment_links ADD COLUMN deleted_at BIGINT;
