//! Why a use case refused or failed; the API maps each to its status and error shape.

use lajan_domain::{FieldError, Invalid};
use lajan_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// Bad input or a domain rule said no (400 with the code).
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// The resource named by the request does not exist for this tenant (404).
    #[error("no such {0}")]
    NotFound(&'static str),
    /// The caller may not do this here (403), e.g. a sandbox tool with a live key.
    #[error("{0}")]
    Forbidden(&'static str),
    /// A service this use case depends on could not be reached (503), e.g. the live network
    /// when a balance must be read.
    #[error("{0}")]
    Unavailable(String),
    /// Asked again too soon (429 with `Retry-After`): a send a person repeats, such as an
    /// invitation.
    #[error("{message}")]
    TooSoon { message: &'static str, retry_after_seconds: u64 },
    /// The store failed; never `StoreError::Rejected`, which is a rule's refusal and arrives
    /// as [`ServiceError::Invalid`].
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Rejected(refusal) => ServiceError::Invalid(refusal),
            other => ServiceError::Store(other),
        }
    }
}

pub type ServiceResult<T> = Result<T, ServiceError>;

impl ServiceError {
    /// `validation_error` for one field.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        Invalid::fields(vec![FieldError::new(field, message)]).into()
    }

    /// Maps a store error, naming `what` when it is `NotFound`.
    pub fn not_found_as(what: &'static str) -> impl Fn(StoreError) -> ServiceError {
        move |e| match e {
            StoreError::NotFound => ServiceError::NotFound(what),
            other => other.into(),
        }
    }
}

/// `outer: middle: inner`, for logs.
pub fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        out.push_str(": ");
        out.push_str(&e.to_string());
        source = e.source();
    }
    out
}
