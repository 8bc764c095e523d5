//! Payment links: a standalone amount to collect, without an invoice, through its own payment
//! intent.

use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payment::PaymentLink;
use lajan_domain::settings::Settings;
use lajan_domain::{Tenant, Timestamp};

/// Builds a new link (and its intent) from the tenant's settings as the creating transaction
/// reads them (the default currency).
pub type LinkDraft<'a> = &'a (dyn Fn(&Settings) -> PaymentLink + Send + Sync);

#[async_trait]
pub trait PaymentLinkStore: Send + Sync {
    /// Inserts the link `draft` builds from the tenant's settings (read in this transaction) with
    /// its intent and its `payment_link.created` event (the object from `event`). With
    /// `idempotency`, the key is claimed and answered in the same transaction.
    async fn create_payment_link(
        &self,
        tenant: &Tenant,
        draft: LinkDraft<'_>,
        event: EventFor<'_, PaymentLink>,
        idempotency: Option<IdempotentResponse<'_, PaymentLink>>,
    ) -> StoreResult<PaymentLink>;
    async fn get_payment_link(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PaymentLink>>;
    async fn list_payment_links(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<PaymentLink>>;
    /// Takes a link out of the API (reads answer `None`, lists leave it out), deactivating it
    /// first when it is active (its intent becomes inactive, so its page stops taking payments),
    /// and records `event` with its last state. `NotFound` when it is not the tenant's or is
    /// already deleted.
    async fn delete_payment_link(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, PaymentLink>,
    ) -> StoreResult<PaymentLink>;
}
