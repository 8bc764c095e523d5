//! Store errors: backends map constraint violations to these variants; no caller matches
//! database error text.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    #[error("conflict: {0}")]
    Conflict(String),
    #[error("database configuration: {0}")]
    Config(String),
    #[error("stored data is malformed: {0}")]
    Corrupt(String),
    /// A domain rule refused the change inside its transaction (e.g. `cannot_void`).
    #[error("rejected: {0}")]
    Rejected(lajan_domain::Invalid),
    /// The request's `Idempotency-Key` was taken by a request that committed first; nothing
    /// was changed, and the caller answers with what the key holds.
    #[error("the Idempotency-Key was taken by a request that committed first")]
    IdempotencyKeyTaken,
    #[error("injected failure (test fault point)")]
    Injected,
    #[error("database error")]
    Database(#[source] sqlx::Error),
    /// An error of the SQLite engine; shared, because a failed group commit fails every unit
    /// in it with the same error.
    #[error("database error")]
    Sqlite(#[source] std::sync::Arc<rusqlite::Error>),
    #[error("migration failed")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// PostgreSQL's codes for a transaction it aborted to let others on: `deadlock_detected` and
/// `serialization_failure`. Nothing of the transaction was written.
const CONTENDED: [&str; 2] = ["40P01", "40001"];

tokio::task_local! {
    static ABORTED_BY_CONTENTION: std::cell::Cell<bool>;
}

/// Runs `work` (a request's handling, say) and says whether the database aborted one of its
/// transactions as a deadlock victim or a serialization failure: then nothing of that
/// transaction was written, and the whole of `work` may be run again. Every unit of work runs
/// on the task that awaits it, so the flag sees them all.
pub async fn watch_contention<F: std::future::Future>(work: F) -> (F::Output, bool) {
    ABORTED_BY_CONTENTION
        .scope(std::cell::Cell::new(false), async move {
            let output = work.await;
            (output, ABORTED_BY_CONTENTION.with(std::cell::Cell::get))
        })
        .await
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(db.constraint().unwrap_or("unique").to_owned())
            }
            sqlx::Error::Database(db) if db.is_foreign_key_violation() => StoreError::NotFound,
            sqlx::Error::Database(db) if db.code().is_some_and(|code| CONTENDED.contains(&code.as_ref())) => {
                // Rolled back whole: running the unit of work again is safe, and a request
                // watched by `watch_contention` is run again rather than answered with it.
                let _ = ABORTED_BY_CONTENTION.try_with(|aborted| aborted.set(true));
                StoreError::Database(e)
            }
            _ => StoreError::Database(e),
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        use rusqlite::ffi::ErrorCode;
        match &e {
            rusqlite::Error::QueryReturnedNoRows => StoreError::NotFound,
            rusqlite::Error::SqliteFailure(failure, _) if failure.code == ErrorCode::ConstraintViolation => {
                match failure.extended_code {
                    rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY => StoreError::NotFound,
                    rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
                        StoreError::Conflict("unique".into())
                    }
                    _ => StoreError::Sqlite(std::sync::Arc::new(e)),
                }
            }
            _ => StoreError::Sqlite(std::sync::Arc::new(e)),
        }
    }
}
