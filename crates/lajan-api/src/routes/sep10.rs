//! SEP-10 web authentication for wallets: `GET /auth` answers a challenge transaction for an
//! account to sign, `POST /auth` exchanges the signed challenge for a token. Errors take the
//! SEP's shape, `{"error": "..."}`, not the API's.

use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Multipart, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Form, Json, Router};
use lajan_services::ServiceError;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/auth", get(challenge).post(token).options(preflight)).layer(wallet_cors())
}

/// `OPTIONS` has a route of its own so the CORS layer, which answers a preflight before any
/// handler, wraps it: the app's 405 fallback is set after the layers and is not wrapped.
pub(crate) async fn preflight() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// Wallets in a browser call the SEP endpoints from their own origin: SEP-10 and SEP-24 ask
/// for CORS open to any origin. Nothing here rides on a cookie, so that opens nothing else.
pub(crate) fn wallet_cors() -> tower_http::cors::CorsLayer {
    use axum::http::Method;
    tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
}

/// The SEP's query parameters; any other is ignored, as wallets may send more.
#[derive(Debug, Deserialize)]
struct ChallengeQuery {
    account: Option<String>,
    memo: Option<String>,
    home_domain: Option<String>,
    client_domain: Option<String>,
}

async fn challenge(
    State(state): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    query: Result<Query<ChallengeQuery>, QueryRejection>,
) -> Response {
    let q = match query {
        Ok(Query(q)) => q,
        Err(rejected) => return bad_request(rejected.body_text()),
    };
    let host = crate::routes::common::request_host(&headers, &uri);
    let (account, memo) = (q.account.as_deref(), q.memo.as_deref());
    let (home_domain, client_domain) = (q.home_domain.as_deref(), q.client_domain.as_deref());
    let asked = state.services.sep10_challenge(account, memo, home_domain, client_domain, host.as_deref()).await;
    match asked {
        Ok(c) => {
            Json(json!({ "transaction": c.transaction, "network_passphrase": c.network_passphrase })).into_response()
        }
        Err(e) => sep_error(&e),
    }
}

/// `POST /auth` with the signed challenge's `transaction`, in any body the SEPs allow.
async fn token(State(state): State<AppState>, request: Request) -> Response {
    let exchanged = match fields(request).await {
        Ok(fields) => state.services.sep10_token(fields.get("transaction").map(String::as_str)).await,
        Err(why) => return bad_request(why),
    };
    match exchanged {
        Ok(token) => Json(json!({ "token": token })).into_response(),
        Err(e) => sep_error(&e),
    }
}

/// The request's fields, from a multipart form (what most wallets send), a URL-encoded form or
/// JSON, as SEP-10 and SEP-24 allow.
pub(crate) async fn fields(request: Request) -> Result<HashMap<String, String>, String> {
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if content_type.starts_with("multipart/form-data") {
        let mut form = Multipart::from_request(request, &()).await.map_err(|e| e.body_text())?;
        let mut found = HashMap::new();
        while let Some(field) = form.next_field().await.map_err(|e| e.body_text())? {
            let name = field.name().unwrap_or_default().to_owned();
            found.insert(name, field.text().await.map_err(|e| e.body_text())?);
        }
        Ok(found)
    } else if content_type.starts_with("application/x-www-form-urlencoded") {
        Form::<HashMap<String, String>>::from_request(request, &()).await.map(|Form(f)| f).map_err(|e| e.body_text())
    } else {
        let Json(body) = Json::<HashMap<String, Value>>::from_request(request, &()).await.map_err(|e| e.body_text())?;
        Ok(body
            .into_iter()
            .filter_map(|(k, v)| match v {
                Value::String(s) => Some((k, s)),
                Value::Null => None,
                other => Some((k, other.to_string())),
            })
            .collect())
    }
}

/// A malformed request, refused as the SEPs write it.
pub(crate) fn bad_request(why: impl Into<String>) -> Response {
    sep_error(&ServiceError::Invalid(lajan_domain::Invalid::new("invalid_request", why.into())))
}

/// A refusal as the SEPs (10 and 24) write it: `{"error": "..."}`.
pub(crate) fn sep_error(e: &ServiceError) -> Response {
    if let ServiceError::TooSoon { message, retry_after_seconds } = e {
        return too_many(message, *retry_after_seconds);
    }
    let (status, message) = match e {
        ServiceError::Invalid(invalid) => (StatusCode::BAD_REQUEST, invalid.message.clone()),
        ServiceError::NotFound(what) => (StatusCode::NOT_FOUND, format!("no such {what}")),
        ServiceError::Unavailable(why) => (StatusCode::SERVICE_UNAVAILABLE, why.clone()),
        other => {
            tracing::error!(error = %other, "SEP request failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong on our side; it has been logged".to_owned())
        }
    };
    (status, Json(json!({ "error": message }))).into_response()
}

/// The SEP's error shape for a caller asked to wait: 429 with `Retry-After`.
pub(crate) fn too_many(message: &str, retry_after_seconds: u64) -> Response {
    let mut response = (StatusCode::TOO_MANY_REQUESTS, Json(json!({ "error": message }))).into_response();
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_seconds.max(1)));
    response
}
