//! The SMS provider's delivery receipts: `POST /callbacks/sms` with Twilio's form body, signed
//! with the account's auth token (`X-Twilio-Signature`); answered with an empty 204.

use crate::error::{ApiError, ApiResult};
use crate::extract::RawBody;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::routing::post;
use lajan_services::messages::receipts::{SMS_CALLBACK_PATH, SmsCallback};

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route(SMS_CALLBACK_PATH, post(sms_status))
}

/// The body read by `RawBody`: 408 `request_timeout` when it does not arrive in time, as on `/v1`.
async fn sms_status(
    State(state): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    RawBody(body): RawBody,
) -> ApiResult<StatusCode> {
    let params: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).map_err(|_| {
        ApiError::bad_request("validation_error", "the body is not a form (application/x-www-form-urlencoded)")
    })?;
    let signature = headers.get("x-twilio-signature").and_then(|v| v.to_str().ok());
    let path_and_query = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
    state.services.record_sms_status(SmsCallback { path_and_query, params: &params, signature }).await?;
    Ok(StatusCode::NO_CONTENT)
}
