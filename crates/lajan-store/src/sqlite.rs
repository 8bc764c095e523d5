//! The SQLite store, Lajan's embedded default: one file in WAL mode with foreign keys on.
//!
//! All writes go through a pool of exactly one connection, so writers queue in-process instead of
//! fighting over the database lock, and each write transaction starts `IMMEDIATE` so it never has
//! to upgrade a read lock. Reads use a separate pool of read-only connections that WAL lets run
//! beside the writer.

use crate::operations::{PoolUse, PoolWaits};
use crate::{Backend, FailPoint, StoreError, StoreResult};
use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use std::str::FromStr;
use std::time::Duration;

type Db = sqlx::Sqlite;
type ThisStore = SqliteStore;

static MIGRATOR: Migrator = sqlx::migrate!("./migrations/sqlite");

/// SQLite has no row locks; the single writer already serializes every write transaction.
/// Claims skip rows another worker holds (PostgreSQL); SQLite's single writer never contends.
macro_rules! skip_locked {
    () => {
        ""
    };
}

/// Reads a row that a rule in the same transaction depends on, so a concurrent change to it
/// waits for the transaction (PostgreSQL); SQLite's single writer already serializes them.
macro_rules! for_share {
    () => {
        ""
    };
}

macro_rules! for_update {
    () => {
        ""
    };
}

/// How long a connection waits for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
const READERS: u32 = 8;

#[derive(Debug)]
pub struct SqliteStore {
    read: SqlitePool,
    write: SqlitePool,
    /// Write transactions that queued for the one writer.
    waits: PoolWaits,
    fail: FailPoint,
}

impl SqliteStore {
    const BACKEND: Backend = Backend::Sqlite;

    /// Opens (creating if missing) the database file a `sqlite:` URL names.
    pub async fn connect(url: &str) -> StoreResult<Self> {
        if url.contains(":memory:") || url.contains("mode=memory") {
            return Err(StoreError::Config(
                "in-memory SQLite is not supported (readers and the writer need one shared file)".into(),
            ));
        }
        let base = SqliteConnectOptions::from_str(url)
            .map_err(|e| StoreError::Config(format!("bad SQLite URL: {e}")))?
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        // Connections to a local file do not go stale, so the pool hands them out without the
        // ping it would otherwise send first: one round trip to SQLite's worker thread less per query.
        let write = SqlitePoolOptions::new()
            .test_before_acquire(false)
            .max_connections(1)
            .min_connections(1)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(base.clone().create_if_missing(true))
            .await?;
        let read = SqlitePoolOptions::new()
            .test_before_acquire(false)
            .max_connections(READERS)
            .min_connections(1)
            .connect_with(base.read_only(true))
            .await?;
        Ok(SqliteStore { read, write, waits: PoolWaits::default(), fail: FailPoint::default() })
    }

    fn reader(&self) -> &SqlitePool {
        &self.read
    }

    fn writer(&self) -> &SqlitePool {
        &self.write
    }

    /// Rate-limit hits go through the single writer like every other write.
    fn counters(&self) -> &SqlitePool {
        &self.write
    }

    /// Opens the write transaction in a task of its own. A caller that gives up while `BEGIN`
    /// runs (a client hanging up) would otherwise leave the one writer connection inside a
    /// transaction nobody owns, refusing every later write; the task always hands the
    /// transaction over, and when nobody takes it, dropping it rolls it back.
    async fn begin_write(&self) -> StoreResult<sqlx::Transaction<'static, Db>> {
        let pool = self.write.clone();
        let busy = pool.num_idle() == 0;
        let begun = tokio::spawn(async move { pool.begin_with("BEGIN IMMEDIATE").await });
        match self.waits.timed(busy, begun).await {
            Ok(tx) => Ok(tx?),
            Err(_) => Err(StoreError::Database(sqlx::Error::WorkerCrashed)),
        }
    }

    fn pools_in_use(&self) -> Vec<PoolUse> {
        let idle = |pool: &SqlitePool| u32::try_from(pool.num_idle()).unwrap_or(u32::MAX);
        vec![
            PoolUse {
                pool: "write",
                max: 1,
                open: self.write.size(),
                idle: idle(&self.write),
                waits: self.waits.count(),
            },
            PoolUse { pool: "read", max: READERS, open: self.read.size(), idle: idle(&self.read), waits: None },
        ]
    }

    /// `BEGIN IMMEDIATE` already holds the database write lock.
    async fn lock_bootstrap(_tx: &mut sqlx::Transaction<'static, Db>) -> StoreResult<()> {
        Ok(())
    }

    async fn close_pools(&self) {
        self.read.close().await;
        self.write.close().await;
    }

    /// The single writer updates each count row in place (migration 0006): nothing to fold.
    async fn compact_count_deltas(&self) -> StoreResult<u64> {
        Ok(0)
    }
}

// The SQL of every area, the same for both backends. Macros are in scope only after the file
// that defines them, so `shared.rs` comes first and `incoming_payments_sql.rs` (its
// `intent_columns!` and `payment_columns!`) before the areas that use them.
include!("shared.rs");
include!("idempotency_sql.rs");
include!("orgs_sql.rs");
include!("clients_sql.rs");
include!("events_sql.rs");
include!("incoming_payments_sql.rs");
include!("invoices_sql.rs");
include!("payment_links_sql.rs");
include!("messages_sql.rs");
include!("payouts_sql.rs");
include!("payout_batches_sql.rs");
include!("sandbox_sql.rs");
include!("disbursement_items_sql.rs");
include!("disbursements_sql.rs");
include!("delivery_answers_sql.rs");
include!("deliveries_sql.rs");
include!("webhooks_sql.rs");
include!("access_sql.rs");
include!("users_sql.rs");
include!("sessions_sql.rs");
include!("dashboard_sql.rs");
include!("operations_sql.rs");
