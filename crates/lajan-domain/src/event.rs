//! Events: the outbox record written in the same transaction as the change that causes it.

use crate::{Environment, Timestamp};

/// An event as stored: `data` is the JSON text of `{ "object": ... }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: String,
    pub org_id: String,
    pub env: Environment,
    pub event_type: String,
    pub created_at: Timestamp,
    pub data: String,
}
