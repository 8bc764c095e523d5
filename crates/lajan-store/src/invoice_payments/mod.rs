//! The payments counted on each invoice: one record for every payment in (the ledger watcher
//! writes one as it counts a ledger payment towards an invoice's intent; a person or key records
//! one received outside Lajan), listed newest first.

use crate::incoming_payments::{PaidEvents, PaymentOnInvoice};
use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::credit_balance::CreditTransaction;
use lajan_domain::credit_note::CreditNote;
use lajan_domain::invoice::{InvoiceDetail, InvoiceStatus};
use lajan_domain::invoice_payment::{InvoicePayment, OutsidePayment};
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::{Tenant, Timestamp};

/// What an invoice's statement is made of, read at one moment: the invoice, every payment
/// counted on it (oldest first, reversed ones included) and the moves of its client's credit
/// balance it made.
#[derive(Debug, Clone)]
pub struct StatementParts {
    pub invoice: InvoiceDetail,
    pub payments: Vec<InvoicePayment>,
    pub credits: Vec<CreditTransaction>,
    pub credit_notes: Vec<CreditNote>,
}

/// A reversal asked for: the invoice, its payment, and why.
#[derive(Debug, Clone, Copy)]
pub struct PaymentReversal<'a> {
    pub invoice_id: &'a str,
    pub payment_id: &'a str,
    pub reason: &'a str,
}

#[async_trait]
pub trait InvoicePaymentStore: Send + Sync {
    /// The parts of the statement of the tenant's invoice `invoice_id`, read under the locks a
    /// payment takes, so no payment lands between them; `None` for an invoice that is not the
    /// tenant's.
    async fn invoice_statement_parts(&self, tenant: &Tenant, invoice_id: &str) -> StoreResult<Option<StatementParts>>;

    /// The payments counted on the tenant's invoice `invoice_id`, newest first (reversed ones
    /// included); an empty page for an invoice that is not the tenant's.
    async fn list_invoice_payments(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        page: PageRequest,
    ) -> StoreResult<Page<InvoicePayment>>;

    /// The tenant's client `client_id`'s invoices whose status is one of `statuses` (any status
    /// when empty), newest first, at most `limit`: a client's statement, read through the
    /// client's index (an unknown client has none).
    async fn client_invoices(
        &self,
        tenant: &Tenant,
        client_id: &str,
        statuses: &[InvoiceStatus],
        limit: u32,
    ) -> StoreResult<Vec<InvoiceDetail>>;

    /// Counts a payment received outside Lajan on the tenant's invoice as a ledger payment is
    /// counted, in one transaction: what its intent received, the record (made by the tenant's
    /// actor), `invoice.payment_received`, and `invoice.paid` when it settles the invoice.
    /// `NotFound` for an invoice that is not the tenant's; `Rejected` `cannot_pay` unless it is
    /// sent, viewed or overdue, `invalid_amount` past what an amount can hold.
    async fn record_outside_payment(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        payment: &OutsidePayment,
        at: Timestamp,
        events: &PaidEvents<'_>,
        idempotency: Option<IdempotentResponse<'_, PaymentOnInvoice>>,
    ) -> StoreResult<PaymentOnInvoice>;

    /// Reverses the tenant's payment `payment_id` of invoice `invoice_id` (kept, with the
    /// reason, when and by whom), in one transaction: it stops counting on the intent, a paid invoice that
    /// is not paid in full any more reopens, partially paid or sent (its intent active again), and `event`
    /// (`invoice.payment_reversed`) is recorded. `NotFound` for a payment or invoice that is not
    /// the tenant's; `Rejected` `cannot_reverse` for a payment reversed already.
    async fn reverse_invoice_payment(
        &self,
        tenant: &Tenant,
        reversal: PaymentReversal<'_>,
        at: Timestamp,
        event: EventFor<'_, PaymentOnInvoice>,
        idempotency: Option<IdempotentResponse<'_, PaymentOnInvoice>>,
    ) -> StoreResult<PaymentOnInvoice>;
}
