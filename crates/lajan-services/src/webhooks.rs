//! Webhook endpoint use cases: create (with its signing secret), change, delete, send a test
//! event, rotate the secret; and for deliveries, a retry and an endpoint's recovery. Deliveries
//! themselves are written by the store with each event.

use crate::events::webhook_endpoint_event;
use crate::webhook_guard::check_endpoint_url;
use crate::{ServiceError, ServiceResult, Services};
use base64::Engine;
use lajan_domain::id::IdKind;
use lajan_domain::webhook::{Delivery, EndpointInput, EndpointPatchInput, WebhookEndpoint, recovery_window};
use lajan_domain::{Tenant, Timestamp};
use lajan_store::IdempotentResponse;

/// How long a rotated-out secret keeps signing beside the new one.
pub const ROTATION_OVERLAP_MS: i64 = 24 * 60 * 60 * 1000;

/// `whsec_` + base64 of 32 random bytes, as Standard Webhooks keys are written.
fn new_secret() -> ServiceResult<String> {
    let mut key = [0_u8; 32];
    getrandom::fill(&mut key).map_err(|e| ServiceError::Unavailable(format!("no randomness for a secret: {e}")))?;
    Ok(format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(key)))
}

impl Services {
    /// Endpoints reach public addresses only (live ones over https); sandbox ones may be local
    /// where the operator allows it.
    async fn guard_url(&self, tenant: &Tenant, url: &str) -> ServiceResult<()> {
        let live = tenant.env.is_live();
        if live || !self.config.sandbox_webhooks_private {
            check_endpoint_url(&*self.config.resolver, url, live).await?;
        }
        Ok(())
    }

    /// Validates the endpoint and stores it with a new secret.
    pub async fn create_webhook_endpoint(
        &self,
        tenant: &Tenant,
        input: EndpointInput,
        idempotency: Option<IdempotentResponse<'_, WebhookEndpoint>>,
    ) -> ServiceResult<WebhookEndpoint> {
        let endpoint = input.into_endpoint(IdKind::WebhookEndpoint.generate(), new_secret()?, Timestamp::now())?;
        self.guard_url(tenant, &endpoint.url).await?;
        Ok(self.store.create_webhook_endpoint(tenant, &endpoint, idempotency).await?)
    }

    /// Applies a change; `enabled: true` turns a disabled endpoint back on.
    pub async fn update_webhook_endpoint(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: EndpointPatchInput,
    ) -> ServiceResult<WebhookEndpoint> {
        let patch = patch.parse()?;
        if let Some(url) = &patch.url {
            self.guard_url(tenant, url).await?;
        }
        self.store
            .update_webhook_endpoint(tenant, id, &patch, Timestamp::now())
            .await
            .map_err(ServiceError::not_found_as("webhook endpoint"))
    }

    /// Deletes the endpoint with its deliveries; its events stay.
    pub async fn delete_webhook_endpoint(&self, tenant: &Tenant, id: &str) -> ServiceResult<()> {
        self.store.delete_webhook_endpoint(tenant, id).await.map_err(ServiceError::not_found_as("webhook endpoint"))
    }

    /// Queues a `webhook_endpoint.test` event for this endpoint alone, sent at once.
    pub async fn send_test_event(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        idempotency: Option<IdempotentResponse<'_, Delivery>>,
    ) -> ServiceResult<Delivery> {
        let event = webhook_endpoint_event("webhook_endpoint.test");
        let delivery = self
            .store
            .send_test_event(tenant, endpoint_id, Timestamp::now(), &event, idempotency)
            .await
            .map_err(ServiceError::not_found_as("webhook endpoint"))?;
        self.nudges.deliveries_due();
        Ok(delivery)
    }

    /// Sends a delivery again now, with its event (so its `webhook-id`); one being sent is left
    /// to finish.
    pub async fn retry_delivery(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        id: &str,
        idempotency: Option<IdempotentResponse<'_, Delivery>>,
    ) -> ServiceResult<Delivery> {
        let delivery = self
            .store
            .retry_delivery(tenant, endpoint_id, id, Timestamp::now(), idempotency)
            .await
            .map_err(ServiceError::not_found_as("delivery"))?;
        self.nudges.deliveries_due();
        Ok(delivery)
    }

    /// Gives the endpoint a new secret; the old one keeps signing beside it for 24 hours.
    pub async fn rotate_webhook_secret(
        &self,
        tenant: &Tenant,
        id: &str,
        idempotency: Option<IdempotentResponse<'_, WebhookEndpoint>>,
    ) -> ServiceResult<WebhookEndpoint> {
        let now = Timestamp::now();
        let until = now.plus_millis(ROTATION_OVERLAP_MS);
        self.store
            .rotate_webhook_secret(tenant, id, &new_secret()?, now, until, idempotency)
            .await
            .map_err(ServiceError::not_found_as("webhook endpoint"))
    }

    /// Sends again every failed delivery of the endpoint in the window (at most 14 days back),
    /// each with its `webhook-id`; answers how many.
    pub async fn recover_deliveries(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        since: Option<&str>,
        until: Option<&str>,
        idempotency: Option<IdempotentResponse<'_, u64>>,
    ) -> ServiceResult<u64> {
        let now = Timestamp::now();
        let (since, until) = recovery_window(since, until, now)?;
        let recovered = self
            .store
            .recover_deliveries(tenant, endpoint_id, since, until, now, idempotency)
            .await
            .map_err(ServiceError::not_found_as("webhook endpoint"))?;
        self.nudges.deliveries_due();
        Ok(recovered)
    }
}
