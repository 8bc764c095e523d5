//! SEP-24 for wallets that register their user's account with Lajan: `GET /sep24/info`, `POST
//! /sep24/transactions/deposit/interactive` (the link to the interactive registration page), and
//! `GET /sep24/transaction(s)`, which follow the payout waiting for the user. Every call but
//! `info` carries a SEP-10 token; errors take the SEP's shapes.

use crate::routes::sep10::{bad_request, fields, preflight, sep_error, too_many, wallet_cors};
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::Timestamp;
use lajan_domain::network::ClientAddress;
use lajan_services::ServiceError;
use lajan_services::views::wallet_deposits::Sep24TransactionView;
use lajan_services::wallet_auth::WalletSession;
use lajan_store::DepositQuery;
use serde::Deserialize;
use serde_json::{Value, json};

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/sep24/info", get(info).options(preflight))
        .route("/sep24/transactions/deposit/interactive", post(deposit).options(preflight))
        .route("/sep24/transactions/withdraw/interactive", post(withdraw).options(preflight))
        .route("/sep24/transaction", get(transaction).options(preflight))
        .route("/sep24/transactions", get(transactions).options(preflight))
        .layer(wallet_cors())
}

/// Deposits of every asset Lajan pays out; no withdrawals (Lajan takes no asset back through
/// a wallet), no fees.
async fn info(State(state): State<AppState>) -> Json<Value> {
    let deposit: serde_json::Map<String, Value> = state
        .services
        .deposit_assets()
        .into_iter()
        .map(|a| {
            (a.code, json!({ "enabled": true, "authentication_required": true, "fee_fixed": 0, "fee_percent": 0 }))
        })
        .collect();
    Json(json!({
        "deposit": deposit,
        "withdraw": {},
        "fee": { "enabled": false },
        "features": { "account_creation": false, "claimable_balances": false },
    }))
}

/// The wallet a request's bearer token speaks for, or the SEP's refusal.
async fn session(state: &AppState, headers: &HeaderMap) -> Result<WalletSession, Response> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let refused = || (StatusCode::FORBIDDEN, Json(json!({ "type": "authentication_required" }))).into_response();
    let Some(token) = token else { return Err(refused()) };
    match state.services.wallet_session(token).await {
        Ok(session) => Ok(session),
        Err(ServiceError::Forbidden(_)) => Err(refused()),
        Err(e) => Err(sep_error(&e)),
    }
}

/// The wallet a request speaks for and its query, or the SEP's refusal of either.
async fn session_and_query<T>(
    state: &AppState,
    headers: &HeaderMap,
    query: Result<Query<T>, QueryRejection>,
) -> Result<(WalletSession, T), Response> {
    let session = session(state, headers).await?;
    let Query(q) = query.map_err(|e| bad_request(e.body_text()))?;
    Ok((session, q))
}

async fn deposit(State(state): State<AppState>, request: Request) -> Response {
    let session = match session(&state, request.headers()).await {
        Ok(session) => session,
        Err(refused) => return refused,
    };
    // Every start counts against its address, whatever the account: accounts cost nothing.
    if let Some(ClientAddress(client)) = request.extensions().get::<ClientAddress>().copied() {
        let now = Timestamp::now();
        let (throttle, limit) = (&state.deposit_starts, state.config.deposit_limit);
        let blocked = match throttle.blocked(client, now) {
            Some(wait) => Some(wait),
            None => throttle.miss(state.limiter.as_ref(), limit, client, now).await,
        };
        if let Some(wait) = blocked {
            return too_many("Too many registrations were started from this address: try again later", wait);
        }
    }
    let fields = match fields(request).await {
        Ok(fields) => fields,
        Err(why) => return bad_request(why),
    };
    let field = |name: &str| fields.get(name).map(String::as_str);
    let started =
        state.services.start_wallet_deposit(&session, field("asset_code"), field("account"), field("lang")).await;
    match started {
        Ok(d) => Json(json!({ "type": "interactive_customer_info_needed", "url": d.url, "id": d.id })).into_response(),
        Err(e) => sep_error(&e),
    }
}

/// Lajan pays out; it takes nothing back through a wallet.
async fn withdraw() -> Response {
    bad_request("Withdrawals are not offered: this service only pays out (see /sep24/info)")
}

#[derive(Debug, Deserialize)]
struct TransactionQuery {
    id: Option<String>,
    stellar_transaction_id: Option<String>,
    external_transaction_id: Option<String>,
}

async fn transaction(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<TransactionQuery>, QueryRejection>,
) -> Response {
    let (session, q) = match session_and_query(&state, &headers, query).await {
        Ok(found) => found,
        Err(refused) => return refused,
    };
    if q.stellar_transaction_id.is_some() || q.external_transaction_id.is_some() {
        let refused =
            "Look a transaction up by its id: stellar_transaction_id and external_transaction_id are not supported";
        return bad_request(refused);
    }
    let Some(id) = q.id.filter(|id| !id.is_empty()) else {
        return bad_request("id is required");
    };
    match state.services.wallet_deposit(&session, &id).await {
        Ok(d) => Json(json!({ "transaction": Sep24TransactionView::new(&d, Timestamp::now()) })).into_response(),
        Err(e) => sep_error(&e),
    }
}

#[derive(Debug, Deserialize)]
struct TransactionsQuery {
    asset_code: Option<String>,
    no_older_than: Option<String>,
    limit: Option<String>,
    kind: Option<String>,
    paging_id: Option<String>,
}

async fn transactions(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<TransactionsQuery>, QueryRejection>,
) -> Response {
    let (session, q) = match session_and_query(&state, &headers, query).await {
        Ok(found) => found,
        Err(refused) => return refused,
    };
    // Only deposits exist here: a wallet asking for withdrawals gets none.
    if q.kind.as_deref().is_some_and(|k| k != "deposit") {
        return Json(json!({ "transactions": [] })).into_response();
    }
    let no_older_than = match q.no_older_than.as_deref().map(Timestamp::parse_rfc3339).transpose() {
        Ok(t) => t,
        Err(why) => return bad_request(format!("no_older_than {why}")),
    };
    let limit = match q.limit.as_deref().map(str::parse::<i64>).transpose() {
        Ok(limit) if limit.is_none_or(|l| l > 0) => limit.unwrap_or(lajan_services::wallet_deposits::MAX_LISTED),
        _ => return bad_request("limit must be a positive whole number"),
    };
    let query = DepositQuery {
        asset_code: q.asset_code.as_deref().filter(|c| !c.is_empty()),
        no_older_than,
        before_id: q.paging_id.as_deref().filter(|p| !p.is_empty()),
        limit,
    };
    match state.services.wallet_deposits(&session, query).await {
        Ok(found) => {
            let now = Timestamp::now();
            let views: Vec<Sep24TransactionView> = found.iter().map(|d| Sep24TransactionView::new(d, now)).collect();
            Json(json!({ "transactions": views })).into_response()
        }
        Err(e) => sep_error(&e),
    }
}
