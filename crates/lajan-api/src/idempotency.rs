//! `Idempotency-Key` on POST: the first completed response (status and body) is stored for 24 h
//! per organization and environment and replayed with `Idempotent-Replayed: true`. The same key
//! with a different request is 422 `idempotency_key_reused`; while the first request is still
//! running, 409 `idempotency_in_progress`. Server errors (5xx) are not stored, so a retry with
//! the same key runs again. A claim whose process died is taken over after [`LOCK_MS`].

use crate::auth::AuthContext;
use crate::error::{ApiError, error_chain};
use crate::extract::MAX_BODY_BYTES;
use crate::state::AppState;
use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lajan_domain::{FieldError, Timestamp};
use lajan_store::IdempotencyBegin;
use sha2::{Digest, Sha256};

pub const HEADER: &str = "idempotency-key";
pub const REPLAYED_HEADER: &str = "idempotent-replayed";
pub const TTL_MS: i64 = 24 * 60 * 60 * 1000;
/// How long a claim may run before it is presumed dead. Far beyond any request's duration.
pub const LOCK_MS: i64 = 5 * 60 * 1000;
const MAX_KEY_LEN: usize = 255;

pub async fn idempotency(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let Some(raw_key) = req.headers().get(HEADER) else {
        return next.run(req).await;
    };
    let Some(ctx) = req.extensions().get::<AuthContext>().cloned() else {
        return next.run(req).await;
    };
    let key = match raw_key.to_str() {
        Ok(k) if !k.is_empty() && k.len() <= MAX_KEY_LEN && k.bytes().all(|b| b.is_ascii_graphic()) => k.to_owned(),
        _ => {
            return ApiError::validation(vec![FieldError::new(
                "Idempotency-Key",
                format!("must be 1 to {MAX_KEY_LEN} visible ASCII characters"),
            )])
            .into_response();
        }
    };
    let (parts, body) = req.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_BODY_BYTES).await else {
        return ApiError::payload_too_large().into_response();
    };
    let hash = request_hash(parts.method.as_str(), parts.uri.path(), &bytes);
    let tenant = &ctx.tenant;
    let begun = state.store.idempotency_begin(tenant, &key, &hash, Timestamp::now(), LOCK_MS, TTL_MS).await;
    match begun {
        Err(e) => ApiError::from(e).into_response(),
        Ok(IdempotencyBegin::Mismatch) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request",
        )
        .into_response(),
        Ok(IdempotencyBegin::InProgress) => ApiError::new(
            StatusCode::CONFLICT,
            "idempotency_in_progress",
            "A request with this Idempotency-Key is still being processed; retry shortly",
        )
        .into_response(),
        Ok(IdempotencyBegin::Replay { status, body }) => replay(status, body),
        Ok(IdempotencyBegin::Started) => {
            let mut parts = parts;
            parts.extensions.insert(IdempotencyClaim { key: key.clone() });
            let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
            let (parts, body) = response.into_parts();
            let body = match to_bytes(body, usize::MAX).await {
                Ok(b) => b,
                Err(e) => {
                    let _ = state.store.idempotency_release(tenant, &key).await;
                    return ApiError::internal(&e).into_response();
                }
            };
            let outcome = if parts.status.is_server_error() {
                state.store.idempotency_release(tenant, &key).await
            } else {
                state.store.idempotency_complete(tenant, &key, parts.status.as_u16(), &body).await
            };
            if let Err(e) = outcome {
                tracing::error!(error = %error_chain(&e), "could not record idempotent response");
            }
            Response::from_parts(parts, Body::from(body))
        }
    }
}

/// The key this request claimed. Handlers that move money pass it to the store so the
/// response is recorded in the same transaction as the change (see `IdempotentResponse`).
#[derive(Debug, Clone)]
pub struct IdempotencyClaim {
    pub key: String,
}

fn replay(status: u16, body: Vec<u8>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
    response
}

/// What makes two requests "the same": method, path and body. `path` is the path inside the API
/// router, where `/v1` or `/v1/mfi` is already stripped, so both path forms count as one.
pub fn request_hash(method: &str, path: &str, body: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(method.as_bytes());
    h.update(b" ");
    h.update(path.as_bytes());
    h.update(b"\n");
    h.update(body);
    crate::keys::hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::request_hash;

    #[test]
    fn method_path_and_body_all_count() {
        assert_eq!(request_hash("POST", "/clients", b"{}"), request_hash("POST", "/clients", b"{}"));
        assert_ne!(request_hash("POST", "/clients", b"{}"), request_hash("POST", "/clients", b"{ }"));
        assert_ne!(request_hash("POST", "/clients", b""), request_hash("POST", "/events", b""));
        assert_ne!(request_hash("POST", "/clients", b""), request_hash("PUT", "/clients", b""));
    }
}
