//! SEP-10 web authentication for wallets: `GET /auth` answers a challenge transaction for an
//! account to sign. Errors take the SEP's shape, `{"error": "..."}`, not the API's.

use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use lajan_services::ServiceError;
use serde::Deserialize;
use serde_json::json;

pub fn routes() -> Router<AppState> {
    Router::new().route("/auth", get(challenge))
}

/// The SEP's query parameters; any other is ignored, as wallets may send more.
#[derive(Debug, Deserialize)]
struct ChallengeQuery {
    account: Option<String>,
    memo: Option<String>,
    home_domain: Option<String>,
    client_domain: Option<String>,
}

async fn challenge(State(state): State<AppState>, query: Result<Query<ChallengeQuery>, QueryRejection>) -> Response {
    let q = match query {
        Ok(Query(q)) => q,
        Err(rejected) => {
            let refused = lajan_domain::Invalid::new("invalid_request", rejected.body_text());
            return sep_error(&ServiceError::Invalid(refused));
        }
    };
    let asked = state
        .services
        .sep10_challenge(q.account.as_deref(), q.memo.as_deref(), q.home_domain.as_deref(), q.client_domain.as_deref())
        .await;
    match asked {
        Ok(c) => {
            Json(json!({ "transaction": c.transaction, "network_passphrase": c.network_passphrase })).into_response()
        }
        Err(e) => sep_error(&e),
    }
}

/// A refusal as SEP-10 writes it.
fn sep_error(e: &ServiceError) -> Response {
    let (status, message) = match e {
        ServiceError::Invalid(invalid) => (StatusCode::BAD_REQUEST, invalid.message.as_str()),
        ServiceError::Unavailable(why) => (StatusCode::SERVICE_UNAVAILABLE, why.as_str()),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "The challenge could not be made"),
    };
    (status, Json(json!({ "error": message }))).into_response()
}
