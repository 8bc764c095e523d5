//! Rate limiting per organization and environment, in fixed one-minute windows.
//!
//! Where the counts live decides who shares them: memory for a single SQLite process, the
//! PostgreSQL database or Redis (`LAJAN_REDIS_URL`) when several processes serve one organization.
//! The database counter takes blocks of hits at a time (see [`StoreCounter`]), so a busy
//! organization costs the database one write per block rather than one per request.
//! Every authenticated response carries `X-RateLimit-Limit`, `-Remaining` and `-Reset` (Unix
//! seconds when the window ends); a request over the limit gets 429 with `Retry-After`.

use crate::auth::AuthContext;
use crate::error::{ApiError, error_chain};
use crate::state::AppState;
use async_trait::async_trait;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lajan_domain::Timestamp;
use lajan_domain::org::Tier;
use lajan_store::Store;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub const WINDOW_SECS: i64 = 60;

/// Requests per minute for each tier.
#[derive(Debug, Clone, Copy)]
pub struct TierLimits {
    pub standard: u64,
    pub enterprise: u64,
}

impl TierLimits {
    pub fn for_tier(self, tier: Tier) -> u64 {
        match tier {
            Tier::Standard => self.standard,
            Tier::Enterprise => self.enterprise,
        }
    }
}

impl Default for TierLimits {
    fn default() -> Self {
        TierLimits { standard: 60, enterprise: 300 }
    }
}

/// Counts hits per bucket and window. Returns this hit's number in the window (the count
/// including it); `limit` is the bucket's limit, for counters that take hits in blocks.
#[async_trait]
pub trait HitCounter: Send + Sync {
    async fn hit(&self, bucket: &str, window_start: i64, limit: u64) -> anyhow::Result<u64>;
    fn name(&self) -> &'static str;
}

/// In-process counts, for a single SQLite process.
#[derive(Default)]
pub struct MemoryCounter {
    windows: Mutex<HashMap<String, (i64, u64)>>,
}

#[async_trait]
impl HitCounter for MemoryCounter {
    async fn hit(&self, bucket: &str, window_start: i64, _limit: u64) -> anyhow::Result<u64> {
        let mut windows = self.windows.lock().map_err(|_| anyhow::anyhow!("rate limiter lock poisoned"))?;
        let entry = windows.entry(bucket.to_owned()).or_insert((window_start, 0));
        if entry.0 != window_start {
            *entry = (window_start, 0);
        }
        entry.1 += 1;
        Ok(entry.1)
    }

    fn name(&self) -> &'static str {
        "memory"
    }
}

/// Counts in the database, shared by every process on it, taken in blocks.
///
/// A process reserves a block of consecutive hit numbers in one write (1% of the limit, between
/// 1 and 1,000) and hands them out from memory. Every hit still gets a number no other process
/// gives out, so an organization never gets more than its limit across all processes; the price
/// is that numbers a process reserved and did not use before the window ended are not used by
/// anyone (at most one block per process per window). One claim per bucket is in flight at a
/// time, so a burst waits for one block instead of reserving many.
pub struct StoreCounter {
    store: Arc<dyn Store>,
    blocks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Block>>>>,
}

/// Hit numbers `next..=last` of the window starting at `window_start`, reserved by this process.
#[derive(Default)]
struct Block {
    window_start: i64,
    next: u64,
    last: u64,
}

/// Past this many buckets, blocks of past windows are dropped before another is added.
const BLOCKS_SWEEP_AT: usize = 10_000;

impl StoreCounter {
    pub fn new(store: Arc<dyn Store>) -> Self {
        StoreCounter { store, blocks: Mutex::new(HashMap::new()) }
    }

    /// How many hit numbers one write reserves for a bucket with this limit.
    pub fn block_size(limit: u64) -> u64 {
        (limit / 100).clamp(1, 1000)
    }

    fn block_of(&self, bucket: &str, window_start: i64) -> anyhow::Result<Arc<tokio::sync::Mutex<Block>>> {
        let mut blocks = self.blocks.lock().map_err(|_| anyhow::anyhow!("rate limiter lock poisoned"))?;
        if let Some(block) = blocks.get(bucket) {
            return Ok(block.clone());
        }
        if blocks.len() >= BLOCKS_SWEEP_AT {
            blocks.retain(|_, b| b.try_lock().map_or(true, |b| b.window_start >= window_start));
        }
        let block = Arc::new(tokio::sync::Mutex::new(Block::default()));
        blocks.insert(bucket.to_owned(), block.clone());
        Ok(block)
    }
}

#[async_trait]
impl HitCounter for StoreCounter {
    async fn hit(&self, bucket: &str, window_start: i64, limit: u64) -> anyhow::Result<u64> {
        let block = self.block_of(bucket, window_start)?;
        let mut block = block.lock().await;
        if block.window_start == window_start && block.next <= block.last {
            let n = block.next;
            block.next += 1;
            return Ok(n);
        }
        let size = Self::block_size(limit);
        // Windows are kept one extra minute so a late purge never resets a live window.
        let expires_at = (window_start + 2 * WINDOW_SECS) * 1000;
        let last = self.store.rate_limit_hit(bucket, window_start, expires_at, size).await?;
        let first = last.saturating_sub(size) + 1;
        *block = Block { window_start, next: first + 1, last };
        Ok(first)
    }

    fn name(&self) -> &'static str {
        "database"
    }
}

/// Counts in Redis: `INCR` and `EXPIRE` in one transaction per hit.
pub struct RedisCounter(pub redis::aio::ConnectionManager);

impl RedisCounter {
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        let client = redis::Client::open(url)?;
        Ok(RedisCounter(redis::aio::ConnectionManager::new(client).await?))
    }
}

#[async_trait]
impl HitCounter for RedisCounter {
    async fn hit(&self, bucket: &str, window_start: i64, _limit: u64) -> anyhow::Result<u64> {
        let key = format!("lajan:ratelimit:{bucket}:{window_start}");
        let mut conn = self.0.clone();
        let (count,): (u64,) = redis::pipe()
            .atomic()
            .incr(&key, 1u64)
            .expire(&key, 2 * WINDOW_SECS)
            .ignore()
            .query_async(&mut conn)
            .await?;
        Ok(count)
    }

    fn name(&self) -> &'static str {
        "redis"
    }
}

/// The outcome of one request against its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub limit: u64,
    pub remaining: u64,
    pub reset: i64,
    pub allowed: bool,
}

impl Budget {
    pub fn compute(limit: u64, count: u64, window_start: i64) -> Self {
        Budget {
            limit,
            remaining: limit.saturating_sub(count),
            reset: window_start + WINDOW_SECS,
            allowed: count <= limit,
        }
    }

    fn write_headers(&self, headers: &mut HeaderMap) {
        headers.insert("x-ratelimit-limit", HeaderValue::from(self.limit));
        headers.insert("x-ratelimit-remaining", HeaderValue::from(self.remaining));
        headers.insert("x-ratelimit-reset", HeaderValue::from(self.reset));
    }
}

pub async fn limit(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(ctx) = req.extensions().get::<AuthContext>() else {
        return next.run(req).await;
    };
    let now_secs = Timestamp::now().as_unix_seconds();
    let window_start = now_secs - now_secs.rem_euclid(WINDOW_SECS);
    let bucket = format!("{}:{}", ctx.tenant.org_id, ctx.tenant.env);
    let limit = state.config.rate_limits.for_tier(ctx.tier);
    let count = match state.limiter.hit(&bucket, window_start, limit).await {
        Ok(count) => count,
        Err(e) => {
            // Failing open: an outage of the counter store must not take the API down with it.
            tracing::error!(counter = state.limiter.name(), error = %error_chain(e.as_ref()), "rate limiter unavailable; request allowed");
            return next.run(req).await;
        }
    };
    let budget = Budget::compute(limit, count, window_start);
    let mut response = if budget.allowed {
        next.run(req).await
    } else {
        let retry_after = u64::try_from((budget.reset - now_secs).max(1)).unwrap_or(1);
        let mut err = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("Rate limit of {limit} requests per minute exceeded; retry after {retry_after} s"),
        );
        err.retry_after = Some(retry_after);
        err.into_response()
    };
    budget.write_headers(response.headers_mut());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        assert_eq!(Budget::compute(60, 1, 120), Budget { limit: 60, remaining: 59, reset: 180, allowed: true });
        assert_eq!(Budget::compute(60, 60, 120).remaining, 0);
        assert!(Budget::compute(60, 60, 120).allowed);
        assert!(!Budget::compute(60, 61, 120).allowed);
    }

    #[test]
    fn blocks_are_one_percent_of_the_limit_within_bounds() {
        assert_eq!(StoreCounter::block_size(60), 1);
        assert_eq!(StoreCounter::block_size(300), 3);
        assert_eq!(StoreCounter::block_size(1_000_000_000), 1000);
    }

    #[tokio::test]
    async fn memory_counter_resets_per_window() {
        let c = MemoryCounter::default();
        assert_eq!(c.hit("a", 60, 10).await.unwrap(), 1);
        assert_eq!(c.hit("a", 60, 10).await.unwrap(), 2);
        assert_eq!(c.hit("b", 60, 10).await.unwrap(), 1);
        assert_eq!(c.hit("a", 120, 10).await.unwrap(), 1);
    }
}
