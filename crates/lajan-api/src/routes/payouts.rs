//! Payouts: list (with `counts`), get, create, approve, reject, retry; and `GET /assets`.

use super::{IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::assets::{AssetView, issuer, usable};
use crate::auth::Authed;
use crate::auth::scope::{PayoutsApprove, PayoutsRead, PayoutsWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiQuery, ExactNumber, OptionalJson, Pagination};
use crate::idempotency::{Idempotency, json_bytes};
use crate::invoicing::money;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::client::WalletAddress;
use lajan_domain::id::IdKind;
use lajan_domain::money::parse_amount;
use lajan_domain::payout::{
    ApprovalStatus, AssetCode, Attempt, ExecStatus, PayoutAction, PayoutFilter, PayoutType, parse_memo,
};
use lajan_domain::validation::parse_reason;
use lajan_domain::{FieldError, Invalid, Timestamp};
use lajan_store::NewEvent;
use lajan_store::payouts::{Payout, PayoutDetail, PayoutQuery};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/payouts", get(list).post(create))
        .route("/payouts/{id}", get(fetch))
        .route("/payouts/{id}/approve", post(approve))
        .route("/payouts/{id}/reject", post(reject))
        .route("/payouts/{id}/retry", post(retry))
        .route("/assets", get(assets))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutClientSummary {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub wallet_account_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutClient {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub wallet_account_id: Option<String>,
    pub phone_number: Option<String>,
    pub email: Option<String>,
}

/// A row of the payouts list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutSummary {
    #[schema(example = "pyt_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    /// direct or disbursement.
    #[serde(rename = "type")]
    pub payout_type: String,
    pub client_id: Option<String>,
    pub client: Option<PayoutClientSummary>,
    pub wallet_account_id: String,
    #[schema(example = "100.00")]
    pub asset_amount: String,
    #[schema(example = "USDC")]
    pub asset_code: String,
    pub memo: Option<String>,
    /// pending, approved or rejected.
    pub approval_status: String,
    /// pending, ready_to_send, sent or failed.
    pub exec_status: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttemptView {
    #[schema(example = "att_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    pub attempt_number: i64,
    /// The transaction's hash, stored before it was submitted.
    pub tx_hash: String,
    /// The ledger that included it; null while unknown or when it failed.
    pub ledger_seq: Option<i64>,
    /// A Horizon result code such as `op_no_destination`, or `tx_timeout`.
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

impl From<&Attempt> for AttemptView {
    fn from(a: &Attempt) -> Self {
        AttemptView {
            id: a.id.clone(),
            attempt_number: a.attempt_number,
            tx_hash: a.tx_hash.clone(),
            ledger_seq: a.ledger_seq,
            error_code: a.error_code.clone(),
            error_message: a.error_message.clone(),
            created_at: a.created_at,
        }
    }
}

/// A payout in full, with every attempt.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutView {
    pub id: String,
    #[serde(rename = "type")]
    pub payout_type: String,
    pub client_id: Option<String>,
    pub client: Option<PayoutClient>,
    pub wallet_account_id: String,
    pub asset_amount: String,
    pub asset_code: String,
    /// null for the native asset (XLM).
    pub asset_issuer: Option<String>,
    pub memo: Option<String>,
    pub approval_status: String,
    pub exec_status: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
    pub attempts: Vec<AttemptView>,
}

impl PayoutSummary {
    fn from_detail(d: &PayoutDetail) -> Self {
        let p = &d.payout;
        PayoutSummary {
            id: p.id.clone(),
            payout_type: p.payout_type.as_str().to_owned(),
            client_id: p.client_id.clone(),
            client: d.client.as_ref().map(|c| PayoutClientSummary {
                id: c.id.clone(),
                first_name: c.first_name.clone(),
                last_name: c.last_name.clone(),
                wallet_account_id: c.wallet_account_id.clone(),
            }),
            wallet_account_id: p.wallet_account_id.clone(),
            asset_amount: money(p.asset_amount),
            asset_code: p.asset_code.clone(),
            memo: p.memo.clone(),
            approval_status: p.approval.as_str().to_owned(),
            exec_status: p.exec.as_str().to_owned(),
            created_at: p.created_at,
        }
    }
}

impl PayoutView {
    pub fn from_detail(d: &PayoutDetail) -> Self {
        let p = &d.payout;
        PayoutView {
            id: p.id.clone(),
            payout_type: p.payout_type.as_str().to_owned(),
            client_id: p.client_id.clone(),
            client: d.client.as_ref().map(|c| PayoutClient {
                id: c.id.clone(),
                first_name: c.first_name.clone(),
                last_name: c.last_name.clone(),
                wallet_account_id: c.wallet_account_id.clone(),
                phone_number: c.phone_number.clone(),
                email: c.email.clone(),
            }),
            wallet_account_id: p.wallet_account_id.clone(),
            asset_amount: money(p.asset_amount),
            asset_code: p.asset_code.clone(),
            asset_issuer: p.asset_issuer.clone(),
            memo: p.memo.clone(),
            approval_status: p.approval.as_str().to_owned(),
            exec_status: p.exec.as_str().to_owned(),
            created_at: p.created_at,
            updated_at: p.updated_at,
            attempts: d.attempts.iter().map(AttemptView::from).collect(),
        }
    }
}

/// The event for a payout change: the payout in full.
pub fn payout_event(d: &PayoutDetail) -> NewEvent {
    NewEvent {
        event_type: "payout.created",
        object: serde_json::to_value(PayoutView::from_detail(d)).unwrap_or_default(),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PayoutCountsView {
    pub all: u64,
    pub pending_approval: u64,
    pub approved: u64,
    pub rejected: u64,
    pub executing: u64,
    pub completed: u64,
    pub failed: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PayoutList {
    pub data: Vec<PayoutSummary>,
    pub pagination: PaginationView,
    /// Per status filter, with the same `type` and `search`; they add up to `all`.
    pub counts: PayoutCountsView,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PayoutFilters {
    /// pending_approval, approved (approved, not yet queued), rejected, executing (ready_to_send),
    /// completed (sent) or failed.
    pub status: Option<String>,
    /// direct or disbursement.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub payout_type: Option<String>,
    /// Matches the client's name or the wallet address.
    pub search: Option<String>,
}

#[utoipa::path(get, path = "/v1/payouts", tag = "Payouts", params(PayoutFilters, PageParams),
    responses((status = 200, body = PayoutList), (status = 400, body = ErrorBody)))]
pub async fn list(
    auth: Authed<PayoutsRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
    ApiQuery(f): ApiQuery<PayoutFilters>,
) -> ApiResult<Json<PayoutList>> {
    let bad = |field: &str, e: String| ApiError::validation(vec![FieldError::new(field, e)]);
    let filter = f.status.as_deref().map(str::parse::<PayoutFilter>).transpose().map_err(|e| bad("status", e))?;
    let payout_type = f.payout_type.as_deref().map(str::parse::<PayoutType>).transpose().map_err(|e| bad("type", e))?;
    let (found, counts) =
        state.store.list_payouts(auth.tenant(), &PayoutQuery { filter, payout_type, search: f.search, page }).await?;
    let count = |f: PayoutFilter| counts.by_filter.get(f.as_str()).copied().unwrap_or(0);
    Ok(Json(PayoutList {
        data: found.items.iter().map(PayoutSummary::from_detail).collect(),
        pagination: PaginationView::of(&found),
        counts: PayoutCountsView {
            all: counts.all,
            pending_approval: count(PayoutFilter::PendingApproval),
            approved: count(PayoutFilter::Approved),
            rejected: count(PayoutFilter::Rejected),
            executing: count(PayoutFilter::Executing),
            completed: count(PayoutFilter::Completed),
            failed: count(PayoutFilter::Failed),
        },
    }))
}

#[utoipa::path(get, path = "/v1/payouts/{id}", tag = "Payouts", params(("id" = String, Path)),
    responses((status = 200, body = PayoutView), (status = 404, body = ErrorBody)))]
pub async fn fetch(
    auth: Authed<PayoutsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<PayoutView>> {
    let d = state.store.get_payout(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("payout"))?;
    Ok(Json(PayoutView::from_detail(&d)))
}

/// A payout to a client's wallet (`clientId`) or to a wallet given directly.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreatePayout {
    /// One of clientId / walletAccountId is required; with clientId the client's wallet is used.
    pub client_id: Option<String>,
    /// A Stellar account (StrKey `G...`, checksum verified).
    pub wallet_account_id: Option<String>,
    /// Positive, at most 2 decimals; read exactly.
    #[schema(value_type = f64, required = true, example = 100)]
    pub asset_amount: Option<ExactNumber>,
    /// 1 to 12 letters or digits, e.g. USDC, HTG, XLM.
    #[schema(required = true, example = "USDC")]
    pub asset_code: Option<String>,
    /// The asset's issuer; default: the configured issuer for the code; refused for XLM.
    pub asset_issuer: Option<String>,
    /// The Stellar text memo the recipient's wallet shows: at most 28 bytes of UTF-8 (28 ASCII
    /// characters; é and other accented letters take 2 bytes), no control characters.
    pub memo: Option<String>,
}

#[utoipa::path(post, path = "/v1/payouts", tag = "Payouts", request_body = CreatePayout,
    params(IdempotencyKeyHeader),
    responses((status = 201, body = PayoutView), (status = 400, body = ErrorBody, description = "checked in this order: missing_recipient, invalid_client, no_wallet, invalid_wallet, invalid_amount, invalid_asset_code, invalid_memo, invalid_asset_issuer")))]
pub async fn create(
    auth: Authed<PayoutsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<CreatePayout>,
) -> ApiResult<(StatusCode, Json<PayoutView>)> {
    let tenant = auth.tenant();
    if body.client_id.is_none() && body.wallet_account_id.is_none() {
        return Err(Invalid::new("missing_recipient", "Give a clientId or a walletAccountId").into());
    }
    let client = match &body.client_id {
        None => None,
        Some(id) => Some(
            state
                .store
                .get_client(tenant, id)
                .await?
                .ok_or_else(|| Invalid::new("invalid_client", format!("No client with id {id:?}")))?,
        ),
    };
    let wallet = match (&body.wallet_account_id, &client) {
        (Some(w), _) => w.clone(),
        (None, Some(c)) => c
            .wallet_account_id
            .clone()
            .ok_or_else(|| Invalid::new("no_wallet", "This client has no walletAccountId; add one or give a wallet"))?,
        (None, None) => return Err(Invalid::new("missing_recipient", "Give a clientId or a walletAccountId").into()),
    };
    let wallet =
        WalletAddress::parse(&wallet).map_err(|e| Invalid::new("invalid_wallet", format!("walletAccountId {e}")))?;
    let amount = body
        .asset_amount
        .as_ref()
        .ok_or_else(|| ApiError::validation(vec![FieldError::new("assetAmount", "is required")]))?;
    let amount = parse_amount("assetAmount", &amount.text())?;
    let code = body
        .asset_code
        .as_deref()
        .ok_or_else(|| ApiError::validation(vec![FieldError::new("assetCode", "is required")]))?;
    let code = AssetCode::parse(code)?;
    let memo = body.memo.as_deref().map(parse_memo).transpose()?.filter(|m| !m.is_empty());
    let issuer = match (&body.asset_issuer, code.is_native()) {
        (Some(_), true) => {
            return Err(Invalid::new("invalid_asset_issuer", "XLM is the native asset and has no issuer").into());
        }
        (None, true) => None,
        (Some(given), false) => Some(
            WalletAddress::parse(given)
                .map_err(|e| Invalid::new("invalid_asset_issuer", format!("assetIssuer {e}")))?
                .as_str()
                .to_owned(),
        ),
        (None, false) => {
            Some(issuer(tenant.env, code.as_str(), &state.config.live_asset_issuers).ok_or_else(|| {
                Invalid::new("invalid_asset_issuer", format!("No issuer is configured for {code}: give assetIssuer"))
            })?)
        }
    };
    let settings = state.store.get_settings(tenant).await?;
    let approval = if settings.payout_approval_required { ApprovalStatus::Pending } else { ApprovalStatus::Approved };
    let now = Timestamp::now();
    let payout = Payout {
        id: IdKind::Payout.generate(),
        payout_type: PayoutType::Direct,
        client_id: client.map(|c| c.id),
        wallet_account_id: wallet.as_str().to_owned(),
        asset_amount: amount,
        asset_code: code.as_str().to_owned(),
        asset_issuer: issuer,
        memo,
        approval,
        exec: ExecStatus::Pending,
        created_by_key: auth.0.key_id.clone(),
        created_at: now,
        updated_at: now,
    };
    let events: &[&'static str] =
        if approval == ApprovalStatus::Approved { &["payout.created", "payout.approved"] } else { &["payout.created"] };
    // The response is stored with the payout itself, so a retry after a crash replays it and
    // never creates a second payout.
    let render = |d: &PayoutDetail| json_bytes(&PayoutView::from_detail(d));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let d = state.store.create_payout(tenant, &payout, events, &payout_event, answer).await?;
    state.wake_executor();
    Ok((StatusCode::CREATED, Json(PayoutView::from_detail(&d))))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RejectPayout {
    /// Why it was refused (optional, at most 500 characters, no control characters but line
    /// breaks).
    pub reason: Option<String>,
}

async fn act(
    state: &AppState,
    auth: &crate::auth::AuthContext,
    idempotency: &Idempotency,
    id: &str,
    action: PayoutAction,
    reason: Option<&str>,
) -> ApiResult<Json<PayoutView>> {
    let distinct = state.store.get_settings(&auth.tenant).await?.require_distinct_approver;
    let render = |d: &PayoutDetail| json_bytes(&PayoutView::from_detail(d));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let now = Timestamp::now();
    let d = state
        .store
        .payout_action(&auth.tenant, id, action, &auth.key_id, distinct, reason, now, &payout_event, answer)
        .await
        .map_err(ApiError::not_found_as("payout"))?;
    state.wake_executor();
    Ok(Json(PayoutView::from_detail(&d)))
}

#[utoipa::path(post, path = "/v1/payouts/{id}/approve", tag = "Payouts", params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = PayoutView), (status = 400, body = ErrorBody, description = "cannot_approve"), (status = 403, body = ErrorBody, description = "the key lacks payouts:approve"), (status = 404, body = ErrorBody)))]
pub async fn approve(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<PayoutView>> {
    act(&state, &auth.0, &idempotency, &id, PayoutAction::Approve, None).await
}

#[utoipa::path(post, path = "/v1/payouts/{id}/reject", tag = "Payouts", params(("id" = String, Path), IdempotencyKeyHeader),
    request_body(content = RejectPayout, description = "Optional"),
    responses((status = 200, body = PayoutView), (status = 400, body = ErrorBody, description = "cannot_reject"), (status = 404, body = ErrorBody)))]
pub async fn reject(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<RejectPayout>,
) -> ApiResult<Json<PayoutView>> {
    let reason = parse_reason(body.reason.as_deref())?;
    act(&state, &auth.0, &idempotency, &id, PayoutAction::Reject, reason.as_deref()).await
}

#[utoipa::path(post, path = "/v1/payouts/{id}/retry", tag = "Payouts", params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = PayoutView), (status = 400, body = ErrorBody, description = "cannot_retry"), (status = 404, body = ErrorBody)))]
pub async fn retry(
    auth: Authed<PayoutsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<PayoutView>> {
    act(&state, &auth.0, &idempotency, &id, PayoutAction::Retry, None).await
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AssetList {
    pub data: Vec<AssetView>,
}

#[utoipa::path(get, path = "/v1/assets", tag = "Payouts", responses((status = 200, body = AssetList)))]
pub async fn assets(auth: Authed<PayoutsRead>, State(state): State<AppState>) -> Json<AssetList> {
    Json(AssetList { data: usable(auth.tenant().env, &state.config.live_asset_issuers) })
}
