//! Liveness (`/healthz`) and readiness (`/readyz`, which checks the database). No key needed.

use crate::error::{ApiError, ErrorBody, error_chain};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[utoipa::path(get, operation_id = "getHealth", path = "/healthz", tag = "Operations", security(), responses((status = 200, description = "The process is up")))]
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

#[utoipa::path(get, operation_id = "getReadiness", path = "/readyz", tag = "Operations", security(),
    responses((status = 200, description = "The database answers"), (status = 503, body = ErrorBody, description = "not_ready: the database does not answer")))]
pub async fn readyz(State(state): State<AppState>) -> Response {
    match state.store.ping().await {
        Ok(()) => Json(json!({ "status": "ready" })).into_response(),
        Err(e) => {
            tracing::warn!(error = %error_chain(&e), "readiness check failed");
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "not_ready", "The database is not reachable").into_response()
        }
    }
}
