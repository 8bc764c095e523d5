//! What every change to a tenant's data threads through its one transaction, carried as one
//! value: whose data, when, how its events are built, and the `Idempotency-Key` answer kept
//! with it.

use crate::{EventFor, IdempotentResponse};
use lajan_domain::{Tenant, Timestamp};

/// One change, as a service asks the store for it. `events` builds the change's events from
/// what it wrote: one builder ([`EventFor`]) for most areas, an area's set for one whose change
/// writes several kinds. `idempotency` is the key the request carried: claimed when the change
/// begins and answered (its status and body, rendered by the service from the change's
/// `Answer` and stored as they are) when it commits, in the same transaction.
pub struct Change<'a, Events, Answer = ()> {
    pub tenant: &'a Tenant,
    /// When the change happens.
    pub at: Timestamp,
    pub events: Events,
    pub idempotency: Option<IdempotentResponse<'a, Answer>>,
}

/// A change whose events and answer are both built from the resource `T` it returns.
pub type ChangeOf<'a, T> = Change<'a, EventFor<'a, T>, T>;

impl<'a, Events, Answer> Change<'a, Events, Answer> {
    /// A change no request key answers for (a worker's, the console's without a key).
    pub fn unkeyed(tenant: &'a Tenant, at: Timestamp, events: Events) -> Self {
        Change { tenant, at, events, idempotency: None }
    }
}
