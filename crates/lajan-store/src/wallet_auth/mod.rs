//! Lajan as a Stellar service wallets authenticate with (SEP-10): the sandbox's signing key and
//! the challenges already exchanged for a token.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::Timestamp;

#[async_trait]
pub trait WalletAuthStore: Send + Sync {
    /// The sandbox's signing key (a secret seed): the one stored, or `candidate`, stored now if
    /// none was. Every process of a deployment answers with the same key, whichever made it.
    async fn sandbox_signing_seed(&self, candidate: &str, at: Timestamp) -> StoreResult<String>;

    /// Marks the challenge with this transaction hash exchanged, until `expires_at`: `true` the
    /// first time, `false` when it was exchanged before (a replay). Challenges expired by `now`
    /// are forgotten in the same transaction, so the table holds at most one challenge
    /// lifetime's worth of exchanges.
    async fn spend_challenge(&self, hash: &str, expires_at: Timestamp, now: Timestamp) -> StoreResult<bool>;
}
