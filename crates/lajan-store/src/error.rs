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

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(db.constraint().unwrap_or("unique").to_owned())
            }
            sqlx::Error::Database(db) if db.is_foreign_key_violation() => StoreError::NotFound,
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
