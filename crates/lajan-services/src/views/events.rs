//! How an event looks from outside: the body of `GET /v1/events/{id}` and of every webhook
//! delivery of it, byte for byte the same shape.

use lajan_domain::event::Event;
use lajan_domain::{Actor, Timestamp};
use serde::Serialize;
use utoipa::ToSchema;

/// Something that happened: `data.object` is the resource as the API showed it right after.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventView {
    #[schema(example = "evt_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    /// e.g. `client.created`, `client.updated`, `client.deleted`.
    #[serde(rename = "type")]
    #[schema(example = "client.created")]
    pub event_type: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    /// False for sandbox (`sk_test_`) data.
    pub livemode: bool,
    /// `{ "object": <resource> }`.
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
    pub actor: ActorView,
}

/// Who made the change: the API key (its id, never its secret), the console user, or Lajan
/// itself (`system`: `worker` for background work such as payouts sent and invoices gone
/// overdue, `payment_page` for a payer on the hosted page, `unrecorded` for events written
/// before actors were recorded).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActorView {
    #[serde(rename = "type")]
    pub kind: ActorKind,
    #[schema(example = "key_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActorKind {
    ApiKey,
    User,
    System,
}

impl From<Actor> for ActorView {
    fn from(actor: Actor) -> Self {
        match actor {
            Actor::ApiKey(id) => ActorView { kind: ActorKind::ApiKey, id },
            Actor::User(id) => ActorView { kind: ActorKind::User, id },
            Actor::System(id) => ActorView { kind: ActorKind::System, id },
        }
    }
}

/// A `message.*` event's message as it may be read back: events written before messages were
/// redacted (see `MessageView`) hold an invitation's link or a code; they are hidden as read.
fn hide_message_secrets(data: &mut serde_json::Value) {
    let Some(object) = data.get_mut("object").and_then(serde_json::Value::as_object_mut) else { return };
    let template = object.get("template").and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
    for field in ["text", "html", "subject"] {
        if let Some(words) = object.get_mut(field).filter(|w| w.is_string()) {
            let hidden = lajan_domain::message::readable(&template, words.as_str().unwrap_or_default());
            *words = serde_json::Value::String(hidden);
        }
    }
}

impl EventView {
    /// Fails only when the stored `data` is not JSON (it always is: the store wrote it).
    pub fn from_event(e: Event) -> serde_json::Result<Self> {
        let mut data: serde_json::Value = serde_json::from_str(&e.data)?;
        if e.event_type.starts_with("message.") {
            hide_message_secrets(&mut data);
        }
        Ok(EventView {
            id: e.id,
            event_type: e.event_type,
            created_at: e.created_at,
            livemode: e.env.is_live(),
            data,
            actor: e.actor.into(),
        })
    }
}
