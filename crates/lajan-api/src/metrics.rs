//! Prometheus metrics: the middleware that counts each answered request by its route template,
//! and `GET /metrics` on a listener of its own (`LAJAN_METRICS_LISTEN`), kept off the API's
//! address so a reverse proxy never exposes it.

use crate::state::AppState;
use axum::Router;
use axum::body::Body;
use axum::extract::{MatchedPath, State};
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use lajan_services::Services;
use lajan_services::metrics::{OPENMETRICS_TEXT, PROMETHEUS_TEXT};
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;
use tokio::net::TcpListener;

/// The route label of a request no route matched: raw paths would make a series per guess.
const UNMATCHED: &str = "unmatched";

/// Counts the request once answered, under its path template (`/v1/invoices/{id}`).
pub async fn count_request(State(state): State<AppState>, request: Request<Body>, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = request.extensions().get::<MatchedPath>().map(|m| m.as_str().to_owned());
    let response = next.run(request).await;
    let route = route.as_deref().unwrap_or(UNMATCHED);
    state.services.metrics.http_request(method.as_str(), route, response.status().as_u16(), started.elapsed());
    response
}

/// Serves `GET /metrics` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    services: Arc<Services>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Router::new().route("/metrics", get(scrape)).with_state(services);
    axum::serve(listener, app).with_graceful_shutdown(shutdown).await
}

/// OpenMetrics for a scraper that asks for it (Prometheus does), else the Prometheus text format.
async fn scrape(State(services): State<Arc<Services>>, headers: HeaderMap) -> Response {
    let openmetrics = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|accept| accept.contains("application/openmetrics-text"));
    match services.scrape_metrics(openmetrics).await {
        Ok(text) => {
            let content_type = if openmetrics { OPENMETRICS_TEXT } else { PROMETHEUS_TEXT };
            ([(header::CONTENT_TYPE, HeaderValue::from_static(content_type))], text).into_response()
        }
        Err(e) => {
            tracing::error!(error = %e, "metrics: the database could not be read");
            (StatusCode::SERVICE_UNAVAILABLE, "the database could not be read\n").into_response()
        }
    }
}
