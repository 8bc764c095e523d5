-- How an organization reaches clients it pays before they have a wallet: the language of a new
-- client, when an unanswered invitation is sent again and how often, how long a payout waits
-- for its client to register, WhatsApp instead of SMS, and the wallets the registration page
-- suggests (a JSON list of {name, url, assets}).
ALTER TABLE settings ADD COLUMN default_client_language TEXT NOT NULL DEFAULT 'ht'
    CHECK (default_client_language IN ('ht', 'fr', 'en'));
ALTER TABLE settings ADD COLUMN invitation_resend_days BIGINT NOT NULL DEFAULT 3;
ALTER TABLE settings ADD COLUMN invitation_resends BIGINT NOT NULL DEFAULT 2;
ALTER TABLE settings ADD COLUMN registration_window_days BIGINT NOT NULL DEFAULT 14;
ALTER TABLE settings ADD COLUMN whatsapp_invitations BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE settings ADD COLUMN recommended_wallets TEXT NOT NULL DEFAULT '[]';
