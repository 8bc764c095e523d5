//! An endpoint's deliveries: `GET /webhook-endpoints/{id}/deliveries`, `GET .../deliveries/{deliveryId}`
//! with every attempt, `POST .../deliveries/{deliveryId}/retry`, and `POST .../recover` for every
//! failed delivery of a window.

use super::common::{IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{WebhookEndpointsRead, WebhookEndpointsWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiQuery, Pagination};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::FieldError;
use lajan_domain::webhook::{Delivery, DeliveryStatus};
use lajan_services::views::webhooks::{DeliveryAttemptView, DeliveryView};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/webhook-endpoints/{id}/deliveries", get(list))
        .route("/webhook-endpoints/{id}/deliveries/{delivery_id}", get(fetch))
        .route("/webhook-endpoints/{id}/deliveries/{delivery_id}/retry", post(retry))
        .route("/webhook-endpoints/{id}/recover", post(recover))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DeliveryList {
    pub data: Vec<DeliveryView>,
    pub pagination: PaginationView,
}

/// A delivery with every attempt, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DeliveryDetail {
    #[serde(flatten)]
    pub delivery: DeliveryView,
    pub attempts: Vec<DeliveryAttemptView>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct DeliveryFilters {
    /// Only deliveries in this state: `pending`, `delivered` or `failed`.
    #[param(inline, value_type = Option<super::doc_types::DeliveryStatusFilter>)]
    pub status: Option<String>,
}

/// The endpoint's id and one of its deliveries' ids. Ids are opaque: unreadable ones find nothing.
pub(crate) struct DeliveryPath {
    endpoint_id: String,
    delivery_id: String,
}

impl<S: Send + Sync> FromRequestParts<S> for DeliveryPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<(String, String)>::from_request_parts(parts, state)
            .await
            .map(|Path((endpoint_id, delivery_id))| DeliveryPath { endpoint_id, delivery_id })
            .map_err(|_| ApiError::not_found("delivery"))
    }
}

#[utoipa::path(get, operation_id = "listWebhookDeliveries", path = "/v1/webhook-endpoints/{id}/deliveries", tag = "Webhook endpoints",
    params(("id" = String, Path), DeliveryFilters, PageParams),
    responses((status = 200, body = DeliveryList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<WebhookEndpointsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    Pagination(page): Pagination,
    ApiQuery(filters): ApiQuery<DeliveryFilters>,
) -> ApiResult<Json<DeliveryList>> {
    let status =
        filters.status.map(|s| s.parse::<DeliveryStatus>()).transpose().map_err(|_| {
            ApiError::validation(vec![FieldError::new("status", "must be pending, delivered or failed")])
        })?;
    let found = state
        .store
        .list_deliveries(auth.tenant(), &id, status, page)
        .await
        .map_err(ApiError::not_found_as("webhook endpoint"))?;
    let pagination = PaginationView::of(&found);
    Ok(Json(DeliveryList { data: found.items.iter().map(DeliveryView::from).collect(), pagination }))
}

#[utoipa::path(get, operation_id = "getWebhookDelivery", path = "/v1/webhook-endpoints/{id}/deliveries/{deliveryId}", tag = "Webhook endpoints",
    params(("id" = String, Path), ("deliveryId" = String, Path)),
    responses((status = 200, body = DeliveryDetail), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<WebhookEndpointsRead>,
    State(state): State<AppState>,
    path: DeliveryPath,
) -> ApiResult<Json<DeliveryDetail>> {
    let delivery = state
        .store
        .get_delivery(auth.tenant(), &path.endpoint_id, &path.delivery_id)
        .await?
        .ok_or_else(|| ApiError::not_found("delivery"))?;
    let attempts = state.store.delivery_attempts(auth.tenant(), &delivery.id).await?;
    Ok(Json(DeliveryDetail {
        delivery: DeliveryView::from(&delivery),
        attempts: attempts.iter().map(DeliveryAttemptView::from).collect(),
    }))
}

#[utoipa::path(post, operation_id = "retryWebhookDelivery", path = "/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry", tag = "Webhook endpoints",
    params(("id" = String, Path), ("deliveryId" = String, Path), IdempotencyKeyHeader),
    responses((status = 202, body = DeliveryView, description = "Due now, with the same webhook-id; one being sent is left to finish"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn retry(
    auth: Authed<WebhookEndpointsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    path: DeliveryPath,
) -> ApiResult<(StatusCode, Json<DeliveryView>)> {
    let render = |d: &Delivery| json_bytes(&DeliveryView::from(d));
    let answer = idempotency.respond(StatusCode::ACCEPTED, &render);
    let delivery = state.services.retry_delivery(auth.tenant(), &path.endpoint_id, &path.delivery_id, answer).await?;
    Ok((StatusCode::ACCEPTED, Json(DeliveryView::from(&delivery))))
}

/// The window of a recovery: failed deliveries created from `since` until `until`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct RecoverDeliveries {
    /// RFC 3339, at most 14 days ago.
    #[schema(required = true, nullable = false, format = DateTime, example = "2026-11-20T00:00:00Z")]
    pub since: Option<String>,
    /// RFC 3339, after `since`; default now.
    #[schema(format = DateTime)]
    pub until: Option<String>,
}

/// How many failed deliveries are due again.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Recovered {
    pub recovered: u64,
}

#[utoipa::path(post, operation_id = "recoverWebhookDeliveries", path = "/v1/webhook-endpoints/{id}/recover", tag = "Webhook endpoints",
    params(("id" = String, Path), IdempotencyKeyHeader), request_body = RecoverDeliveries,
    responses((status = 202, body = Recovered, description = "Every failed delivery of the window is due now, each with its webhook-id"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn recover(
    auth: Authed<WebhookEndpointsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<RecoverDeliveries>,
) -> ApiResult<(StatusCode, Json<Recovered>)> {
    let render = |n: &u64| json_bytes(&Recovered { recovered: *n });
    let answer = idempotency.respond(StatusCode::ACCEPTED, &render);
    let recovered = state
        .services
        .recover_deliveries(auth.tenant(), &id, body.since.as_deref(), body.until.as_deref(), answer)
        .await?;
    Ok((StatusCode::ACCEPTED, Json(Recovered { recovered })))
}
