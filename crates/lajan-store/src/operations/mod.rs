//! What an operator watches across every organization: the work waiting in the queues, and how
//! the database connections hold up. The metrics endpoint reads it on each scrape.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::{Environment, Timestamp};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How many payouts of one environment are in one state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoutStateCount {
    pub env: Environment,
    pub approval_status: String,
    pub exec_status: String,
    pub count: i64,
}

/// The queues, as of one read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Backlog {
    pub payouts: Vec<PayoutStateCount>,
    /// Payouts that raised `payout.delayed` and are still unsent, by environment.
    pub payouts_delayed: Vec<(Environment, i64)>,
    /// Webhook deliveries not yet delivered nor given up, and when the oldest was created.
    pub deliveries_pending: i64,
    pub oldest_pending_delivery: Option<Timestamp>,
    /// Live emails and SMS waiting to go (sandbox ones are never sent), and the oldest's creation.
    pub messages_queued: i64,
    pub oldest_queued_message: Option<Timestamp>,
}

/// One connection pool now, and the waits for it since the process started.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolUse {
    /// `write` (SQLite's one writer), `read`, or `main` (PostgreSQL's).
    pub pool: &'static str,
    pub max: u32,
    pub open: u32,
    pub idle: u32,
    /// Write transactions that found no idle connection and waited for one, and how long in
    /// all; `None` for a pool whose waits are not counted (reads take theirs inside sqlx).
    pub waits: Option<(u64, Duration)>,
    /// Commits made and the units of work they carried (several per commit where the pool
    /// commits in groups: SQLite's writer); `None` where they are not counted.
    pub commits: Option<(u64, u64)>,
}

#[async_trait]
pub trait OperationsStore: Send + Sync {
    async fn backlog(&self) -> StoreResult<Backlog>;

    fn pool_use(&self) -> Vec<PoolUse>;
}

/// Counts the waits for a pool's connection, the way Go's `database/sql` reports them.
#[derive(Debug, Default)]
pub(crate) struct PoolWaits {
    waits: AtomicU64,
    waited_micros: AtomicU64,
}

impl PoolWaits {
    /// Runs `acquire`; when `busy` said no connection was idle before it, counts how long it took.
    pub(crate) async fn timed<T>(&self, busy: bool, acquire: impl Future<Output = T>) -> T {
        if !busy {
            return acquire.await;
        }
        let started = std::time::Instant::now();
        let acquired = acquire.await;
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.waits.fetch_add(1, Ordering::Relaxed);
        self.waited_micros.fetch_add(micros, Ordering::Relaxed);
        acquired
    }

    pub(crate) fn count(&self) -> Option<(u64, Duration)> {
        let waited = Duration::from_micros(self.waited_micros.load(Ordering::Relaxed));
        Some((self.waits.load(Ordering::Relaxed), waited))
    }
}
