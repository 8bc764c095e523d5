//! A resource's timeline: the events about it, newest first, as its detail page lists them.

use crate::actors::Names;
use lajan_domain::Tenant;
use lajan_domain::pagination::{MAX_LIMIT, PageRequest};
use lajan_services::{ServiceResult, Services};
use lajan_store::EventQuery;
use serde::Serialize;

#[derive(Serialize)]
pub(crate) struct Entry {
    pub id: String,
    #[serde(rename = "type")]
    pub event_type: String,
    pub at: String,
    /// Who made the change, in words.
    pub by: String,
}

/// The newest [`MAX_LIMIT`] events about `object_id` in `tenant`.
pub(crate) async fn of(services: &Services, tenant: &Tenant, object_id: &str) -> ServiceResult<Vec<Entry>> {
    let query = EventQuery {
        object_id: Some(object_id.to_owned()),
        page: PageRequest::numbered(1, MAX_LIMIT),
        ..Default::default()
    };
    let found = services.store.list_events(tenant, &query).await?;
    let names = Names::of(services, tenant).await?;
    Ok(found
        .items
        .into_iter()
        .map(|e| Entry { by: names.label(&e.actor), id: e.id, event_type: e.event_type, at: e.created_at.to_string() })
        .collect())
}
