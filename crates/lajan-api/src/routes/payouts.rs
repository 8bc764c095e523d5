//! Payouts: list (with `counts`), get, create, approve, reject, retry; and `GET /assets`.

use super::common::{IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::auth::scope::{PayoutsApprove, PayoutsRead, PayoutsWrite};
use crate::auth::{AuthContext, Authed};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiQuery, ExactNumber, OptionalJson, Pagination, search_text};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::FieldError;
use lajan_domain::payout::{PayoutAction, PayoutDetail, PayoutFilter, PayoutType};
use lajan_domain::validation::parse_reason;
use lajan_services::assets::{AssetView, usable};
use lajan_services::payouts::PayoutRequest;
use lajan_services::views::payouts::{PayoutSummary, PayoutView};
use lajan_store::payouts::PayoutQuery;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/payouts", get(list).post(create))
        .route("/payouts/{id}", get(fetch))
        .route("/payouts/{id}/approve", post(approve))
        .route("/payouts/{id}/reject", post(reject))
        .route("/payouts/{id}/retry", post(retry))
        .route("/payouts/{id}/cancel", post(cancel))
        .route("/assets", get(assets))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PayoutCountsView {
    pub all: u64,
    pub pending_approval: u64,
    pub approved: u64,
    /// Approved, waiting for the client to register a wallet.
    pub awaiting_registration: u64,
    pub rejected: u64,
    pub executing: u64,
    pub completed: u64,
    pub failed: u64,
    pub canceled: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PayoutList {
    pub data: Vec<PayoutSummary>,
    pub pagination: PaginationView,
    /// Per status filter, with the same `type` and `search`; they add up to `all`.
    pub counts: PayoutCountsView,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct PayoutFilters {
    /// pending_approval, approved (approved, not yet queued), awaiting_registration (approved,
    /// waiting for the client to register a wallet), rejected, executing (ready_to_send),
    /// completed (sent), failed or canceled.
    #[param(inline, value_type = Option<super::doc_types::PayoutStatusFilter>)]
    pub status: Option<String>,
    /// direct or disbursement.
    #[serde(rename = "type")]
    #[param(rename = "type", inline, value_type = Option<super::doc_types::PayoutTypeFilter>)]
    pub payout_type: Option<String>,
    /// Matches the client's name or the wallet address.
    pub search: Option<String>,
}

#[utoipa::path(get, operation_id = "listPayouts", path = "/v1/payouts", tag = "Payouts", params(PayoutFilters, PageParams),
    responses((status = 200, body = PayoutList), (status = 400, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<PayoutsRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
    ApiQuery(f): ApiQuery<PayoutFilters>,
) -> ApiResult<Json<PayoutList>> {
    let bad = |field: &str, e: String| ApiError::validation(vec![FieldError::new(field, e)]);
    let filter = f.status.as_deref().map(str::parse::<PayoutFilter>).transpose().map_err(|e| bad("status", e))?;
    let payout_type = f.payout_type.as_deref().map(str::parse::<PayoutType>).transpose().map_err(|e| bad("type", e))?;
    let (found, counts) = state
        .store
        .list_payouts(auth.tenant(), &PayoutQuery { filter, payout_type, search: search_text(f.search)?, page })
        .await?;
    let count = |f: PayoutFilter| counts.by_filter.get(f.as_str()).copied().unwrap_or(0);
    Ok(Json(PayoutList {
        data: found.items.iter().map(PayoutSummary::from_detail).collect(),
        pagination: PaginationView::of(&found),
        counts: PayoutCountsView {
            all: counts.all,
            pending_approval: count(PayoutFilter::PendingApproval),
            approved: count(PayoutFilter::Approved),
            awaiting_registration: count(PayoutFilter::AwaitingRegistration),
            rejected: count(PayoutFilter::Rejected),
            executing: count(PayoutFilter::Executing),
            completed: count(PayoutFilter::Completed),
            failed: count(PayoutFilter::Failed),
            canceled: count(PayoutFilter::Canceled),
        },
    }))
}

#[utoipa::path(get, operation_id = "getPayout", path = "/v1/payouts/{id}", tag = "Payouts", params(("id" = String, Path)),
    responses((status = 200, body = PayoutView), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
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
pub(crate) struct CreatePayout {
    /// One of clientId / walletAccountId is required; with clientId the client's wallet is used, and
    /// when both are given the wallet must be the client's (else invalid_wallet).
    pub client_id: Option<String>,
    /// A Stellar account (StrKey `G...`, checksum verified).
    pub wallet_account_id: Option<String>,
    /// Positive, a plain decimal with at most 2 decimals as written (1e2 and 10.000 are refused); read exactly.
    #[schema(value_type = f64, required = true, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 100)]
    pub asset_amount: Option<ExactNumber>,
    /// 1 to 12 letters or digits, e.g. USDC, HTG, XLM.
    #[schema(required = true, nullable = false, example = "USDC")]
    pub asset_code: Option<String>,
    /// The asset's issuer; default: the configured issuer for the code; refused for XLM.
    pub asset_issuer: Option<String>,
    /// The Stellar text memo the recipient's wallet shows: at most 28 bytes of UTF-8 (28 ASCII
    /// characters; é and other accented letters take 2 bytes), no control characters.
    pub memo: Option<String>,
}

#[utoipa::path(post, operation_id = "createPayout", path = "/v1/payouts", tag = "Payouts", request_body = CreatePayout,
    params(IdempotencyKeyHeader),
    responses((status = 201, body = PayoutView), (status = 400, body = ErrorBody, description = "checked in this order: missing_recipient, invalid_client, no_wallet, invalid_wallet, invalid_amount, invalid_asset_code, invalid_memo, invalid_asset_issuer; `code` is the first found, and `details` names every bad field with its own code")))]
pub(crate) async fn create(
    auth: Authed<PayoutsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<CreatePayout>,
) -> ApiResult<(StatusCode, Json<PayoutView>)> {
    let request = PayoutRequest {
        client_id: body.client_id,
        wallet_account_id: body.wallet_account_id,
        asset_amount: body.asset_amount.map(|n| n.text()),
        asset_code: body.asset_code,
        asset_issuer: body.asset_issuer,
        memo: body.memo,
    };
    // The response is stored with the payout itself, so a retry after a crash replays it and
    // never creates a second payout.
    let render = |d: &PayoutDetail| json_bytes(&PayoutView::from_detail(d));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let d = state.services.create_payout(auth.tenant(), request, answer).await?;
    Ok((StatusCode::CREATED, Json(PayoutView::from_detail(&d))))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RejectPayout {
    /// Why it was refused (optional, at most 500 characters, no control characters but line
    /// breaks).
    pub reason: Option<String>,
}

async fn act(
    state: &AppState,
    auth: &AuthContext,
    idempotency: &Idempotency,
    id: &str,
    action: PayoutAction,
    reason: Option<&str>,
) -> ApiResult<Json<PayoutView>> {
    let render = |d: &PayoutDetail| json_bytes(&PayoutView::from_detail(d));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let d = state.services.act_on_payout(&auth.tenant, id, action, reason, answer).await?;
    Ok(Json(PayoutView::from_detail(&d)))
}

#[utoipa::path(post, operation_id = "approvePayout", path = "/v1/payouts/{id}/approve", tag = "Payouts", params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = PayoutView), (status = 400, body = ErrorBody, description = "cannot_approve"), (status = 403, body = ErrorBody, description = "the key lacks payouts:approve"), (status = 404, body = ErrorBody)))]
pub(crate) async fn approve(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<PayoutView>> {
    act(&state, &auth.0, &idempotency, &id, PayoutAction::Approve, None).await
}

#[utoipa::path(post, operation_id = "rejectPayout", path = "/v1/payouts/{id}/reject", tag = "Payouts", params(("id" = String, Path), IdempotencyKeyHeader),
    request_body(content = RejectPayout, description = super::doc_types::OPTIONAL_BODY),
    responses((status = 200, body = PayoutView), (status = 400, body = ErrorBody, description = "cannot_reject"), (status = 404, body = ErrorBody)))]
pub(crate) async fn reject(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<RejectPayout>,
) -> ApiResult<Json<PayoutView>> {
    let reason = parse_reason(body.reason.as_deref())?;
    act(&state, &auth.0, &idempotency, &id, PayoutAction::Reject, reason.as_deref()).await
}

#[utoipa::path(post, operation_id = "retryPayout", path = "/v1/payouts/{id}/retry", tag = "Payouts", params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = PayoutView), (status = 400, body = ErrorBody, description = "cannot_retry"), (status = 404, body = ErrorBody)))]
pub(crate) async fn retry(
    auth: Authed<PayoutsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<PayoutView>> {
    act(&state, &auth.0, &idempotency, &id, PayoutAction::Retry, None).await
}

#[utoipa::path(post, operation_id = "cancelPayout", path = "/v1/payouts/{id}/cancel", tag = "Payouts", params(("id" = String, Path), IdempotencyKeyHeader),
    description = "Calls off an approved payout still waiting for its client to register a wallet (execStatus awaiting_registration): execStatus canceled, cancelReason requested, payout.canceled. Final: it cannot be retried. A disbursement's payout may be canceled alone; the disbursement's counts and status follow.",
    responses((status = 200, body = PayoutView), (status = 400, body = ErrorBody, description = "cannot_cancel: not approved, or not waiting for a registration"), (status = 404, body = ErrorBody)))]
pub(crate) async fn cancel(
    auth: Authed<PayoutsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<PayoutView>> {
    act(&state, &auth.0, &idempotency, &id, PayoutAction::Cancel, None).await
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AssetList {
    pub data: Vec<AssetView>,
}

#[utoipa::path(get, operation_id = "listPayoutAssets", path = "/v1/assets", tag = "Payouts", responses((status = 200, body = AssetList)))]
pub(crate) async fn assets(auth: Authed<PayoutsRead>, State(state): State<AppState>) -> Json<AssetList> {
    Json(AssetList { data: usable(auth.tenant().env, &state.services.config.live_asset_issuers) })
}
