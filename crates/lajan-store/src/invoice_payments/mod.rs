//! The payments counted on each invoice: one record for every payment in (the ledger watcher
//! writes one as it counts a ledger payment towards an invoice's intent), listed newest first.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::Tenant;
use lajan_domain::invoice_payment::InvoicePayment;
use lajan_domain::pagination::{Page, PageRequest};

#[async_trait]
pub trait InvoicePaymentStore: Send + Sync {
    /// The payments counted on the tenant's invoice `invoice_id`, newest first (reversed ones
    /// included); an empty page for an invoice that is not the tenant's.
    async fn list_invoice_payments(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        page: PageRequest,
    ) -> StoreResult<Page<InvoicePayment>>;
}
