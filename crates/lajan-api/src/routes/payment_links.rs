//! Payment links: `GET/POST /payment-links`, `GET/DELETE /payment-links/{id}`. A link collects
//! a fixed amount through a hosted payment page; DELETE takes it out of the API, deactivating
//! it first when it is still active.

use super::common::{Deleted, IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{PaymentLinksRead, PaymentLinksWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ExactNumber, Pagination};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use lajan_domain::Timestamp;
use lajan_domain::payment::PaymentLink;
use lajan_services::payment_links::PaymentLinkRequest;
use lajan_services::views::invoices::PaymentLinkView;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/payment-links", get(list).post(create))
        .route("/payment-links/{id}", get(fetch).delete(delete))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CreatePaymentLink {
    /// Positive, at most 2 decimal places and at most 922337203685.47; read exactly.
    #[schema(value_type = f64, required = true, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 500)]
    pub amount: Option<ExactNumber>,
    /// HTG or USD; default: the organization's `defaultCurrency`.
    #[schema(value_type = Option<crate::routes::doc_types::Currency>)]
    pub currency: Option<String>,
    /// One line, at most 500 characters.
    #[schema(required = true, nullable = false, example = "Membership fee 2027")]
    pub description: Option<String>,
    /// When the link stops accepting payments (RFC 3339, in the future and before
    /// 2100-01-01T00:00:00Z); default: never.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PaymentLinkList {
    pub data: Vec<PaymentLinkView>,
    pub pagination: PaginationView,
}

#[utoipa::path(get, operation_id = "listPaymentLinks", path = "/v1/payment-links", tag = "Payment links",
    params(PageParams),
    responses((status = 200, body = PaymentLinkList), (status = 400, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<PaymentLinksRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
) -> ApiResult<Json<PaymentLinkList>> {
    let found = state.store.list_payment_links(auth.tenant(), page).await?;
    let now = Timestamp::now();
    let pagination = PaginationView::of(&found);
    let data = found.items.iter().map(|l| PaymentLinkView::from_link(l, state.public_url(), now)).collect();
    Ok(Json(PaymentLinkList { data, pagination }))
}

#[utoipa::path(get, operation_id = "getPaymentLink", path = "/v1/payment-links/{id}", tag = "Payment links", params(("id" = String, Path)),
    responses((status = 200, body = PaymentLinkView), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<PaymentLinksRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<PaymentLinkView>> {
    let link =
        state.store.get_payment_link(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("payment link"))?;
    Ok(Json(PaymentLinkView::from_link(&link, state.public_url(), Timestamp::now())))
}

#[utoipa::path(post, operation_id = "createPaymentLink", path = "/v1/payment-links", tag = "Payment links", request_body = CreatePaymentLink,
    params(IdempotencyKeyHeader),
    responses((status = 201, body = PaymentLinkView), (status = 400, body = ErrorBody, description = "validation_error, invalid_amount or invalid_currency")))]
pub(crate) async fn create(
    auth: Authed<PaymentLinksWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<CreatePaymentLink>,
) -> ApiResult<(StatusCode, Json<PaymentLinkView>)> {
    let request = PaymentLinkRequest {
        amount: body.amount.map(|n| n.text()),
        currency: body.currency,
        description: body.description,
        expires_at: body.expires_at,
    };
    let public_url = state.public_url();
    let now = Timestamp::now();
    let view = |l: &PaymentLink| PaymentLinkView::from_link(l, public_url, now);
    let render = |l: &PaymentLink| json_bytes(&view(l));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let link = state.services.create_payment_link(auth.tenant(), request, answer).await?;
    Ok((StatusCode::CREATED, Json(view(&link))))
}

#[utoipa::path(delete, operation_id = "deletePaymentLink", path = "/v1/payment-links/{id}", tag = "Payment links", params(("id" = String, Path)),
    responses((status = 200, body = Deleted, description = "The link is gone from the API (GET answers 404, lists leave it out); an active link is deactivated, so its page no longer takes payments; payment_link.deactivated records its last state"), (status = 404, body = ErrorBody)))]
pub(crate) async fn delete(
    auth: Authed<PaymentLinksWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<Deleted>> {
    let link = state.services.delete_payment_link(auth.tenant(), &id).await?;
    Ok(Json(Deleted { id: link.id, deleted: true }))
}
