//! The SQLite store, Lajan's embedded default: one file in WAL mode with foreign keys on, run by
//! the engine in `sqlite/`: each unit of work runs all its statements on the connection it
//! holds, without a thread handoff per statement; reads on a pool of read-only connections,
//! writes on the one writer, which commits the units queued behind each other with one fsync
//! (see `sqlite/engine.rs`). sqlx's SQLite driver only applies the migrations.

mod engine;
#[cfg(test)]
mod engine_tests;
mod statements;

pub use engine::GroupCommit;

use crate::operations::{PoolUse, PoolWaits};
use crate::{Backend, FailPoint, ListBounds, StoreError, StoreResult};
use engine::{ReadPool, WriteEngine};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use statements::{Exec, LiteConn, QueryBuilder, query, query_scalar};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

type ThisStore = SqliteStore;
type Conn = LiteConn;
type DbRow = statements::LiteRow;
type Tx = engine::WriteTx;

/// This backend's migrations, embedded at build time.
async fn migrator() -> Result<sqlx::migrate::Migrator, sqlx::migrate::MigrateError> {
    crate::migrations::sqlite().await
}

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

/// Idle read connections kept open.
const READERS: usize = 8;

#[derive(Debug)]
pub struct SqliteStore {
    path: PathBuf,
    read: ReadPool,
    write: Arc<WriteEngine>,
    /// Write units that queued for the one writer.
    waits: PoolWaits,
    fail: FailPoint,
    bounds: ListBounds,
}

impl SqliteStore {
    const BACKEND: Backend = Backend::Sqlite;

    /// Opens (creating if missing) the database file a `sqlite:` URL names, with the default
    /// group-commit bounds.
    pub async fn connect(url: &str) -> StoreResult<Self> {
        Self::connect_with(url, GroupCommit::default()).await
    }

    pub async fn connect_with(url: &str, group_commit: GroupCommit) -> StoreResult<Self> {
        if url.contains(":memory:") || url.contains("mode=memory") {
            return Err(StoreError::Config(
                "in-memory SQLite is not supported (readers and the writer need one shared file)".into(),
            ));
        }
        let options =
            SqliteConnectOptions::from_str(url).map_err(|e| StoreError::Config(format!("bad SQLite URL: {e}")))?;
        let path = options.get_filename().to_path_buf();
        let write = WriteEngine::open(&path, group_commit)?;
        let read = ReadPool::new(path.clone(), READERS)?;
        Ok(SqliteStore {
            path,
            read,
            write,
            waits: PoolWaits::default(),
            fail: FailPoint::default(),
            bounds: ListBounds::default(),
        })
    }

    fn reader(&self) -> &ReadPool {
        &self.read
    }

    /// Applies the migrations through sqlx's SQLite driver, on a connection of its own: the
    /// engine's writer holds no transaction between units, so the two never overlap. Foreign
    /// keys are off while they run, as SQLite's procedure for rebuilding a table requires (a
    /// drop would otherwise delete, or refuse to leave, the rows that point at it; the pragma
    /// cannot change inside the transaction each migration runs in), and every reference is
    /// checked once they are done: a migration that broke one fails startup.
    async fn run_migrations(&self) -> StoreResult<()> {
        let options = SqliteConnectOptions::new()
            .filename(&self.path)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(false)
            .busy_timeout(std::time::Duration::from_secs(10));
        let migrator = migrator().await?;
        let pool = SqlitePoolOptions::new().max_connections(1).connect_with(options).await?;
        let applied = migrator.run(&pool).await;
        let broken = match applied {
            Ok(()) => sqlx::query("PRAGMA foreign_key_check").fetch_all(&pool).await.map(|rows| rows.len()),
            Err(_) => Ok(0),
        };
        pool.close().await;
        applied?;
        match broken? {
            0 => Ok(()),
            n => Err(StoreError::Config(format!("the migrations left {n} rows pointing at rows that do not exist"))),
        }
    }

    /// Takes the writer for one unit of work (see `sqlite/engine.rs`).
    async fn begin_write(&self) -> StoreResult<Tx> {
        self.waits.timed(self.write.busy(), self.write.begin()).await
    }

    /// Rate-limit hits go through the single writer like every other write.
    async fn begin_counters(&self) -> StoreResult<Tx> {
        self.begin_write().await
    }

    /// A unit of one statement.
    async fn begin_single(&self) -> StoreResult<Tx> {
        self.begin_write().await
    }

    async fn end_single(&self, tx: Tx) -> StoreResult<()> {
        tx.commit().await
    }

    fn pools_in_use(&self) -> Vec<PoolUse> {
        let (open, idle) = self.read.counts();
        vec![
            PoolUse {
                pool: "write",
                max: 1,
                open: 1,
                idle: u32::from(!self.write.busy()),
                waits: self.waits.count(),
                commits: Some(self.write.counts()),
            },
            PoolUse {
                pool: "read",
                max: u32::try_from(READERS).unwrap_or(u32::MAX),
                open,
                idle,
                waits: None,
                commits: None,
            },
        ]
    }

    /// `BEGIN IMMEDIATE` already holds the database write lock.
    async fn lock_bootstrap(_tx: &mut Tx) -> StoreResult<()> {
        Ok(())
    }

    /// `BEGIN IMMEDIATE` already serializes every writer.
    async fn lock_name(_tx: &mut Tx, _name: &str) -> StoreResult<()> {
        Ok(())
    }

    async fn close_pools(&self) {
        self.write.close().await;
        self.read.close();
    }

    /// The single writer updates each count row in place (migration 0006): nothing to fold.
    async fn compact_count_deltas(&self) -> StoreResult<u64> {
        Ok(0)
    }
}

// Every area's SQL, the same for both backends, from the one list in `lib.rs`.
areas_sql!();
