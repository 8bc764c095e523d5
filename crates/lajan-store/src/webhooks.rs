//! Webhook endpoints and the delivery of events to them. Deliveries are written by the store in
//! the transaction that writes their event (see `insert_event`), so an event committed is an
//! event that will be delivered; the dispatcher claims due deliveries under a lease and records
//! every attempt.

use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::webhook::{Delivery, DeliveryAttempt, DeliveryOutcome, EndpointPatch, WebhookEndpoint};
use lajan_domain::{Tenant, Timestamp};

#[async_trait]
pub trait WebhookStore: Send + Sync {
    /// Inserts the endpoint with its subscriptions. With `idempotency`, the claimed key is
    /// completed with the response in the same transaction.
    async fn create_webhook_endpoint(
        &self,
        tenant: &Tenant,
        endpoint: &WebhookEndpoint,
        idempotency: Option<IdempotentResponse<'_, WebhookEndpoint>>,
    ) -> StoreResult<WebhookEndpoint>;

    async fn get_webhook_endpoint(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<WebhookEndpoint>>;

    async fn list_webhook_endpoints(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<WebhookEndpoint>>;

    /// Applies `patch` under the endpoint's row lock; `NotFound` when it is not the tenant's.
    async fn update_webhook_endpoint(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: &EndpointPatch,
        at: Timestamp,
    ) -> StoreResult<WebhookEndpoint>;

    /// Records the event `event` builds from the endpoint and one delivery of it to that endpoint
    /// alone (whatever it subscribes to; nothing is fanned out), due at once. `NotFound` when the
    /// endpoint is not the tenant's; `Rejected` (`endpoint_disabled`) when it is disabled.
    async fn send_test_event(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        at: Timestamp,
        event: EventFor<'_, WebhookEndpoint>,
        idempotency: Option<IdempotentResponse<'_, Delivery>>,
    ) -> StoreResult<Delivery>;

    /// Deletes the endpoint with its subscriptions and deliveries; `NotFound` when it is not the
    /// tenant's.
    async fn delete_webhook_endpoint(&self, tenant: &Tenant, id: &str) -> StoreResult<()>;

    /// Claims up to `limit` pending deliveries that are due, leased until `now + lease_ms` under
    /// a new token, with what sending them needs.
    async fn claim_deliveries(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<DueDelivery>>;

    /// Records an attempt of a delivery (always: it happened) and, while `lease` holds the
    /// delivery, moves it as `outcome` says and releases it. Returns the delivery as it is now.
    async fn finish_delivery(
        &self,
        id: &str,
        lease: &str,
        attempt: &DeliveryAttempt,
        outcome: &DeliveryOutcome,
    ) -> StoreResult<Delivery>;

    /// The attempts of a delivery of `tenant`, oldest first.
    async fn delivery_attempts(&self, tenant: &Tenant, delivery_id: &str) -> StoreResult<Vec<DeliveryAttempt>>;
}

/// A claimed delivery and what sending it needs: where, the signing secret, and the event.
#[derive(Debug, Clone)]
pub struct DueDelivery {
    /// The claim's token: [`WebhookStore::finish_delivery`] presents it.
    pub lease: String,
    pub tenant: Tenant,
    pub delivery: Delivery,
    pub url: String,
    pub secret: String,
    pub event_created_at: Timestamp,
    /// The event's stored `data` (`{"object": ...}`), as JSON text.
    pub event_data: String,
}
