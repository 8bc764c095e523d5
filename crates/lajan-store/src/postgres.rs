//! The PostgreSQL store, selected by a `postgres://` URL, for several Lajan processes sharing
//! one database. Row locks (`FOR UPDATE`) and advisory locks keep concurrent writers correct.

use crate::operations::{PoolUse, PoolWaits};
use crate::{Backend, FailPoint, ListBounds, StoreError, StoreResult};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{Row, query, query_scalar};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

type Db = sqlx::Postgres;
type ThisStore = PgStore;
type Conn = sqlx::PgConnection;
type DbRow = sqlx::postgres::PgRow;
type Tx = sqlx::Transaction<'static, Db>;
type QueryBuilder<'a> = sqlx::QueryBuilder<'a, Db>;
/// A connection for one statement committed on its own.
type Single = sqlx::pool::PoolConnection<Db>;

/// Where a statement runs: a pool, a connection or a transaction's connection.
trait Exec<'e>: sqlx::Executor<'e, Database = Db> {}
impl<'e, T: sqlx::Executor<'e, Database = Db>> Exec<'e> for T {}

/// Claims skip rows another worker holds (PostgreSQL); SQLite's single writer never contends.
macro_rules! skip_locked {
    () => {
        " FOR UPDATE SKIP LOCKED"
    };
}

/// Reads a row that a rule in the same transaction depends on, so a concurrent change to it
/// waits for the transaction (PostgreSQL); SQLite's single writer already serializes them.
macro_rules! for_share {
    () => {
        " FOR SHARE"
    };
}

macro_rules! for_update {
    () => {
        " FOR UPDATE"
    };
}

/// This backend's migrations, embedded at build time.
async fn migrator() -> Result<sqlx::migrate::Migrator, sqlx::migrate::MigrateError> {
    crate::migrations::postgres().await
}

/// Advisory lock key serializing first-run bootstrap across processes.
const BOOTSTRAP_LOCK: i64 = 0x6c61_6a61_6e00_0001;
const MAX_CONNECTIONS: u32 = 16;
const COUNTER_CONNECTIONS: u32 = 4;
/// Rows folded out of the count tables before they are vacuumed.
const VACUUM_COUNTS_AFTER: u64 = 10_000;

#[derive(Debug)]
pub struct PgStore {
    pub(crate) pool: PgPool,
    /// Rate-limit hits: `synchronous_commit=off`, so counting a request never waits for a WAL
    /// flush (a crash may forget the last few hits of a window, never a change to a resource).
    counters: PgPool,
    /// Count rows folded since the count tables were last vacuumed.
    folded_since_vacuum: AtomicU64,
    /// Write transactions that found every connection taken.
    waits: PoolWaits,
    fail: FailPoint,
    bounds: ListBounds,
}

/// How long a connection may sit idle inside a transaction before PostgreSQL ends it.
const IDLE_IN_TRANSACTION_TIMEOUT: &str = "10s";

impl PgStore {
    const BACKEND: Backend = Backend::Postgres;

    pub async fn connect(url: &str) -> StoreResult<Self> {
        let options =
            PgConnectOptions::from_str(url).map_err(|e| StoreError::Config(format!("bad PostgreSQL URL: {e}")))?;
        Self::connect_with(options).await
    }

    async fn connect_with(options: PgConnectOptions) -> StoreResult<Self> {
        // A task cancelled inside a transaction (a client that hung up, a worker step dropped)
        // can leave its connection idle in that transaction, holding row locks that claims skip
        // and writes wait on. No unit of work here waits on anything outside the database while
        // a transaction is open, so one idle that long has lost its owner: the server ends it.
        let options = options.options([("idle_in_transaction_session_timeout", IDLE_IN_TRANSACTION_TIMEOUT)]);
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await?;
        let counters = PgPoolOptions::new()
            .max_connections(COUNTER_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect_lazy_with(options.options([("synchronous_commit", "off")]));
        Ok(PgStore {
            pool,
            counters,
            folded_since_vacuum: AtomicU64::new(0),
            waits: PoolWaits::default(),
            fail: FailPoint::default(),
            bounds: ListBounds::default(),
        })
    }

    /// A connection of the counters' pool, for one rate-limit statement.
    async fn begin_counters(&self) -> StoreResult<Single> {
        Ok(self.counters.acquire().await?)
    }

    /// A connection for one statement that commits on its own.
    async fn begin_single(&self) -> StoreResult<Single> {
        Ok(self.pool.acquire().await?)
    }

    /// Each statement on a `Single` committed as it ran.
    async fn end_single(&self, _conn: Single) -> StoreResult<()> {
        Ok(())
    }

    async fn run_migrations(&self) -> StoreResult<()> {
        migrator().await?.run(&self.pool).await?;
        Ok(())
    }

    fn reader(&self) -> &PgPool {
        &self.pool
    }

    async fn begin_write(&self) -> StoreResult<Tx> {
        let busy = self.pool.num_idle() == 0 && self.pool.size() >= MAX_CONNECTIONS;
        Ok(self.waits.timed(busy, self.pool.begin()).await?)
    }

    fn pools_in_use(&self) -> Vec<PoolUse> {
        let idle = u32::try_from(self.pool.num_idle()).unwrap_or(u32::MAX);
        vec![PoolUse {
            pool: "main",
            max: MAX_CONNECTIONS,
            open: self.pool.size(),
            idle,
            waits: self.waits.count(),
            commits: None,
        }]
    }

    async fn lock_bootstrap(tx: &mut Tx) -> StoreResult<()> {
        sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(BOOTSTRAP_LOCK).execute(&mut **tx).await?;
        Ok(())
    }

    /// Serializes the transactions that name `name` until they end: for rules that count rows
    /// no row lock covers (sign-ins from one address, deposits of one account). A 64-bit hash of
    /// the name; two names sharing one only wait for each other.
    async fn lock_name(tx: &mut Tx, name: &str) -> StoreResult<()> {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))").bind(name).execute(&mut **tx).await?;
        Ok(())
    }

    async fn close_pools(&self) {
        self.pool.close().await;
        self.counters.close().await;
    }

    /// Folds the delta rows the count triggers append (see migration 0006) into one row per key.
    /// One statement per table: rows appended meanwhile are outside its snapshot and stay.
    /// Returns how many delta rows went.
    async fn compact_count_deltas(&self) -> StoreResult<u64> {
        let mut folded = 0;
        for sql in [
            "WITH gone AS (
                 DELETE FROM invoice_counts WHERE (org_id, env, status) IN (
                     SELECT org_id, env, status FROM invoice_counts GROUP BY 1, 2, 3 HAVING COUNT(*) > 1)
                 RETURNING org_id, env, status, n),
             folded AS (
                 INSERT INTO invoice_counts (org_id, env, status, n)
                 SELECT org_id, env, status, SUM(n) FROM gone GROUP BY 1, 2, 3)
             SELECT COUNT(*) FROM gone",
            "WITH gone AS (
                 DELETE FROM payout_counts WHERE (org_id, env, type, approval_status, exec_status) IN (
                     SELECT org_id, env, type, approval_status, exec_status FROM payout_counts
                     GROUP BY 1, 2, 3, 4, 5 HAVING COUNT(*) > 1)
                 RETURNING org_id, env, type, approval_status, exec_status, n),
             folded AS (
                 INSERT INTO payout_counts (org_id, env, type, approval_status, exec_status, n)
                 SELECT org_id, env, type, approval_status, exec_status, SUM(n) FROM gone GROUP BY 1, 2, 3, 4, 5)
             SELECT COUNT(*) FROM gone",
            "WITH gone AS (
                 DELETE FROM disbursement_counts WHERE (disbursement_id, approval_status, exec_status) IN (
                     SELECT disbursement_id, approval_status, exec_status FROM disbursement_counts
                     GROUP BY 1, 2, 3 HAVING COUNT(*) > 1)
                 RETURNING disbursement_id, approval_status, exec_status, n, amount),
             folded AS (
                 INSERT INTO disbursement_counts (disbursement_id, approval_status, exec_status, n, amount)
                 SELECT disbursement_id, approval_status, exec_status, SUM(n), SUM(amount) FROM gone GROUP BY 1, 2, 3)
             SELECT COUNT(*) FROM gone",
            "WITH gone AS (
                 DELETE FROM list_counts WHERE (org_id, env, list, scope, bucket) IN (
                     SELECT org_id, env, list, scope, bucket FROM list_counts GROUP BY 1, 2, 3, 4, 5 HAVING COUNT(*) > 1)
                 RETURNING org_id, env, list, scope, bucket, n),
             folded AS (
                 INSERT INTO list_counts (org_id, env, list, scope, bucket, n)
                 SELECT org_id, env, list, scope, bucket, SUM(n) FROM gone GROUP BY 1, 2, 3, 4, 5)
             SELECT COUNT(*) FROM gone",
        ] {
            let gone: i64 = sqlx::query_scalar(sql).fetch_one(&self.pool).await?;
            folded += u64::try_from(gone).unwrap_or(0);
        }
        // Folding leaves the deltas behind as dead rows that every count would step over until
        // a vacuum; don't leave that to autovacuum (which may be off, or slow to notice).
        let pending = self.folded_since_vacuum.fetch_add(folded, Ordering::Relaxed) + folded;
        if pending >= VACUUM_COUNTS_AFTER {
            self.folded_since_vacuum.store(0, Ordering::Relaxed);
            sqlx::query("VACUUM (ANALYZE) invoice_counts, payout_counts, disbursement_counts, list_counts")
                .execute(&self.pool)
                .await?;
        }
        Ok(folded)
    }
}

// Every area's SQL, the same for both backends, from the one list in `lib.rs`.
areas_sql!();
