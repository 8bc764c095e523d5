//! Disbursements: create a draft from JSON or CSV, list, get, the items (JSON or the CSV
//! report), submit, approve, reject, retry the failed items, delete a draft.

use super::common::{Deleted, IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{DisbursementsRead, DisbursementsWrite, PayoutsApprove};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{
    ApiQuery, ExactNumber, MAX_UPLOAD_BYTES, OptionalJson, Pagination, RawBody, content_type_is, is_json, parse_json,
    search_text,
};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::FieldError;
use lajan_domain::disbursement::{Disbursement, DisbursementSource, DisbursementStatus, ItemStatus};
use lajan_domain::validation::parse_reason;
use lajan_services::ServiceResult;
use lajan_services::disbursements::{DisbursementRequest, ItemRequest};
use lajan_services::views::disbursements::{DisbursementItemView, DisbursementView};
use lajan_store::IdempotentResponse;
use lajan_store::disbursements::DisbursementQuery;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/disbursements", get(list).post(create).layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES)))
        .route("/disbursements/{id}", get(fetch).delete(delete))
        .route("/disbursements/{id}/items", get(items))
        .route("/disbursements/{id}/submit", post(submit))
        .route("/disbursements/{id}/approve", post(approve))
        .route("/disbursements/{id}/reject", post(reject))
        .route("/disbursements/{id}/retry-failed", post(retry_failed))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DisbursementList {
    pub data: Vec<DisbursementView>,
    pub pagination: PaginationView,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DisbursementItemList {
    pub data: Vec<DisbursementItemView>,
    pub pagination: PaginationView,
}

fn bad(field: &str, message: String) -> ApiError {
    ApiError::validation(vec![FieldError::new(field, message)])
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct DisbursementFilters {
    /// draft, pending_approval, approved, processing, completed, partially_failed, failed or
    /// rejected.
    #[param(inline, value_type = Option<super::doc_types::DisbursementStatusFilter>)]
    pub status: Option<String>,
    /// Matches the name, case-insensitively.
    pub search: Option<String>,
}

#[utoipa::path(get, operation_id = "listDisbursements", path = "/v1/disbursements", tag = "Disbursements", params(DisbursementFilters, PageParams),
    responses((status = 200, body = DisbursementList), (status = 400, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<DisbursementsRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
    ApiQuery(f): ApiQuery<DisbursementFilters>,
) -> ApiResult<Json<DisbursementList>> {
    let status = f.status.as_deref().map(str::parse::<DisbursementStatus>).transpose().map_err(|e| bad("status", e))?;
    let found = state
        .store
        .list_disbursements(auth.tenant(), &DisbursementQuery { status, search: search_text(f.search)?, page })
        .await?;
    Ok(Json(DisbursementList {
        data: found.items.iter().map(DisbursementView::from).collect(),
        pagination: PaginationView::of(&found),
    }))
}

#[utoipa::path(get, operation_id = "getDisbursement", path = "/v1/disbursements/{id}", tag = "Disbursements", params(("id" = String, Path)),
    responses((status = 200, body = DisbursementView), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<DisbursementsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<DisbursementView>> {
    let d =
        state.store.get_disbursement(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("disbursement"))?;
    Ok(Json(DisbursementView::from(&d)))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ItemFilters {
    /// pending, executing, sent, failed or rejected (the `counts` keys).
    #[param(inline, value_type = Option<super::doc_types::ItemStatusFilter>)]
    pub status: Option<String>,
}

#[utoipa::path(get, operation_id = "listDisbursementItems", path = "/v1/disbursements/{id}/items", tag = "Disbursements",
    params(("id" = String, Path), ItemFilters, PageParams,
        ("Accept" = Option<String>, Header, description = "text/csv for the whole batch (every page, same filter) as a CSV report with the same columns")),
    responses(
        (status = 200, description = "A page of items in row order, or with Accept: text/csv the report", content(
            (DisbursementItemList = "application/json"),
            (String = "text/csv", example = "id,row,externalId,clientId,walletAccountId,assetAmount,memo,payoutId,approvalStatus,execStatus,txHash,errorCode,errorMessage\r\n"),
        )),
        (status = 404, body = ErrorBody)))]
pub(crate) async fn items(
    auth: Authed<DisbursementsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    headers: HeaderMap,
    Pagination(page): Pagination,
    ApiQuery(f): ApiQuery<ItemFilters>,
) -> ApiResult<Response> {
    let status = f.status.as_deref().map(str::parse::<ItemStatus>).transpose().map_err(|e| bad("status", e))?;
    let not_found = ApiError::not_found_as("disbursement");
    if super::common::wants_csv(&headers) {
        let all = state.store.disbursement_report(auth.tenant(), &id, status).await.map_err(not_found)?;
        let views: Vec<DisbursementItemView> = all.iter().map(DisbursementItemView::from).collect();
        let csv = lajan_services::report::items_csv(&views).map_err(|e| ApiError::internal(&e))?;
        return Ok(super::common::csv_attachment(csv, &format!("{id}-items.csv")));
    }
    let found = state.store.list_disbursement_items(auth.tenant(), &id, status, page).await.map_err(not_found)?;
    Ok(Json(DisbursementItemList {
        data: found.items.iter().map(DisbursementItemView::from).collect(),
        pagination: PaginationView::of(&found),
    })
    .into_response())
}

/// A disbursement given as JSON.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CreateDisbursement {
    /// What the batch pays, for people: at most 200 characters.
    #[schema(required = true, nullable = false, example = "June stipends")]
    pub name: Option<String>,
    /// 1 to 12 letters or digits, e.g. USDC, HTG, XLM; every item pays this asset.
    #[schema(required = true, nullable = false, example = "USDC")]
    pub asset_code: Option<String>,
    /// Default: the configured issuer for the code; refused for XLM.
    pub asset_issuer: Option<String>,
    /// 1 to 10,000 items; `row` in errors and in the items is the place in this list, from 1.
    #[schema(required = true, nullable = false, min_items = 1, max_items = 10000)]
    pub items: Option<Vec<CreateDisbursementItem>>,
}

/// One payout of the batch, validated as a single payout is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CreateDisbursementItem {
    /// One of clientId / walletAccountId / phoneNumber / email is required; with clientId the
    /// client's wallet is used, and when both are given the wallet must be the client's (else
    /// invalid_wallet).
    pub client_id: Option<String>,
    pub wallet_account_id: Option<String>,
    /// Positive, a plain decimal with at most 2 decimals as written (1e2 and 10.000 are refused); read exactly.
    #[schema(value_type = f64, required = true, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 125.5)]
    pub asset_amount: Option<ExactNumber>,
    /// At most 28 bytes of UTF-8.
    pub memo: Option<String>,
    /// Your reference for the item (at most 100 characters), unique in the batch.
    pub external_id: Option<String>,
    /// Instead of clientId or walletAccountId: the receiver's phone number (as people write it;
    /// without a country code, one of the organization's `country`) and/or email.
    /// The organization's client with that contact is paid (a wallet or not: without one the
    /// payout waits in awaiting_registration); when there is none, a client is made from this
    /// row (firstName and lastName then required) when the draft is stored.
    #[schema(example = "+50937000000")]
    pub phone_number: Option<String>,
    pub email: Option<String>,
    /// For a client this row makes.
    pub first_name: Option<String>,
    /// For a client this row makes.
    pub last_name: Option<String>,
    /// For a client this row makes: what the receiver must answer before registering a wallet.
    pub verification: Option<super::clients::VerificationRequest>,
}

/// The batch's fields when the items come as CSV (with JSON, each stands in for the body's field
/// of the same name when the body leaves it out); any other parameter is refused, as an unknown
/// JSON field is.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CsvParams {
    /// The disbursement's name (with a JSON body, only when the body has no `name`).
    pub name: Option<String>,
    /// The asset every item pays (with a JSON body, only when the body has no `assetCode`).
    pub asset_code: Option<String>,
    /// The asset's issuer, default the configured one (with a JSON body, only when the body has
    /// no `assetIssuer`).
    pub asset_issuer: Option<String>,
}

#[utoipa::path(post, operation_id = "createDisbursement", path = "/v1/disbursements", tag = "Disbursements",
    request_body(description = "JSON, or text/csv with a header row naming any of clientId, walletAccountId, assetAmount, memo, externalId (a UTF-8 BOM and CRLF accepted; up to 10,000 rows and 5 MiB) and the batch's fields as query parameters",
        content(
            (CreateDisbursement = "application/json"),
            (String = "text/csv", example = "walletAccountId,assetAmount,memo,externalId\r\nGBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H,125.50,June stipend,emp-0001\r\n"),
        )),
    params(CsvParams, IdempotencyKeyHeader),
    responses((status = 201, body = DisbursementView, description = "The draft"),
        (status = 400, body = ErrorBody, description = "validation_error, invalid_asset_code or invalid_asset_issuer for the batch; invalid_csv for a CSV that cannot be read; invalid_items with one detail per bad row (row, field, code, message), checked as a single payout is (missing_recipient, invalid_client, no_wallet, invalid_wallet, invalid_amount, invalid_memo) then invalid_external_id, duplicate_external_id, invalid_row"),
        (status = 413, body = ErrorBody, description = "payload_too_large: the body is over 5 MiB"),
        (status = 415, body = ErrorBody, description = "neither application/json nor text/csv")))]
pub(crate) async fn create(
    auth: Authed<DisbursementsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<CsvParams>,
    RawBody(body): RawBody,
) -> ApiResult<(StatusCode, Json<DisbursementView>)> {
    let request = if is_json(&headers) {
        let body: CreateDisbursement = parse_json(&body)?;
        let items = body.items.ok_or_else(|| bad("items", "is required".into()))?;
        let items = items
            .into_iter()
            .zip(1u32..)
            .map(|(i, row)| ItemRequest {
                row,
                client_id: i.client_id,
                wallet_account_id: i.wallet_account_id,
                asset_amount: i.asset_amount.map(|n| n.text()),
                memo: i.memo,
                external_id: i.external_id,
                phone_number: i.phone_number,
                email: i.email,
                first_name: i.first_name,
                last_name: i.last_name,
                verification: i.verification.map(super::clients::VerificationRequest::input),
            })
            .collect();
        // The query's batch fields stand in for those the body leaves out; the body's win.
        DisbursementRequest {
            name: body.name.or(query.name),
            asset_code: body.asset_code.or(query.asset_code),
            asset_issuer: body.asset_issuer.or(query.asset_issuer),
            source: DisbursementSource::Json,
            items,
            row_errors: Vec::new(),
        }
    } else if content_type_is(&headers, "text/csv") {
        let (items, row_errors) = lajan_services::disbursement_csv::read_items(&body)?;
        DisbursementRequest {
            name: query.name,
            asset_code: query.asset_code,
            asset_issuer: query.asset_issuer,
            source: DisbursementSource::Csv,
            items,
            row_errors,
        }
    } else {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Send the items as JSON (Content-Type: application/json) or as CSV (Content-Type: text/csv)",
        ));
    };
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let d = state.services.create_disbursement(auth.tenant(), request, answer).await?;
    Ok((StatusCode::CREATED, Json(DisbursementView::from(&d))))
}

fn render(d: &Disbursement) -> Vec<u8> {
    json_bytes(&DisbursementView::from(d))
}

/// One of a disbursement's actions (`run`, given the request's idempotent answer), answered with
/// the disbursement as it left it.
async fn act<'a, Fut>(
    idempotency: &'a Idempotency,
    run: impl FnOnce(Option<IdempotentResponse<'a, Disbursement>>) -> Fut,
) -> ApiResult<Json<DisbursementView>>
where
    Fut: std::future::Future<Output = ServiceResult<Disbursement>>,
{
    let d = run(idempotency.respond(StatusCode::OK, &render)).await?;
    Ok(Json(DisbursementView::from(&d)))
}

#[utoipa::path(post, operation_id = "submitDisbursement", path = "/v1/disbursements/{id}/submit", tag = "Disbursements",
    params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = DisbursementView, description = "Pending approval (or approved, when the organization requires no approval), with one payout per item"),
        (status = 400, body = ErrorBody, description = "cannot_submit: not a draft; insufficient_balance when approved at once"),
        (status = 503, body = ErrorBody, description = "ledger_unavailable: the live balance could not be read")))]
pub(crate) async fn submit(
    auth: Authed<DisbursementsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<DisbursementView>> {
    act(&idempotency, |answer| state.services.submit_disbursement(auth.tenant(), &id, answer)).await
}

#[utoipa::path(post, operation_id = "approveDisbursement", path = "/v1/disbursements/{id}/approve", tag = "Disbursements",
    params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = DisbursementView, description = "Approved with every payout"),
        (status = 400, body = ErrorBody, description = "cannot_approve: not pending approval, or the organization requires another key than the submitting one; insufficient_balance: the balance does not cover the batch plus approved payouts not yet sent (details: balance, committed, totalAmount, shortfall)"),
        (status = 503, body = ErrorBody, description = "ledger_unavailable: the live balance could not be read")))]
pub(crate) async fn approve(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<DisbursementView>> {
    act(&idempotency, |answer| state.services.approve_disbursement(auth.tenant(), &id, answer)).await
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RejectDisbursement {
    /// Why it was refused (optional, at most 500 characters).
    pub reason: Option<String>,
}

#[utoipa::path(post, operation_id = "rejectDisbursement", path = "/v1/disbursements/{id}/reject", tag = "Disbursements",
    params(("id" = String, Path), IdempotencyKeyHeader),
    request_body(content = RejectDisbursement, description = super::doc_types::OPTIONAL_BODY),
    responses((status = 200, body = DisbursementView, description = "Rejected with every payout"),
        (status = 400, body = ErrorBody, description = "cannot_reject: not pending approval")))]
pub(crate) async fn reject(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<RejectDisbursement>,
) -> ApiResult<Json<DisbursementView>> {
    let reason = parse_reason(body.reason.as_deref())?;
    act(&idempotency, |answer| state.services.reject_disbursement(auth.tenant(), &id, reason.as_deref(), answer)).await
}

#[utoipa::path(post, operation_id = "retryFailedDisbursementItems", path = "/v1/disbursements/{id}/retry-failed", tag = "Disbursements",
    params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = DisbursementView, description = "Every failed item queued again; the disbursement is processing"),
        (status = 400, body = ErrorBody, description = "cannot_retry: no failed item, or not approved")))]
pub(crate) async fn retry_failed(
    auth: Authed<DisbursementsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<DisbursementView>> {
    act(&idempotency, |answer| state.services.retry_failed_disbursement(auth.tenant(), &id, answer)).await
}

#[utoipa::path(delete, operation_id = "deleteDisbursement", path = "/v1/disbursements/{id}", tag = "Disbursements", params(("id" = String, Path)),
    responses((status = 200, body = Deleted), (status = 400, body = ErrorBody, description = "cannot_delete: only a draft can be deleted")))]
pub(crate) async fn delete(
    auth: Authed<DisbursementsWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<Deleted>> {
    state.services.delete_disbursement(auth.tenant(), &id).await?;
    Ok(Json(Deleted { id, deleted: true }))
}
