//! `Idempotency-Key` on POST: the first completed response (status and body) is stored for 24 h
//! per organization and environment and replayed with `Idempotent-Replayed: true`. The same key
//! with a different request is 422 `idempotency_key_reused`; while the first request is still
//! running, 409 `idempotency_in_progress`. Server errors (5xx) are not stored, so a retry with
//! the same key runs again; nor are refusals of the caller (401, 403, 429).
//!
//! The key is looked at only once the route's scope has passed: the middleware reads the body
//! and prepares the claim, and the [`Idempotency`] extractor, which every POST handler takes after
//! its `Authed` scope, enters it, replays or refuses. So a key without the route's scope gets its
//! 403 and neither takes the key from the caller who has it, nor learns whether it was used, nor
//! reads its stored answer.
//!
//! A request that changes something claims its key inside the transaction of that change (the
//! handler hands [`Idempotency::respond`] to the store), so the change and its response commit
//! together: after a crash, a retry either replays the committed response or, when nothing
//! committed, runs afresh at once. Responses that change nothing (4xx) are recorded here after
//! the handler.

use crate::auth::{AuthContext, ScopeChecked};
use crate::error::{ApiError, KeyTaken, TryAgain, error_chain};
use crate::extract::MAX_UPLOAD_BYTES;
use crate::in_flight::Running;
use crate::state::AppState;
use axum::body::{Body, to_bytes};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lajan_domain::{FieldError, Tenant, Timestamp};
use lajan_services::failpoint;
use lajan_store::{IdempotencyClaim, IdempotencyState, IdempotentResponse, ResponseFor};
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

pub(crate) const HEADER: &str = "idempotency-key";
pub(crate) const REPLAYED_HEADER: &str = "idempotent-replayed";
pub(crate) const TTL_MS: i64 = 24 * 60 * 60 * 1000;
const MAX_KEY_LEN: usize = 255;

pub(crate) async fn idempotency(State(state): State<AppState>, req: Request, next: Next) -> Response {
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
    // The largest any route takes; each route's own limit is applied by its extractor.
    let Ok(bytes) = to_bytes(body, MAX_UPLOAD_BYTES).await else {
        return ApiError::payload_too_large().into_response();
    };
    let claim = IdempotencyClaim {
        request_hash: request_hash(parts.method.as_str(), &path_and_query(&parts.uri), &bytes),
        key,
        at: Timestamp::now(),
        ttl_ms: TTL_MS,
    };
    let claim = Arc::new(Claim {
        claim,
        tenant: ctx.tenant.clone(),
        entered: AtomicBool::new(false),
        handed: AtomicBool::new(false),
        running: Mutex::new(None),
    });
    let mut parts = parts;
    parts.extensions.insert(Idempotency(Some(claim.clone())));
    let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    if !claim.entered.load(Ordering::Acquire) {
        // Refused before the handler reached the key (no scope, a bad path): nothing to keep.
        return response;
    }
    // The crash tests stop here: the handler's change has committed, its answer is not sent.
    failpoint::hit("idempotency.after_handler").await;
    finish(&state, &claim, response).await
}

/// After the handler: replays what another request committed under the key first, or records a
/// response that the handler's own transaction did not.
async fn finish(state: &AppState, claim: &Claim, response: Response) -> Response {
    let (parts, body) = response.into_parts();
    if parts.extensions.get::<KeyTaken>().is_some() {
        return answer_held(state, claim).await;
    }
    let body = match to_bytes(body, usize::MAX).await {
        Ok(b) => b,
        Err(e) => return ApiError::internal(&e).into_response(),
    };
    let recorded_with_change = parts.status.is_success() && claim.handed.load(Ordering::Acquire);
    let refused_caller =
        matches!(parts.status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN | StatusCode::TOO_MANY_REQUESTS);
    let kept = !parts.status.is_server_error() && !refused_caller && parts.extensions.get::<TryAgain>().is_none();
    if kept && !recorded_with_change {
        match state.store.idempotency_record(&claim.tenant, &claim.claim, parts.status.as_u16(), &body).await {
            Ok(true) => {}
            // Another process answered this key first (say, a create committed while this one
            // found the client missing): the key's answer is the one every retry gets.
            Ok(false) => return answer_held(state, claim).await,
            Err(e) => tracing::error!(error = %error_chain(&e), "could not record idempotent response"),
        }
    }
    Response::from_parts(parts, Body::from(body))
}

/// What the key holds now that another request has answered under it.
async fn answer_held(state: &AppState, claim: &Claim) -> Response {
    let (tenant, claim) = (&claim.tenant, &claim.claim);
    match state.store.idempotency_lookup(tenant, &claim.key, &claim.request_hash, Timestamp::now()).await {
        Ok(IdempotencyState::Free) => ApiError::idempotency_in_progress().into_response(),
        Ok(held) => answer(held),
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// The answer a key already holds: a replay, or the refusal of a different request.
fn answer(state: IdempotencyState) -> Response {
    match state {
        IdempotencyState::Replay { status, body } => replay(status, body),
        IdempotencyState::Mismatch => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request",
        )
        .into_response(),
        IdempotencyState::Free => ApiError::idempotency_in_progress().into_response(),
    }
}

fn replay(status: u16, body: Vec<u8>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
    response
}

struct Claim {
    claim: IdempotencyClaim,
    tenant: Tenant,
    /// Whether the handler's [`Idempotency`] extractor took the key (after the scope passed).
    entered: AtomicBool,
    /// Whether the handler gave the claim to the store call making its change.
    handed: AtomicBool,
    /// This process's mark that the key is being answered, held until the answer is kept.
    running: Mutex<Option<Running>>,
}

/// The request's `Idempotency-Key`, when it has one: a handler that changes something takes it
/// after its `Authed` scope (a replay or a refusal of the key answers there) and hands
/// [`Idempotency::respond`] to the store call making the change, so its response is recorded in
/// that transaction.
#[derive(Clone, Default)]
pub(crate) struct Idempotency(Option<Arc<Claim>>);

impl Idempotency {
    /// What the store records under the key with the change: `status`, and the body `render`
    /// makes of the store call's result (the same bytes the handler then answers with).
    pub(crate) fn respond<'a, T>(
        &'a self,
        status: StatusCode,
        render: ResponseFor<'a, T>,
    ) -> Option<IdempotentResponse<'a, T>> {
        let claim = self.0.as_ref()?;
        claim.handed.store(true, Ordering::Release);
        Some(IdempotentResponse { claim: &claim.claim, status: status.as_u16(), body: render })
    }

    /// The key and the request's digest, for requests that derive an identity from them.
    pub(crate) fn claim(&self) -> Option<&IdempotencyClaim> {
        self.0.as_ref().map(|c| &c.claim)
    }
}

impl FromRequestParts<AppState> for Idempotency {
    type Rejection = Response;

    /// Takes the key for this request: 409 while this process answers it already, the stored
    /// answer (or 422 for another request) when it was used, else the key is this request's.
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let Some(idempotency) = parts.extensions.get::<Idempotency>().cloned() else { return Ok(Idempotency(None)) };
        let Some(claim) = idempotency.0.clone() else { return Ok(idempotency) };
        if parts.extensions.get::<ScopeChecked>().is_none() {
            // A handler that takes the key before its scope would let any key read the answers.
            tracing::error!("a handler takes Idempotency before Authed");
            return Err(
                ApiError::internal(&std::io::Error::other("Idempotency taken before the scope")).into_response()
            );
        }
        // Two requests with one key in this process: the second is answered 409 at once. Across
        // processes, the key's row in each change's transaction puts them in line instead.
        let Some(running) = state.in_flight.enter(&claim.tenant, &claim.claim.key) else {
            return Err(ApiError::idempotency_in_progress().into_response());
        };
        let found =
            state.store.idempotency_lookup(&claim.tenant, &claim.claim.key, &claim.claim.request_hash, claim.claim.at);
        match found.await {
            Err(e) => return Err(ApiError::from(e).into_response()),
            Ok(IdempotencyState::Free) => {}
            Ok(answered) => return Err(answer(answered)),
        }
        *claim.running.lock().unwrap_or_else(PoisonError::into_inner) = Some(running);
        claim.entered.store(true, Ordering::Release);
        Ok(idempotency)
    }
}

/// A response body as the API sends it, for recording under a key.
pub(crate) fn json_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// The path inside the API router (where `/v1` or `/v1/mfi` is already stripped, so both path
/// forms count as one) with the query string as sent: a create that takes its batch's name and
/// asset from the query is another request when they change.
fn path_and_query(uri: &axum::http::Uri) -> String {
    match uri.query() {
        Some(query) => format!("{}?{query}", uri.path()),
        None => uri.path().to_owned(),
    }
}

/// What makes two requests "the same": method, path with its query, and body.
pub(crate) fn request_hash(method: &str, path_and_query: &str, body: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(method.as_bytes());
    h.update(b" ");
    h.update(path_and_query.as_bytes());
    h.update(b"\n");
    h.update(body);
    lajan_domain::hex::encode(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::request_hash;

    #[test]
    fn method_path_query_and_body_all_count() {
        assert_eq!(request_hash("POST", "/clients", b"{}"), request_hash("POST", "/clients", b"{}"));
        assert_ne!(request_hash("POST", "/clients", b"{}"), request_hash("POST", "/clients", b"{ }"));
        assert_ne!(request_hash("POST", "/clients", b""), request_hash("POST", "/clients", b"{}"));
        assert_ne!(request_hash("POST", "/clients", b""), request_hash("POST", "/events", b""));
        assert_ne!(request_hash("POST", "/clients", b""), request_hash("PUT", "/clients", b""));
        assert_ne!(request_hash("POST", "/d?name=a", b""), request_hash("POST", "/d?name=b", b""));
    }
}
