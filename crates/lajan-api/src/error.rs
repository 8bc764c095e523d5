//! The one error type of the API and its JSON shape:
//! `{ "statusCode": 400, "error": "Bad Request", "code": "invalid_client", "message": "...", "details": [...] }`.
//!
//! Every rejection, the framework's own included, goes through here so clients see one shape.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use lajan_domain::{FieldError, Invalid};
use lajan_services::ServiceError;
pub(crate) use lajan_services::error::error_chain;
use lajan_store::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, Clone)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub details: Vec<FieldError>,
    /// Seconds to put in `Retry-After`, for 429.
    pub retry_after: Option<u64>,
    /// The request's `Idempotency-Key` was taken by one that committed first (see [`KeyTaken`]).
    key_taken: bool,
    /// The same request may succeed when sent again (see [`TryAgain`]).
    try_again: bool,
}

/// The error body, as documented in the OpenAPI document.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ErrorBody {
    /// The HTTP status code, repeated.
    #[schema(example = 400)]
    pub status_code: u16,
    /// The HTTP reason phrase.
    #[schema(example = "Bad Request")]
    pub error: String,
    /// A stable, machine-readable code.
    #[schema(example = "validation_error")]
    pub code: String,
    /// What went wrong, for a person.
    pub message: String,
    /// The fields at fault, when the problem is with specific fields.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<FieldDetail>,
    /// The id of the request that was refused, as its `X-Request-Id` header says: quote it when
    /// asking for help, it finds the request's log line. A replayed answer (`Idempotent-Replayed:
    /// true`) keeps the first request's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "0b6f5c1e-3f7a-4c39-9d3e-5a8e2f1c7b20")]
    pub request_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct FieldDetail {
    /// In a batch (a disbursement's items): the row at fault, counted from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<u32>,
    #[schema(example = "lineItems[0].quantity")]
    pub field: String,
    /// In a batch: the code a single request would have been refused with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    pub message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            details: Vec::new(),
            retry_after: None,
            key_taken: false,
            try_again: false,
        }
    }

    pub(crate) fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub(crate) fn validation(details: Vec<FieldError>) -> Self {
        Invalid::fields(details).into()
    }

    pub(crate) fn not_found(what: &str) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", format!("No such {what}"))
    }

    /// Maps a store error, naming `what` when it is `NotFound`: `.map_err(ApiError::not_found_as("invoice"))`.
    pub(crate) fn not_found_as(what: &'static str) -> impl Fn(StoreError) -> ApiError {
        move |e| match e {
            StoreError::NotFound => ApiError::not_found(what),
            other => other.into(),
        }
    }

    pub(crate) fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    pub(crate) fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    pub(crate) fn idempotency_in_progress() -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "idempotency_in_progress",
            "A request with this Idempotency-Key is still being processed; retry shortly",
        )
    }

    /// The database kept aborting the request's changes to let concurrent ones through;
    /// nothing was changed, and sending it again succeeds.
    pub(crate) fn busy() -> Self {
        ApiError {
            try_again: true,
            retry_after: Some(1),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "Concurrent changes to the same records kept this request from completing; nothing changed, send it again",
            )
        }
    }

    pub(crate) fn payload_too_large() -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "The request body is larger than this operation takes: 1 MiB, or 5 MiB to create a disbursement",
        )
    }

    /// A 500 that logs the whole cause chain and tells the caller nothing internal.
    pub(crate) fn internal(err: &(dyn std::error::Error + 'static)) -> Self {
        tracing::error!(error = %error_chain(err), "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            "Something went wrong on our side; it has been logged",
        )
    }

    pub(crate) fn body(&self) -> ErrorBody {
        ErrorBody {
            status_code: self.status.as_u16(),
            error: self.status.canonical_reason().unwrap_or("Error").to_owned(),
            code: self.code.to_owned(),
            message: self.message.clone(),
            details: self
                .details
                .iter()
                .map(|d| FieldDetail {
                    row: d.row,
                    field: d.field.clone(),
                    code: d.code.map(str::to_owned),
                    message: d.message.clone(),
                })
                .collect(),
            request_id: crate::request_id::current(),
        }
    }
}

/// Marks the response of a request whose store call found its `Idempotency-Key` taken by a
/// request that committed first: the idempotency middleware answers with what that one left.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyTaken;

/// Marks an answer that changed nothing and that the same request may not get again (a write
/// that lost a race): the idempotency middleware does not keep it under the request's key, so
/// a retry with the key runs afresh, as it does after a 5xx.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TryAgain;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (key_taken, try_again) = (self.key_taken, self.try_again);
        let mut response = (self.status, Json(self.body())).into_response();
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if key_taken {
            response.extensions_mut().insert(KeyTaken);
        }
        if try_again {
            response.extensions_mut().insert(TryAgain);
        }
        response
    }
}

impl From<Invalid> for ApiError {
    fn from(invalid: Invalid) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code: invalid.code,
            message: invalid.message,
            details: invalid.details,
            retry_after: None,
            key_taken: false,
            try_again: false,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound => ApiError::not_found("resource"),
            StoreError::Rejected(invalid) => invalid.into(),
            StoreError::IdempotencyKeyTaken => ApiError { key_taken: true, ..ApiError::idempotency_in_progress() },
            StoreError::Conflict(what) => {
                tracing::info!(constraint = %what, "write refused by a uniqueness rule");
                ApiError {
                    try_again: true,
                    ..ApiError::new(
                        StatusCode::CONFLICT,
                        "conflict",
                        "The request conflicts with the current state of a resource; read it again and retry",
                    )
                }
            }
            other => ApiError::internal(&other),
        }
    }
}

impl From<ServiceError> for ApiError {
    fn from(err: ServiceError) -> Self {
        match err {
            ServiceError::Invalid(invalid) => invalid.into(),
            ServiceError::NotFound(what) => ApiError::not_found(what),
            ServiceError::Forbidden(message) => ApiError::forbidden(message),
            ServiceError::Unavailable(message) => ApiError {
                try_again: true,
                ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "ledger_unavailable", message)
            },
            ServiceError::TooSoon { message, retry_after_seconds } => ApiError {
                retry_after: Some(retry_after_seconds),
                ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message)
            },
            ServiceError::Store(e) => e.into(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.message)
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    /// A uniqueness rule refusing a write is the caller's race to retry, not our failure: 409 in
    /// the error shape, without the constraint's name.
    #[tokio::test]
    async fn a_store_conflict_answers_409_conflict() {
        let response = ApiError::from(StoreError::Conflict("clients_pkey".into())).into_response();
        assert_eq!(response.status(), StatusCode::CONFLICT);
        assert!(response.extensions().get::<TryAgain>().is_some(), "not kept under an Idempotency-Key");
        let bytes = axum::body::to_bytes(response.into_body(), 4096).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!((body["statusCode"].as_u64(), body["code"].as_str()), (Some(409), Some("conflict")), "{body}");
        assert_eq!(body["error"], "Conflict");
        assert!(!body["message"].as_str().unwrap().contains("clients_pkey"), "{body}");
        let via_service = ApiError::from(ServiceError::Store(StoreError::Conflict("x".into())));
        assert_eq!((via_service.status, via_service.code), (StatusCode::CONFLICT, "conflict"));
    }
}
