//! Idempotency keys and the other per-request bookkeeping that expires: rate-limit windows, and
//! the periodic upkeep the worker runs over them and over the list counts.
//!
//! A change claims its key inside its own transaction (see [`IdempotentResponse`]); the methods
//! here serve requests before and without one.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::{Tenant, Timestamp};

/// Builds the response body an idempotent request will replay, from the result of its
/// transaction, so the key is recorded in that same transaction.
pub type ResponseFor<'a, T> = &'a (dyn Fn(&T) -> Vec<u8> + Send + Sync);

/// An `Idempotency-Key` a request carries: it is claimed by the transaction that makes the
/// request's change, never before, so a request that dies leaves the key free and one that
/// commits leaves its response behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyClaim {
    pub key: String,
    /// Digest of the request (method, path, body): the same key with another request is refused.
    pub request_hash: String,
    pub at: Timestamp,
    /// How long the recorded response is replayed.
    pub ttl_ms: i64,
}

/// What to record under a claimed key with the change: the status and how to render the body.
pub struct IdempotentResponse<'a, T> {
    pub claim: &'a IdempotencyClaim,
    pub status: u16,
    pub body: ResponseFor<'a, T>,
}

/// What an `Idempotency-Key` holds for a new request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdempotencyState {
    /// Unused or expired: the request runs and records its response with its change.
    Free,
    /// A request with this key committed: replay its response.
    Replay { status: u16, body: Vec<u8> },
    /// The key was used with a different request.
    Mismatch,
}

#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// What `key` holds for a request with digest `request_hash` at `now`.
    async fn idempotency_lookup(
        &self,
        tenant: &Tenant,
        key: &str,
        request_hash: &str,
        now: Timestamp,
    ) -> StoreResult<IdempotencyState>;
    /// Records the response of a request that changed nothing (a 4xx, or an answer the request
    /// reaches again by itself), unless the key is already taken; says whether it recorded it.
    async fn idempotency_record(
        &self,
        tenant: &Tenant,
        claim: &IdempotencyClaim,
        status: u16,
        body: &[u8],
    ) -> StoreResult<bool>;

    /// Adds `hits` (at least 1) to `bucket` in the window starting at `window_start` and
    /// returns the window's count including them.
    async fn rate_limit_hit(&self, bucket: &str, window_start: i64, expires_at: i64, hits: u64) -> StoreResult<u64>;

    /// Deletes expired idempotency keys and rate-limit windows, and sign-in attempts older than
    /// `SIGN_IN_RETENTION_MS` (a batch at a time). Returns how many rows went.
    async fn purge_expired(&self, now: Timestamp) -> StoreResult<u64>;

    /// Folds the per-tenant count deltas concurrent writers appended (PostgreSQL) so totals stay
    /// a lookup of a few rows. Returns how many delta rows it folded; always 0 on SQLite.
    async fn compact_counts(&self) -> StoreResult<u64>;
}
