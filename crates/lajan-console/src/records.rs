//! The clients and events lists.

use crate::guard::Signed;
use crate::lists::{ListQuery, Pager, given};
use crate::pages::{self, Frame, render};
use crate::state::Console;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use lajan_domain::event::EVENT_TYPES;
use lajan_services::views::clients::ClientView;
use lajan_store::{ClientQuery, EventQuery};
use minijinja::context;

pub async fn clients(State(console): State<Console>, signed: Signed, Query(query): Query<ListQuery>) -> Response {
    let frame = Frame::of(&signed.session);
    let (page, search) = match (query.page(), query.search()) {
        (Ok(page), Ok(search)) => (page, search),
        (Err(refused), _) | (_, Err(refused)) => return refused.into_response(),
    };
    let found = match console.services.store.list_clients(&signed.session.tenant(), &ClientQuery { search, page }).await
    {
        Ok(found) => found,
        Err(e) => return pages::failure(&e.into()),
    };
    let clients: Vec<ClientView> = found.items.iter().map(ClientView::from).collect();
    render(
        StatusCode::OK,
        "clients.html",
        context! { frame, clients, pager => Pager::of(&found, &query), search => given(&query.search) },
    )
}

pub async fn events(State(console): State<Console>, signed: Signed, Query(query): Query<ListQuery>) -> Response {
    let frame = Frame::of(&signed.session);
    let event_type = given(&query.kind).map(str::to_owned);
    if event_type.as_deref().is_some_and(|t| !EVENT_TYPES.contains(&t)) {
        return pages::message(StatusCode::BAD_REQUEST, "No such event type", "Choose a type from the list.");
    }
    let page = match query.page() {
        Ok(page) => page,
        Err(refused) => return refused.into_response(),
    };
    let listed = console
        .services
        .store
        .list_events(&signed.session.tenant(), &EventQuery { event_type, page, ..Default::default() })
        .await;
    let found = match listed {
        Ok(found) => found,
        Err(e) => return pages::failure(&e.into()),
    };
    let events: Vec<_> = found
        .items
        .iter()
        .map(|e| context! { id => e.id, kind => e.event_type, at => e.created_at.to_string(), object => object_id(&e.data) })
        .collect();
    render(
        StatusCode::OK,
        "events.html",
        context! { frame, events, types => EVENT_TYPES, pager => Pager::of(&found, &query), kind => given(&query.kind) },
    )
}

/// The id of the resource an event's stored data is about.
fn object_id(data: &str) -> Option<String> {
    let data: serde_json::Value = serde_json::from_str(data).ok()?;
    data.get("object")?.get("id")?.as_str().map(str::to_owned)
}
