-- A provider's delivery receipt names the message by the provider's id (Twilio's MessageSid);
-- callbacks for messages queued before the callback URL carried our id find it through this.
CREATE INDEX messages_by_provider_id ON messages (provider_id) WHERE provider_id IS NOT NULL;
