//! Liveness (`/healthz`) and readiness (`/readyz`: the database answers and its schema is the
//! one this binary expects). No key needed.

use crate::error::{ApiError, ErrorBody, error_chain};
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[utoipa::path(get, operation_id = "getHealth", path = "/healthz", tag = "Operations", security(), responses((status = 200, description = "The process is up")))]
pub(crate) async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

#[utoipa::path(get, operation_id = "getReadiness", path = "/readyz", tag = "Operations", security(),
    responses((status = 200, description = "The database answers and its migrations are current"), (status = 503, body = ErrorBody, description = "not_ready: the database does not answer, or migrations this binary needs are not applied")))]
pub(crate) async fn readyz(State(state): State<AppState>) -> Response {
    let not_ready = |message: String| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "not_ready", message);
    let checked = async {
        state.store.ping().await?;
        state.store.pending_migrations().await
    };
    match checked.await {
        Ok(pending) if pending.is_empty() => Json(json!({ "status": "ready" })).into_response(),
        Ok(pending) => {
            let names: Vec<String> = pending.iter().map(|(version, what)| format!("{version:04} {what}")).collect();
            tracing::warn!(pending = ?names, "readiness check: migrations not applied");
            let message = format!(
                "{} migration(s) this binary needs are not applied ({}); they run when `lajan serve` starts",
                names.len(),
                names.join(", ")
            );
            not_ready(message).into_response()
        }
        Err(e) => {
            tracing::warn!(error = %error_chain(&e), "readiness check failed");
            not_ready("The database is not reachable".to_owned()).into_response()
        }
    }
}
