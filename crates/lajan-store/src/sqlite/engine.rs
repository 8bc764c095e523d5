//! The SQLite engine's connections: a pool of read-only WAL readers, and the one writer, which
//! runs each unit of work in a savepoint of a shared transaction and commits every unit queued
//! behind it with one fsync (group commit).
//!
//! A unit runs on the task that asked for it, holding its connection, with no thread handoff
//! (see `statements.rs`). The writer is a FIFO lock around the one write connection: the first
//! unit of a batch opens `BEGIN IMMEDIATE`; each unit runs inside `SAVEPOINT unit`, released when
//! it succeeds and rolled back alone when it fails (it gets its own error, the others are
//! untouched). A unit that finds nobody queued behind it commits the batch itself, so a lone
//! request waits for nothing but its own fsync; otherwise it leaves the transaction to the units
//! behind it and waits until the batch commits. The committer task queues behind them and
//! commits what they left, so a batch never waits on a caller that went away. Nobody hears
//! "done" before the `COMMIT` (with `synchronous=FULL`) returns, and a failed commit fails every
//! unit of its batch.

use super::statements::{Exec, LiteConn};
use crate::{StoreError, StoreResult};
use rusqlite::OpenFlags;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, OwnedMutexGuard, watch};

/// How long a connection waits for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Bounds on one group commit.
#[derive(Debug, Clone, Copy)]
pub struct GroupCommit {
    /// Units committed together at most (1: every unit commits alone).
    pub max_units: usize,
    /// How long the first unit of a batch waits at most for the units queued behind it.
    pub max_wait: Duration,
}

impl Default for GroupCommit {
    fn default() -> Self {
        GroupCommit { max_units: 256, max_wait: Duration::from_millis(5) }
    }
}

/// Opens one connection of the engine to the database file at `path`.
pub(crate) fn open(path: &Path, read_only: bool) -> rusqlite::Result<LiteConn> {
    let access = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE
    };
    let conn = rusqlite::Connection::open_with_flags(path, access | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")?;
    if !read_only {
        conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get::<_, String>(0))?;
        // Each unit's savepoint journals the pages it changes so it can be undone alone. Past
        // 64 KiB SQLite writes that journal to a temporary file, which made file writes the
        // largest part of a create's CPU; in memory it is a copy, dropped when the unit's
        // savepoint is released (payout creates went from ~5,400/s to ~9,400/s).
        conn.execute_batch("PRAGMA temp_store = MEMORY;")?;
        // The writer never waits for the lock on an async worker: a `BEGIN IMMEDIATE` that
        // finds another process writing waits off them (`take_lock`).
        conn.busy_timeout(Duration::ZERO)?;
    }
    Ok(LiteConn::new(conn))
}

fn sqlite(e: rusqlite::Error) -> StoreError {
    StoreError::from(e)
}

fn closed() -> StoreError {
    StoreError::Config("the SQLite store is closed".into())
}

/// The read-only connections: taken by one statement or one read transaction at a time and
/// put back; opened when none is idle.
#[derive(Debug)]
pub(super) struct ReadPool {
    path: PathBuf,
    idle: Mutex<Vec<LiteConn>>,
    keep: usize,
    open: AtomicUsize,
}

impl ReadPool {
    pub(crate) fn new(path: PathBuf, keep: usize) -> rusqlite::Result<Self> {
        let first = open(&path, true)?;
        Ok(ReadPool { path, idle: Mutex::new(vec![first]), keep, open: AtomicUsize::new(1) })
    }

    fn take(&self) -> rusqlite::Result<LiteConn> {
        if let Some(conn) = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop() {
            return Ok(conn);
        }
        let conn = open(&self.path, true)?;
        self.open.fetch_add(1, Ordering::Relaxed);
        Ok(conn)
    }

    fn give(&self, conn: LiteConn) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < self.keep {
            idle.push(conn);
        } else {
            self.open.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Connections open, and how many of them are idle.
    pub(crate) fn counts(&self) -> (u32, u32) {
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).len();
        let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        (to_u32(self.open.load(Ordering::Relaxed)), to_u32(idle))
    }

    pub(crate) fn close(&self) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        self.open.fetch_sub(idle.len(), Ordering::Relaxed);
        idle.clear();
    }

    /// A reader for several statements, each committed on its own.
    pub(super) async fn acquire(&self) -> StoreResult<Reader<'_>> {
        Ok(Reader { pool: self, conn: Some(self.take()?), in_transaction: false })
    }

    /// A read transaction: every statement in it sees the database as of its first read.
    pub(super) async fn begin(&self) -> StoreResult<Reader<'_>> {
        let tx = Reader { pool: self, conn: Some(self.take()?), in_transaction: true };
        tx.raw().execute_batch("BEGIN")?;
        Ok(tx)
    }
}

impl<'e> Exec<'e> for &'e ReadPool {
    fn run<R>(self, f: impl FnOnce(&mut LiteConn) -> rusqlite::Result<R>) -> rusqlite::Result<R> {
        let mut conn = self.take()?;
        let result = f(&mut conn);
        self.give(conn);
        result
    }
}

/// A reader held for several statements, or for a read transaction; put back when dropped
/// (the transaction ended first).
#[derive(Debug)]
pub(super) struct Reader<'p> {
    pool: &'p ReadPool,
    conn: Option<LiteConn>,
    in_transaction: bool,
}

impl std::ops::Deref for Reader<'_> {
    type Target = LiteConn;
    fn deref(&self) -> &LiteConn {
        self.conn.as_ref().expect("a reader holds its connection until dropped")
    }
}

impl std::ops::DerefMut for Reader<'_> {
    fn deref_mut(&mut self) -> &mut LiteConn {
        self.conn.as_mut().expect("a reader holds its connection until dropped")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else { return };
        if self.in_transaction && conn.raw().execute_batch("ROLLBACK").is_err() {
            // A connection that cannot end its transaction is closed, not reused.
            self.pool.open.fetch_sub(1, Ordering::Relaxed);
            return;
        }
        self.pool.give(conn);
    }
}

/// What a batch's commit came to, for the units waiting on it.
type Outcome = Option<Result<(), Arc<rusqlite::Error>>>;

/// The open transaction the queued units share.
#[derive(Debug)]
struct Batch {
    started: Instant,
    /// Units whose savepoint was released into it.
    units: usize,
    outcome: watch::Sender<Outcome>,
}

/// Commits made and the units they carried, since the store opened.
#[derive(Debug, Default)]
pub(super) struct CommitCounts {
    pub commits: AtomicU64,
    pub units: AtomicU64,
}

#[derive(Debug)]
pub(super) struct Writer {
    /// `None` once the store is closed.
    conn: Option<LiteConn>,
    batch: Option<Batch>,
    counts: Arc<CommitCounts>,
}

impl Writer {
    fn conn(&self) -> StoreResult<&rusqlite::Connection> {
        self.conn.as_ref().map(LiteConn::raw).ok_or_else(closed)
    }

    /// Commits the open batch, if any, and tells its units how it went.
    fn commit_batch(&mut self) -> Result<(), Arc<rusqlite::Error>> {
        let Some(batch) = self.batch.take() else { return Ok(()) };
        let Some(conn) = self.conn.as_ref().map(LiteConn::raw) else { return Ok(()) };
        let result = conn.execute_batch("COMMIT").map_err(Arc::new);
        if result.is_ok() {
            self.counts.commits.fetch_add(1, Ordering::Relaxed);
            self.counts.units.fetch_add(u64::try_from(batch.units).unwrap_or(u64::MAX), Ordering::Relaxed);
        } else if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        batch.outcome.send_replace(Some(result.clone()));
        result
    }

    /// Undoes the unit in the savepoint. When SQLite has ended the whole transaction instead
    /// (an I/O error, a full disk), the batch is lost, and its units are told so.
    fn roll_back_unit(&mut self) {
        let Some(conn) = self.conn.as_ref().map(LiteConn::raw) else { return };
        let undone = conn.execute_batch("ROLLBACK TO unit; RELEASE unit");
        if undone.is_err() || conn.is_autocommit() {
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
            }
            if let Some(batch) = self.batch.take() {
                let lost = undone.err().unwrap_or(rusqlite::Error::InvalidQuery);
                batch.outcome.send_replace(Some(Err(Arc::new(lost))));
            }
        }
    }
}

/// The one writer and its queue.
#[derive(Debug)]
pub(super) struct WriteEngine {
    writer: Arc<tokio::sync::Mutex<Writer>>,
    /// Units waiting for the writer.
    queued: AtomicUsize,
    wake_committer: Arc<Notify>,
    limits: GroupCommit,
    counts: Arc<CommitCounts>,
}

/// Counts a unit as queued until it holds the writer (or gives up waiting).
struct InQueue<'a>(&'a AtomicUsize);

impl Drop for InQueue<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl WriteEngine {
    /// Opens the write connection (creating the file) and starts the committer.
    pub(crate) fn open(path: &Path, limits: GroupCommit) -> rusqlite::Result<Arc<Self>> {
        let conn = open(path, false)?;
        let counts = Arc::new(CommitCounts::default());
        let engine = Arc::new(WriteEngine {
            writer: Arc::new(tokio::sync::Mutex::new(Writer { conn: Some(conn), batch: None, counts: counts.clone() })),
            queued: AtomicUsize::new(0),
            wake_committer: Arc::new(Notify::new()),
            limits: GroupCommit { max_units: limits.max_units.max(1), ..limits },
            counts,
        });
        tokio::spawn(committer(Arc::downgrade(&engine), engine.wake_committer.clone()));
        Ok(engine)
    }

    /// Commits made and units committed so far.
    pub(crate) fn counts(&self) -> (u64, u64) {
        (self.counts.commits.load(Ordering::Relaxed), self.counts.units.load(Ordering::Relaxed))
    }

    /// Whether a unit holds the writer now (for the pool metrics).
    pub(crate) fn busy(&self) -> bool {
        self.writer.try_lock().is_err()
    }

    /// Takes the writer, opens the batch if none is open, and starts the unit's savepoint.
    pub(super) async fn begin(self: &Arc<Self>) -> StoreResult<WriteTx> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let in_queue = InQueue(&self.queued);
        let mut writer = self.writer.clone().lock_owned().await;
        drop(in_queue);
        if writer.batch.is_none() {
            let began = writer.conn()?.execute_batch("BEGIN IMMEDIATE");
            match began {
                Ok(()) => {}
                Err(e) if is_busy(&e) => writer = take_lock(writer).await?,
                Err(e) => return Err(e.into()),
            }
            let (outcome, _) = watch::channel(None);
            writer.batch = Some(Batch { started: Instant::now(), units: 0, outcome });
        }
        let tx = WriteTx { writer: Some(writer), engine: self.clone() };
        tx.conn_raw()?.execute_batch("SAVEPOINT unit")?;
        Ok(tx)
    }

    /// Whether the unit that just finished commits the batch now: nobody is queued behind it,
    /// or the batch is full or has waited long enough.
    fn commit_now(&self, batch: &Batch) -> bool {
        self.queued.load(Ordering::SeqCst) == 0
            || batch.units >= self.limits.max_units
            || batch.started.elapsed() >= self.limits.max_wait
    }

    /// After a unit ended, with the writer still held: commits the batch (when it is due) or
    /// leaves it to the units queued behind and the committer.
    fn hand_on(&self, mut writer: OwnedMutexGuard<Writer>) -> Result<(), Arc<rusqlite::Error>> {
        let Some(batch) = &writer.batch else { return Ok(()) };
        if !self.commit_now(batch) {
            drop(writer);
            self.wake_committer.notify_one();
            return Ok(());
        }
        if batch.units == 0 {
            // Nothing of the batch remains to keep: end it without an fsync.
            writer.batch = None;
            if let Some(conn) = writer.conn.as_ref() {
                let _ = conn.raw().execute_batch("ROLLBACK");
            }
            return Ok(());
        }
        writer.commit_batch()
    }

    /// Commits what is open and closes the write connection; later units are refused.
    pub(crate) async fn close(&self) {
        let mut writer = self.writer.lock().await;
        let _ = writer.commit_batch();
        writer.conn = None;
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::DatabaseBusy)
}

/// Another process holds the database's write lock: waits for it (up to the busy timeout) on a
/// blocking thread, with the writer in hand.
async fn take_lock(writer: OwnedMutexGuard<Writer>) -> StoreResult<OwnedMutexGuard<Writer>> {
    let waited = tokio::task::spawn_blocking(move || {
        let began = writer.conn().and_then(|conn| {
            conn.busy_timeout(BUSY_TIMEOUT)?;
            let began = conn.execute_batch("BEGIN IMMEDIATE");
            conn.busy_timeout(Duration::ZERO)?;
            Ok(began?)
        });
        (writer, began)
    })
    .await;
    match waited {
        Ok((writer, Ok(()))) => Ok(writer),
        Ok((_, Err(e))) => Err(e),
        Err(_) => Err(StoreError::Config("the wait for SQLite's write lock was cut short".into())),
    }
}

impl Drop for WriteEngine {
    fn drop(&mut self) {
        // Lets the committer see the engine is gone and end.
        self.wake_committer.notify_one();
    }
}

/// Commits the batches the units left open when others were queued behind them: it queues for
/// the writer behind those units, so they are in the batch it commits.
async fn committer(engine: Weak<WriteEngine>, wake: Arc<Notify>) {
    loop {
        wake.notified().await;
        let Some(writer) = engine.upgrade().map(|e| e.writer.clone()) else { return };
        let mut writer = writer.lock_owned().await;
        if writer.batch.is_some() {
            // The fsync runs off the async workers.
            let _ = tokio::task::spawn_blocking(move || writer.commit_batch()).await;
        }
    }
}

/// A unit of work on the writer: its savepoint, undone when dropped without `commit`.
#[derive(Debug)]
pub(super) struct WriteTx {
    writer: Option<OwnedMutexGuard<Writer>>,
    engine: Arc<WriteEngine>,
}

impl WriteTx {
    fn conn_raw(&self) -> StoreResult<&rusqlite::Connection> {
        self.writer.as_ref().ok_or_else(closed)?.conn()
    }

    /// Keeps the unit: releases its savepoint into the batch and returns once the batch is
    /// committed (or fails with the batch).
    pub(super) async fn commit(mut self) -> StoreResult<()> {
        let Some(mut writer) = self.writer.take() else { return Err(closed()) };
        if let Err(e) = writer.conn()?.execute_batch("RELEASE unit") {
            writer.roll_back_unit();
            let _ = self.engine.hand_on(writer);
            return Err(sqlite(e));
        }
        let Some(batch) = writer.batch.as_mut() else { return Err(closed()) };
        batch.units += 1;
        let mut outcome = batch.outcome.subscribe();
        self.engine.hand_on(writer).map_err(StoreError::Sqlite)?;
        let result = outcome.wait_for(Option::is_some).await.map(|o| o.clone());
        match result {
            Ok(Some(Ok(()))) => Ok(()),
            Ok(Some(Err(e))) => Err(StoreError::Sqlite(e)),
            Ok(None) | Err(_) => Err(StoreError::Config("the SQLite store closed before the write committed".into())),
        }
    }
}

impl std::ops::Deref for WriteTx {
    type Target = LiteConn;
    fn deref(&self) -> &LiteConn {
        self.writer.as_ref().and_then(|w| w.conn.as_ref()).expect("a unit holds the open writer until it ends")
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut LiteConn {
        self.writer.as_mut().and_then(|w| w.conn.as_mut()).expect("a unit holds the open writer until it ends")
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        if let Some(mut writer) = self.writer.take() {
            writer.roll_back_unit();
            let _ = self.engine.hand_on(writer);
        }
    }
}
