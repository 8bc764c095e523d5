//! Webhook endpoints: `GET/POST /webhook-endpoints`, `GET/PUT/DELETE /webhook-endpoints/{id}`,
//! `POST /webhook-endpoints/{id}/test` and `.../rotate-secret`. The secret is in the answers to a
//! create and a rotation only.

use super::common::{Deleted, IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use super::doc_types::EventSelector;
use crate::auth::Authed;
use crate::auth::scope::{WebhookEndpointsRead, WebhookEndpointsWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, Pagination, nullable};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::FieldError;
use lajan_domain::webhook::{Delivery, EndpointInput, EndpointPatchInput, WebhookEndpoint};
use lajan_services::views::webhooks::{CreatedWebhookEndpointView, DeliveryView, WebhookEndpointView};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/webhook-endpoints", get(list).post(create))
        .route("/webhook-endpoints/{id}", get(fetch).put(update).delete(remove))
        .route("/webhook-endpoints/{id}/test", post(send_test))
        .route("/webhook-endpoints/{id}/rotate-secret", post(rotate_secret))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct WebhookEndpointList {
    pub data: Vec<WebhookEndpointView>,
    pub pagination: PaginationView,
}

/// A new endpoint. `url` and `events` are required; it is enabled unless `enabled` is false.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CreateWebhookEndpoint {
    /// An absolute `https` (or `http`) URL, at most 2,048 characters; else 400 `invalid_url`.
    #[schema(
        required = true,
        nullable = false,
        pattern = r"^[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9._~!$&'()*+,;=:%-]+@)?(([A-Za-z0-9-]+\.)*[A-Za-z0-9-]*[A-Za-z][A-Za-z0-9-]*\.?|(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3})(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?([/?#][^\s\x00-\x1F\x7F-\x9F]*)?$",
        max_length = 2048,
        example = "https://books.example.ht/lajan/webhooks"
    )]
    pub url: Option<String>,
    /// Event names from the catalogue, area wildcards such as `invoice.*`, or `*`; anything
    /// else is 400 `invalid_events`, naming each unknown entry.
    #[schema(required = true, nullable = false, value_type = Option<Vec<EventSelector>>, min_items = 1,
        example = json!(["invoice.paid", "payout.*"]))]
    pub events: Option<Vec<String>>,
    #[schema(example = "Accounting system")]
    pub description: Option<String>,
    pub enabled: Option<bool>,
}

/// A change to an endpoint: fields left out are kept; `description: null` clears it;
/// `enabled: true` turns a disabled endpoint back on.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct UpdateWebhookEndpoint {
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>, nullable = false, pattern = r"^[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9._~!$&'()*+,;=:%-]+@)?(([A-Za-z0-9-]+\.)*[A-Za-z0-9-]*[A-Za-z][A-Za-z0-9-]*\.?|(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3})(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?([/?#][^\s\x00-\x1F\x7F-\x9F]*)?$", max_length = 2048)]
    pub url: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<Vec<EventSelector>>, nullable = false, min_items = 1)]
    pub events: Option<Option<Vec<String>>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub description: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<bool>, nullable = false)]
    pub enabled: Option<Option<bool>>,
}

#[utoipa::path(get, operation_id = "listWebhookEndpoints", path = "/v1/webhook-endpoints", tag = "Webhook endpoints", params(PageParams),
    responses((status = 200, body = WebhookEndpointList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<WebhookEndpointsRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
) -> ApiResult<Json<WebhookEndpointList>> {
    let found = state.store.list_webhook_endpoints(auth.tenant(), page).await?;
    let pagination = PaginationView::of(&found);
    Ok(Json(WebhookEndpointList { data: found.items.iter().map(WebhookEndpointView::from).collect(), pagination }))
}

#[utoipa::path(post, operation_id = "createWebhookEndpoint", path = "/v1/webhook-endpoints", tag = "Webhook endpoints", request_body = CreateWebhookEndpoint,
    params(IdempotencyKeyHeader),
    responses((status = 201, body = CreatedWebhookEndpointView, description = "The endpoint, with its signing secret: shown this once"),
        (status = 400, body = ErrorBody, description = "validation_error, invalid_url or invalid_events"), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn create(
    auth: Authed<WebhookEndpointsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<CreateWebhookEndpoint>,
) -> ApiResult<(StatusCode, Json<CreatedWebhookEndpointView>)> {
    let input =
        EndpointInput { url: body.url, events: body.events, description: body.description, enabled: body.enabled };
    let render = |e: &WebhookEndpoint| json_bytes(&CreatedWebhookEndpointView::from(e));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let endpoint = state.services.create_webhook_endpoint(auth.tenant(), input, answer).await?;
    Ok((StatusCode::CREATED, Json(CreatedWebhookEndpointView::from(&endpoint))))
}

#[utoipa::path(get, operation_id = "getWebhookEndpoint", path = "/v1/webhook-endpoints/{id}", tag = "Webhook endpoints", params(("id" = String, Path)),
    responses((status = 200, body = WebhookEndpointView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<WebhookEndpointsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<WebhookEndpointView>> {
    let endpoint = state
        .store
        .get_webhook_endpoint(auth.tenant(), &id)
        .await?
        .ok_or_else(|| ApiError::not_found("webhook endpoint"))?;
    Ok(Json(WebhookEndpointView::from(&endpoint)))
}

#[utoipa::path(put, operation_id = "updateWebhookEndpoint", path = "/v1/webhook-endpoints/{id}", tag = "Webhook endpoints", params(("id" = String, Path)),
    request_body = UpdateWebhookEndpoint,
    responses((status = 200, body = WebhookEndpointView), (status = 400, body = ErrorBody, description = "validation_error, invalid_url or invalid_events"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 415, body = ErrorBody)))]
pub(crate) async fn update(
    auth: Authed<WebhookEndpointsWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<UpdateWebhookEndpoint>,
) -> ApiResult<Json<WebhookEndpointView>> {
    // Only `description` clears; `null` anywhere else is a mistake, not "keep".
    let nulls: Vec<FieldError> = [
        ("url", body.url == Some(None)),
        ("events", body.events == Some(None)),
        ("enabled", body.enabled == Some(None)),
    ]
    .into_iter()
    .filter(|(_, null)| *null)
    .map(|(field, _)| FieldError::new(field, "must not be null"))
    .collect();
    if !nulls.is_empty() {
        return Err(ApiError::validation(nulls));
    }
    let patch = EndpointPatchInput {
        url: body.url.flatten(),
        events: body.events.flatten(),
        description: body.description,
        enabled: body.enabled.flatten(),
    };
    let endpoint = state.services.update_webhook_endpoint(auth.tenant(), &id, patch).await?;
    Ok(Json(WebhookEndpointView::from(&endpoint)))
}

#[utoipa::path(delete, operation_id = "deleteWebhookEndpoint", path = "/v1/webhook-endpoints/{id}", tag = "Webhook endpoints", params(("id" = String, Path)),
    responses((status = 200, body = Deleted), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn remove(
    auth: Authed<WebhookEndpointsWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<Deleted>> {
    state.services.delete_webhook_endpoint(auth.tenant(), &id).await?;
    Ok(Json(Deleted { id, deleted: true }))
}

#[utoipa::path(post, operation_id = "sendTestWebhookEvent", path = "/v1/webhook-endpoints/{id}/test", tag = "Webhook endpoints", params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 202, body = DeliveryView, description = "A webhook_endpoint.test event, queued for this endpoint alone"),
        (status = 400, body = ErrorBody, description = "endpoint_disabled"), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn send_test(
    auth: Authed<WebhookEndpointsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<(StatusCode, Json<DeliveryView>)> {
    let render = |d: &Delivery| json_bytes(&DeliveryView::from(d));
    let answer = idempotency.respond(StatusCode::ACCEPTED, &render);
    let delivery = state.services.send_test_event(auth.tenant(), &id, answer).await?;
    Ok((StatusCode::ACCEPTED, Json(DeliveryView::from(&delivery))))
}

#[utoipa::path(post, operation_id = "rotateWebhookEndpointSecret", path = "/v1/webhook-endpoints/{id}/rotate-secret", tag = "Webhook endpoints", params(("id" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = CreatedWebhookEndpointView, description = "The endpoint with its new secret, shown this once; for 24 h every delivery is signed with both"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn rotate_secret(
    auth: Authed<WebhookEndpointsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<CreatedWebhookEndpointView>> {
    let render = |e: &WebhookEndpoint| json_bytes(&CreatedWebhookEndpointView::from(e));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let endpoint = state.services.rotate_webhook_secret(auth.tenant(), &id, answer).await?;
    Ok(Json(CreatedWebhookEndpointView::from(&endpoint)))
}
