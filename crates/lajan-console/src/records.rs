//! The clients (with their invitation to register a wallet), events and messages lists.

use crate::actors::Names;
use crate::guard::Signed;
use crate::lists::{self, BadQuery, ListQuery, given};
use crate::pages::{Refused, render};
use crate::receivers;
use crate::state::Console;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use lajan_domain::event::EVENT_TYPES;
use lajan_domain::id::IdKind;
use lajan_domain::message::{Channel, MessageStatus};
use lajan_i18n::say;
use lajan_services::views::clients::ClientView;
use lajan_services::views::messages::MessageView;
use lajan_store::messages::MessageQuery;
use lajan_store::{ClientQuery, EventQuery};
use minijinja::{Value, context};

pub(crate) async fn clients(
    State(console): State<Console>,
    signed: Signed,
    Query(query): Query<ListQuery>,
) -> Result<Response, Refused> {
    let store_query = ClientQuery { search: query.search()?, page: query.page()? };
    let tenant = signed.session.tenant();
    let found = console.services.store.list_clients(&tenant, &store_query).await?;
    let ids: Vec<String> = found.items.iter().map(|c| c.id.clone()).collect();
    let invitations = console.services.store.invitations_of(&tenant, &ids).await?;
    let clients: Vec<_> = found
        .items
        .iter()
        .map(|c| {
            let invitation = invitations.iter().find(|i| i.client_id == c.id);
            let (registration, action) = (receivers::registration(invitation), receivers::action(invitation));
            context! { registration, action, ..Value::from_serialize(ClientView::from(c)) }
        })
        .collect();
    let frame = signed.frame();
    Ok(render(StatusCode::OK, "clients.html", context! { frame, clients, ..query.shown(&found) }))
}

pub(crate) async fn events(
    State(console): State<Console>,
    signed: Signed,
    Query(query): Query<ListQuery>,
) -> Result<Response, Refused> {
    let tenant = signed.session.tenant();
    let found = console.services.store.list_events(&tenant, &event_query(&query)?).await?;
    let names = Names::of(&console.services, &tenant).await?;
    let events: Vec<_> = found
        .items
        .iter()
        .map(|e| {
            let (kind, at, object, by) =
                (&e.event_type, e.created_at.to_string(), object_id(&e.data), names.label(&e.actor));
            context! { id => e.id, kind, at, object, by }
        })
        .collect();
    let frame = signed.frame();
    Ok(render(StatusCode::OK, "events.html", context! { frame, events, types => EVENT_TYPES, ..query.shown(&found) }))
}

pub(crate) async fn messages(
    State(console): State<Console>,
    signed: Signed,
    Query(query): Query<ListQuery>,
) -> Result<Response, Refused> {
    let tenant = signed.session.tenant();
    let found = console.services.store.list_messages(&tenant, &message_query(&query)?).await?;
    let messages: Vec<MessageView> = found.items.iter().map(MessageView::from).collect();
    let statuses: Vec<&str> = MessageStatus::ALL.iter().map(|s| s.as_str()).collect();
    let channels: Vec<&str> = Channel::ALL.iter().map(|c| c.as_str()).collect();
    let frame = signed.frame();
    let page = context! { frame, messages, statuses, channels, ..query.shown(&found) };
    Ok(render(StatusCode::OK, "messages.html", page))
}

/// The messages list's query as the store reads it: an invoice's or a client's, in a status, on
/// a channel.
fn message_query(query: &ListQuery) -> Result<MessageQuery, BadQuery> {
    let id_of = |field: &Option<String>, kind: IdKind, title: &str| match given(field) {
        Some(id) if !kind.is_id(id) => Err(BadQuery { title: say(title), text: say("choose-from-list") }),
        id => Ok(id.map(str::to_owned)),
    };
    Ok(MessageQuery {
        invoice_id: id_of(&query.invoice, IdKind::Invoice, "no-such-invoice")?,
        client_id: id_of(&query.client, IdKind::Client, "no-such-client")?,
        status: lists::filter(&query.status, "no-such-status")?,
        channel: lists::filter(&query.channel, "no-such-channel")?,
        page: query.page()?,
    })
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
