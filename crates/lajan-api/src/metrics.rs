//! `GET /metrics` on a listener of its own (`LAJAN_METRICS_LISTEN`), kept off the API's address
//! so a reverse proxy never exposes it. Requests are counted in `observe`.

use crate::serve::ConnectionLimits;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use lajan_services::Services;
use lajan_services::metrics::{OPENMETRICS_TEXT, PROMETHEUS_TEXT};
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Serves `GET /metrics` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    services: Arc<Services>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Router::new().route("/metrics", get(scrape)).with_state(services);
    crate::serve::serve(listener, app, ConnectionLimits::default(), &[], shutdown).await
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
