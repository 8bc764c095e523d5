//! Events: `GET /events` (newest first, filter by `type`) and `GET /events/{id}`.
//! Each event was written in the same transaction as the change it reports.

use super::common::{PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::EventsRead;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiQuery, Pagination};
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use lajan_domain::event::EVENT_TYPES;
use lajan_store::EventQuery;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) use lajan_services::views::events::EventView;

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/events", get(list)).route("/events/{id}", get(fetch))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct EventList {
    pub data: Vec<EventView>,
    pub pagination: PaginationView,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct EventFilters {
    /// Only events of this type, e.g. `client.created`.
    #[serde(rename = "type")]
    #[param(rename = "type", inline, value_type = Option<super::doc_types::EventTypeFilter>)]
    pub event_type: Option<String>,
}

#[utoipa::path(get, operation_id = "listEvents", path = "/v1/events", tag = "Events", params(EventFilters, PageParams),
    responses((status = 200, body = EventList), (status = 400, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<EventsRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
    ApiQuery(filters): ApiQuery<EventFilters>,
) -> ApiResult<Json<EventList>> {
    if let Some(unknown) = filters.event_type.as_deref().filter(|t| !EVENT_TYPES.contains(t)) {
        let message = format!("unknown event type {unknown:?}; see the Events tag for the catalogue");
        return Err(ApiError::validation(vec![lajan_domain::FieldError::new("type", message)]));
    }
    let query = EventQuery { event_type: filters.event_type, object_id: None, page };
    let found = state.store.list_events(auth.tenant(), &query).await?;
    let pagination = PaginationView::of(&found);
    let data = found
        .items
        .into_iter()
        .map(EventView::from_event)
        .collect::<Result<_, _>>()
        .map_err(|e| ApiError::internal(&e))?;
    Ok(Json(EventList { data, pagination }))
}

#[utoipa::path(get, operation_id = "getEvent", path = "/v1/events/{id}", tag = "Events", params(("id" = String, Path)),
    responses((status = 200, body = EventView), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<EventsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<EventView>> {
    let event = state.store.get_event(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("event"))?;
    Ok(Json(EventView::from_event(event).map_err(|e| ApiError::internal(&e))?))
}
