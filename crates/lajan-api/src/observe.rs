//! What each request leaves behind: its id (the caller's `X-Request-Id` when usable, else a new
//! UUID) on the answer, in error bodies and on every log line it causes; one log line when it is
//! answered (request id, organization, client address, route template, status, latency); and its
//! metrics. It also resolves the client's address (behind trusted proxies) for every per-address
//! limit, and caps each forwarded address's requests in flight.
//! Nothing a caller sends besides its request id is logged: no header, query or body, so keys,
//! secrets, passwords and session cookies never reach the logs.

use crate::client_address::client_address;
use crate::error::ApiError;
use crate::request_id::{REQUEST_ID, answering, usable};
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{ConnectInfo, MatchedPath, State};
use axum::http::{HeaderValue, Method, Request, StatusCode};
use axum::middleware::Next;
use axum::response::IntoResponse;
use axum::response::Response;
use lajan_domain::network::ClientAddress;
use std::net::SocketAddr;
use std::time::Instant;
use tracing::Instrument;

/// The route of a request no route matched: raw paths would make a series (and a log field) per
/// guess, and may carry what was typed into them.
const UNMATCHED: &str = "unmatched";

/// The organization a request acted for, put on its answer by whoever learned it (the API's
/// authentication), for the request's log line.
#[derive(Debug, Clone)]
pub(crate) struct RequestOrg(pub String);

pub(crate) async fn observe(State(state): State<AppState>, mut request: Request<Body>, next: Next) -> Response {
    let started = Instant::now();
    let given = request.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).filter(|id| usable(id));
    let id = given.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
    let header = HeaderValue::from_str(&id).unwrap_or_else(|_| HeaderValue::from_static("invalid"));
    request.headers_mut().insert(REQUEST_ID, header.clone());
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let client = peer.map(|peer| client_address(peer, request.headers(), &state.config.trusted_proxies));
    if let Some(client) = client {
        request.extensions_mut().insert(ClientAddress(client));
    }
    // Behind a trusted proxy one connection carries many clients: each forwarded address's
    // requests in flight are capped as each direct peer's connections are (`serve`).
    let forwarded = client.filter(|client| Some(*client) != peer);
    let held = forwarded.map(|client| state.requests_per_address.take(client));
    let over_cap = matches!(held, Some(None));
    let method = method_label(request.method());
    let route = request.extensions().get::<MatchedPath>().map_or(UNMATCHED, MatchedPath::as_str).to_owned();
    let span = tracing::info_span!("request", request_id = %id, method, route = %route);
    let answer = async {
        if over_cap {
            return too_many_at_once();
        }
        if method == OTHER_METHOD && !matches!(*request.method(), Method::TRACE | Method::CONNECT) {
            return unknown_method();
        }
        next.run(request).await
    };
    let mut response = answering(id.clone(), answer).instrument(span).await;
    drop(held);
    response.headers_mut().insert(REQUEST_ID, header);
    let (status, took) = (response.status().as_u16(), started.elapsed());
    state.services.metrics.http_request(method, &route, status, took);
    let org = response.extensions().get::<RequestOrg>().map(|org| org.0.as_str());
    let latency_ms = took.as_secs_f64() * 1000.0;
    let client = client.map(tracing::field::display);
    tracing::info!(request_id = %id, org, client, method, route = %route, status, latency_ms, "request answered");
    response
}

/// What metrics and logs call every method outside the ones HTTP defines.
const OTHER_METHOD: &str = "other";

/// A method as a label, from a closed set: any client can send any token as a method, and each
/// new one would be a new series (and a long one a long log line).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => OTHER_METHOD,
    }
}

/// One forwarded address already has its requests in flight: 429, come back in a second.
fn too_many_at_once() -> Response {
    let message = "Too many requests from this address at once: wait for one to finish";
    let mut refused = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message);
    refused.retry_after = Some(1);
    refused.into_response()
}

/// A method HTTP does not define is one no route takes. 405 rather than 501: a 5xx would count
/// a stranger's probing as the server's own failure in every error-rate alert.
fn unknown_method() -> Response {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "No route takes that method").into_response()
}
