//! The clients and events lists.

use crate::actors::Names;
use crate::guard::Signed;
use crate::lists::{BadQuery, ListQuery, Pager, given};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use lajan_domain::event::EVENT_TYPES;
use lajan_i18n::say;
use lajan_services::views::clients::ClientView;
use lajan_store::{ClientQuery, EventQuery};
use minijinja::context;

pub async fn clients(State(console): State<Console>, signed: Signed, Query(query): Query<ListQuery>) -> Response {
    let frame = signed.frame();
    let parsed = query.search().and_then(|search| Ok(ClientQuery { search, page: query.page()? }));
    let store_query = match parsed {
        Ok(store_query) => store_query,
        Err(refused) => return refused.into_response(),
    };
    let found = match console.services.store.list_clients(&signed.session.tenant(), &store_query).await {
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
    let frame = signed.frame();
    let store_query = match event_query(&query) {
        Ok(store_query) => store_query,
        Err(refused) => return refused.into_response(),
    };
    let listed = console.services.store.list_events(&signed.session.tenant(), &store_query).await;
    let found = match listed {
        Ok(found) => found,
        Err(e) => return pages::failure(&e.into()),
    };
    let names = match Names::of(&console.services, &signed.session.tenant()).await {
        Ok(names) => names,
        Err(e) => return pages::failure(&e),
    };
    let events: Vec<_> = found
        .items
        .iter()
        .map(|e| {
            let (kind, at, object, by) =
                (&e.event_type, e.created_at.to_string(), object_id(&e.data), names.label(&e.actor));
            context! { id => e.id, kind, at, object, by }
        })
        .collect();
    render(
        StatusCode::OK,
        "events.html",
        context! { frame, events, types => EVENT_TYPES, pager => Pager::of(&found, &query), kind => given(&query.kind) },
    )
}

/// The list's query as the store reads it: a type of the catalogue, a page within the limits.
fn event_query(query: &ListQuery) -> Result<EventQuery, BadQuery> {
    let event_type = given(&query.kind).map(str::to_owned);
    if event_type.as_deref().is_some_and(|t| !EVENT_TYPES.contains(&t)) {
        return Err(BadQuery { title: say("no-such-event-type"), text: say("choose-from-list") });
    }
    Ok(EventQuery { event_type, page: query.page()?, ..Default::default() })
}

/// The id of the resource an event's stored data is about.
fn object_id(data: &str) -> Option<String> {
    let data: serde_json::Value = serde_json::from_str(data).ok()?;
    data.get("object")?.get("id")?.as_str().map(str::to_owned)
}
