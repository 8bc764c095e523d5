// Wallet authentication: the sandbox signing key and spent SEP-10 challenges.

#[async_trait]
impl crate::wallet_auth::WalletAuthStore for ThisStore {
    async fn sandbox_signing_seed(&self, candidate: &str, at: Timestamp) -> StoreResult<String> {
        let mut tx = self.begin_write().await?;
        query("INSERT INTO signing_keys (network, secret_seed, created_at) VALUES ('sandbox', $1, $2) ON CONFLICT (network) DO NOTHING")
            .bind(candidate)
            .bind(at.as_millis())
            .execute(&mut *tx)
            .await?;
        let seed: String = query_scalar("SELECT secret_seed FROM signing_keys WHERE network = 'sandbox'")
            .fetch_one(&mut *tx)
            .await?;
        self.commit(tx).await?;
        Ok(seed)
    }

    async fn spend_challenge(&self, hash: &str, expires_at: Timestamp, now: Timestamp) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        query("DELETE FROM spent_challenges WHERE expires_at < $1").bind(now.as_millis()).execute(&mut *tx).await?;
        let spent = query("INSERT INTO spent_challenges (hash, expires_at) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING")
            .bind(hash)
            .bind(expires_at.as_millis())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        self.commit(tx).await?;
        Ok(spent == 1)
    }
}
