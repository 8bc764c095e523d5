//! Events: the outbox every change writes in its own transaction, and the list the API serves
//! from it.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::Tenant;
use lajan_domain::event::Event;
use lajan_domain::pagination::{Page, PageRequest};

/// An event to record alongside a change: its type and the resource as the API shows it.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub event_type: &'static str,
    pub object: serde_json::Value,
}

impl NewEvent {
    /// The id of the resource the event is about, when its object has one.
    pub fn object_id(&self) -> Option<&str> {
        self.object.get("id").and_then(serde_json::Value::as_str)
    }
}

/// Builds the event for a change from the changed resource, inside the change's transaction.
pub type EventFor<'a, T> = &'a (dyn Fn(&T) -> NewEvent + Send + Sync);

/// Filters for the events list.
#[derive(Debug, Clone, Default)]
pub struct EventQuery {
    pub event_type: Option<String>,
    /// Only the events about this resource (its timeline).
    pub object_id: Option<String>,
    pub page: PageRequest,
}

#[async_trait]
pub trait EventStore: Send + Sync {
    async fn list_events(&self, tenant: &Tenant, query: &EventQuery) -> StoreResult<Page<Event>>;
    async fn get_event(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Event>>;
}
