//! Payment links: a standalone amount to collect, without an invoice, through its own payment
//! intent.

use crate::{EventFor, IdempotentResponse, NewEvent, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payment::PaymentLink;
use lajan_domain::{Tenant, Timestamp};

#[async_trait]
pub trait PaymentLinkStore: Send + Sync {
    async fn create_payment_link(
        &self,
        tenant: &Tenant,
        link: &PaymentLink,
        event: &NewEvent,
        idempotency: Option<IdempotentResponse<'_, PaymentLink>>,
    ) -> StoreResult<()>;
    async fn get_payment_link(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PaymentLink>>;
    async fn list_payment_links(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<PaymentLink>>;
    /// Deactivates an active link (its intent becomes inactive). A link that is already
    /// inactive, expired or paid is left as it is, and no event is written.
    async fn deactivate_payment_link(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, PaymentLink>,
    ) -> StoreResult<(PaymentLink, bool)>;
}
