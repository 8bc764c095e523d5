//! Where rate-limit counts live: memory for a single SQLite process, the PostgreSQL database or
//! Redis (`LAJAN_REDIS_URL`) when several processes serve one organization. The database counter
//! takes blocks of hits at a time (see [`StoreCounter`]), so a busy organization costs the
//! database one write per block rather than one per request.

use async_trait::async_trait;
use lajan_domain::org::Tier;
use lajan_store::Store;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Rate limits count in fixed windows of this many seconds.
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
/// including it); `window_secs` is the window's length (how long its count is kept), `limit`
/// the bucket's limit, for counters that take hits in blocks.
#[async_trait]
pub trait HitCounter: Send + Sync {
    async fn hit(&self, bucket: &str, window_start: i64, window_secs: i64, limit: u64) -> anyhow::Result<u64>;
    fn name(&self) -> &'static str;
}

/// In-process counts, for a single SQLite process.
#[derive(Default)]
pub struct MemoryCounter {
    windows: Mutex<HashMap<String, (i64, u64)>>,
}

#[async_trait]
impl HitCounter for MemoryCounter {
    async fn hit(&self, bucket: &str, window_start: i64, _window_secs: i64, _limit: u64) -> anyhow::Result<u64> {
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
    async fn hit(&self, bucket: &str, window_start: i64, window_secs: i64, limit: u64) -> anyhow::Result<u64> {
        let block = self.block_of(bucket, window_start)?;
        let mut block = block.lock().await;
        if block.window_start == window_start && block.next <= block.last {
            let n = block.next;
            block.next += 1;
            return Ok(n);
        }
        let size = Self::block_size(limit);
        // Windows are kept one extra minute so a late purge never resets a live window.
        let expires_at = (window_start + 2 * window_secs) * 1000;
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
    async fn hit(&self, bucket: &str, window_start: i64, window_secs: i64, _limit: u64) -> anyhow::Result<u64> {
        let key = format!("lajan:ratelimit:{bucket}:{window_start}");
        let mut conn = self.0.clone();
        let (count,): (u64,) = redis::pipe()
            .atomic()
            .incr(&key, 1u64)
            .expire(&key, 2 * window_secs)
            .ignore()
            .query_async(&mut conn)
            .await?;
        Ok(count)
    }

    fn name(&self) -> &'static str {
        "redis"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_one_percent_of_the_limit_within_bounds() {
        assert_eq!(StoreCounter::block_size(60), 1);
        assert_eq!(StoreCounter::block_size(300), 3);
        assert_eq!(StoreCounter::block_size(1_000_000_000), 1000);
    }

    #[tokio::test]
    async fn memory_counter_resets_per_window() {
        let c = MemoryCounter::default();
        assert_eq!(c.hit("a", 60, WINDOW_SECS, 10).await.unwrap(), 1);
        assert_eq!(c.hit("a", 60, WINDOW_SECS, 10).await.unwrap(), 2);
        assert_eq!(c.hit("b", 60, WINDOW_SECS, 10).await.unwrap(), 1);
        assert_eq!(c.hit("a", 120, WINDOW_SECS, 10).await.unwrap(), 1);
    }
}
