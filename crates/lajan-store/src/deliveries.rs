//! The deliveries of events to webhook endpoints. Deliveries are written by the store in the
//! transaction that writes their event (see `insert_event`), so an event committed is an event
//! that will be delivered; the dispatcher claims due deliveries under a lease and records every
//! attempt.

use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::webhook::{Delivery, DeliveryAttempt, DeliveryOutcome, DeliveryStatus, WebhookEndpoint};
use lajan_domain::{Tenant, Timestamp};

#[async_trait]
pub trait DeliveryStore: Send + Sync {
    /// Claims up to `limit` pending deliveries that are due, of enabled endpoints not in `busy`,
    /// leased until `now + lease_ms` under a new token, with what sending them needs.
    async fn claim_deliveries(
        &self,
        now: Timestamp,
        lease_ms: i64,
        limit: i64,
        busy: &[String],
    ) -> StoreResult<Vec<DueDelivery>>;

    /// Gives back claimed deliveries not sent (still held under `lease`): due again at `now`.
    async fn release_deliveries(&self, lease: &str, ids: &[String], now: Timestamp) -> StoreResult<()>;

    /// Whether any pending delivery of an enabled endpoint is due at `now`: a cheap read, so the
    /// dispatcher can look often and claim (a write) only when there is work.
    async fn deliveries_due(&self, now: Timestamp) -> StoreResult<bool>;

    /// Records an attempt of a delivery (always: it happened) and, while `lease` holds the
    /// delivery, moves it as `outcome` says and releases it. The endpoint is disabled, with the
    /// event `disabled` builds (`webhook_endpoint.disabled`, fanned out to the organization's
    /// other endpoints), when the outcome is `Gone` or when this failure makes five days of
    /// failures without a success. Returns the delivery as it is now.
    async fn finish_delivery(
        &self,
        id: &str,
        lease: &str,
        attempt: &DeliveryAttempt,
        outcome: &DeliveryOutcome,
        disabled: EventFor<'_, WebhookEndpoint>,
    ) -> StoreResult<Delivery>;

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
    /// The claim's token: [`WebhookStore::finish_delivery`] presents it.
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
}
