//! Webhook endpoints: where an organization's events go. Their deliveries are in
//! [`crate::deliveries`].

use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::webhook::{Delivery, EndpointPatch, WebhookEndpoint};
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

    /// Gives the endpoint `secret`; the secret it replaces keeps signing, beside it, until
    /// `previous_until` (one rotated out earlier stops at once). `NotFound` when it is not the
    /// tenant's.
    async fn rotate_webhook_secret(
        &self,
        tenant: &Tenant,
        id: &str,
        secret: &str,
        at: Timestamp,
        previous_until: Timestamp,
        idempotency: Option<IdempotentResponse<'_, WebhookEndpoint>>,
    ) -> StoreResult<WebhookEndpoint>;

    /// Deletes the endpoint with its subscriptions and deliveries; `NotFound` when it is not the
    /// tenant's.
    async fn delete_webhook_endpoint(&self, tenant: &Tenant, id: &str) -> StoreResult<()>;
}
