//! Invoices: numbered per tenant, moved through their state machine under a row lock, each with
//! the payment intent that collects it.

use crate::messages::InvoiceSending;
use crate::{Change, EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::Invalid;
use lajan_domain::installment::InstallmentInput;
use lajan_domain::invoice::{DueDate, Invoice, InvoiceAction, InvoiceDetail, InvoiceStatus, LineItemInput};
use lajan_domain::money::Currency;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payment::PaymentIntent;
use lajan_domain::settings::Settings;
use lajan_domain::{Tenant, Timestamp};

#[derive(Debug, Clone, Default)]
pub struct InvoiceQuery {
    pub status: Option<InvoiceStatus>,
    pub client_id: Option<String>,
    /// Matches the invoice number or the client's name.
    pub search: Option<String>,
    pub page: PageRequest,
}

/// The fields a draft update changes; `None` keeps a field. New line items are priced in the
/// updating transaction, with the tenant's default tax rate as it reads it.
#[derive(Debug, Clone, Default)]
pub struct InvoiceChanges {
    pub client_id: Option<String>,
    pub currency: Option<Currency>,
    pub due_date: Option<DueDate>,
    pub line_items: Option<Vec<LineItemInput>>,
    pub memo: Option<Option<String>>,
    /// The whole plan again (`[]`: due at once); left out, a plan is kept if it still sums to
    /// the total.
    pub installments: Option<Vec<InstallmentInput>>,
    pub apply_credit_balance: Option<bool>,
}

/// Builds a new draft and its payment intent from the tenant's settings as the creating
/// transaction reads them (default currency and tax rate); a refusal is `Rejected`.
pub type InvoiceDraft<'a> = &'a (dyn Fn(&Settings) -> Result<(Invoice, PaymentIntent), Invalid> + Send + Sync);

#[async_trait]
pub trait InvoiceStore: Send + Sync {
    /// Inserts the invoice `draft` builds from the tenant's settings (read in this transaction)
    /// with the next invoice number of its tenant (the `number` built is ignored) and its
    /// payment intent, and records `invoice.created` (the object from `event`). With `send`, the
    /// invoice is also sent in the same transaction, as
    /// [`crate::messages::MessageStore::send_invoice`] does. The client must exist and not be archived
    /// (`Rejected(invalid_client)`). With `idempotency`, the key is claimed and answered in the
    /// same transaction.
    async fn create_invoice(
        &self,
        tenant: &Tenant,
        draft: InvoiceDraft<'_>,
        event: EventFor<'_, InvoiceDetail>,
        send: Option<&InvoiceSending<'_>>,
        idempotency: Option<IdempotentResponse<'_, InvoiceDetail>>,
    ) -> StoreResult<InvoiceDetail>;

    async fn get_invoice(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<InvoiceDetail>>;

    async fn list_invoices(&self, tenant: &Tenant, query: &InvoiceQuery) -> StoreResult<Page<InvoiceDetail>>;

    /// Changes a draft (`Rejected(cannot_update)` otherwise); the intent follows the new total.
    async fn update_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        changes: &InvoiceChanges,
        at: Timestamp,
    ) -> StoreResult<InvoiceDetail>;

    /// Applies a state-machine action (view, mark overdue, void) under a row lock and records
    /// its event: `event` builds the object, the event's type is the transition's own. Returns
    /// the invoice and whether anything changed; refusals are `Rejected` with the action's error
    /// code. With `idempotency`, the key is answered in the same transaction, no-op or not.
    async fn invoice_action(
        &self,
        id: &str,
        action: InvoiceAction,
        void_reason: Option<&str>,
        change: Change<'_, EventFor<'_, InvoiceDetail>, (InvoiceDetail, bool)>,
    ) -> StoreResult<(InvoiceDetail, bool)>;

    /// Sent or viewed invoices due on or before `due_on_or_before` (YYYY-MM-DD), with their
    /// tenant's timezone, oldest due first.
    async fn overdue_candidates(
        &self,
        due_on_or_before: &str,
        limit: i64,
    ) -> StoreResult<Vec<(Tenant, String, DueDate, String)>>;
}
