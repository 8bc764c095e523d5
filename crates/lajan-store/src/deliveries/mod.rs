//! The deliveries of events to webhook endpoints. Deliveries are written by the store in the
//! transaction that writes their event (see `insert_event`), so an event committed is an event
//! that will be delivered; the dispatcher claims due deliveries under a lease and records every
//! attempt.

use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::webhook::{Delivery, DeliveryAttempt, DeliveryOutcome, DeliveryStatus, WebhookEndpoint};
use lajan_domain::{Actor, Tenant, Timestamp};
use std::collections::HashMap;

#[async_trait]
pub trait DeliveryStore: Send + Sync {
    /// Claims due pending deliveries of enabled endpoints, as many as `limits` allow, oldest due
    /// first, leased until `now + lease_ms` under a new token, with what sending them needs.
    /// Endpoints are taken in the order of their oldest due delivery, each up to its quota, so
    /// an endpoint with no quota left (a backlog it cannot take) costs the others nothing.
    /// Nothing is written when nothing claimable is due.
    async fn claim_deliveries(
        &self,
        now: Timestamp,
        lease_ms: i64,
        limits: &ClaimLimits,
    ) -> StoreResult<Vec<DueDelivery>>;

    /// Gives back claimed deliveries not sent (still held under `lease`): due again at `now`.
    async fn release_deliveries(&self, lease: &str, ids: &[String], now: Timestamp) -> StoreResult<()>;

    /// Records answers to deliveries in one transaction, in order. Each attempt is kept (it
    /// happened); a delivery its lease still holds moves as its outcome says and is released.
    /// An endpoint is disabled, with the event `disabled` builds (`webhook_endpoint.disabled`,
    /// fanned out to the organization's other endpoints), when an answer is `Gone` or when its
    /// failures make five days without a success.
    async fn finish_deliveries(&self, answers: &[Answered], disabled: EventFor<'_, WebhookEndpoint>)
    -> StoreResult<()>;

    /// The deliveries of an endpoint of `tenant`, newest first, optionally of one status.
    /// `NotFound` when the endpoint is not the tenant's.
    async fn list_deliveries(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        status: Option<DeliveryStatus>,
        page: PageRequest,
    ) -> StoreResult<Page<Delivery>>;

    /// A delivery of an endpoint of `tenant`.
    async fn get_delivery(&self, tenant: &Tenant, endpoint_id: &str, id: &str) -> StoreResult<Option<Delivery>>;

    /// Makes a delivery due now (keeping its event, so its `webhook-id`), whatever its status;
    /// one being sent right now is left to finish. `NotFound` when it is not the tenant's.
    async fn retry_delivery(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        id: &str,
        now: Timestamp,
        idempotency: Option<IdempotentResponse<'_, Delivery>>,
    ) -> StoreResult<Delivery>;

    /// Makes every failed delivery of the endpoint created in `[since, until)` due at `now`,
    /// keeping each one's event (so its `webhook-id`); answers how many. `NotFound` when the
    /// endpoint is not the tenant's.
    async fn recover_deliveries(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        since: Timestamp,
        until: Timestamp,
        now: Timestamp,
        idempotency: Option<IdempotentResponse<'_, u64>>,
    ) -> StoreResult<u64>;

    /// The attempts of a delivery of `tenant`, oldest first.
    async fn delivery_attempts(&self, tenant: &Tenant, delivery_id: &str) -> StoreResult<Vec<DeliveryAttempt>>;
}

/// A claimed delivery and what sending it needs: where, the signing secrets, and the event.
#[derive(Debug, Clone)]
pub struct DueDelivery {
    /// The claim's token: [`DeliveryStore::finish_deliveries`] presents it.
    pub lease: String,
    pub tenant: Tenant,
    pub delivery: Delivery,
    pub url: String,
    /// The secrets that sign it: the endpoint's, then the one a rotation replaced while it
    /// still signs (each gives one `v1,` signature).
    pub secrets: Vec<String>,
    pub event_created_at: Timestamp,
    /// The event's stored `data` (`{"object": ...}`), as JSON text.
    pub event_data: String,
    pub event_actor: Actor,
}

/// How many deliveries one claim may take: `total` in all, and of each endpoint its
/// `per_endpoint` less what it already has `in_flight`.
#[derive(Debug, Clone, Default)]
pub struct ClaimLimits {
    pub total: usize,
    pub per_endpoint: usize,
    pub in_flight: HashMap<String, usize>,
}

impl ClaimLimits {
    /// Up to `n` in all and of any one endpoint.
    pub fn up_to(n: usize) -> Self {
        ClaimLimits { total: n, per_endpoint: n, in_flight: HashMap::new() }
    }

    /// The same, with `endpoint_id`'s slots all taken.
    pub fn except(mut self, endpoint_id: &str) -> Self {
        self.in_flight.insert(endpoint_id.to_owned(), self.per_endpoint);
        self
    }

    /// How many more of `endpoint_id`'s deliveries may be claimed.
    pub fn quota(&self, endpoint_id: &str) -> usize {
        self.per_endpoint.saturating_sub(self.in_flight.get(endpoint_id).copied().unwrap_or(0))
    }
}

/// A receiver's answer to a claimed delivery, to record.
#[derive(Debug, Clone)]
pub struct Answered {
    pub delivery_id: String,
    /// The claim it was sent under: only a lease that still holds the delivery moves it.
    pub lease: String,
    pub attempt: DeliveryAttempt,
    pub outcome: DeliveryOutcome,
}
