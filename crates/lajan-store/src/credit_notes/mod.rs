//! Credit notes: issuing one on a sent invoice (it asks for less; what it had received beyond
//! is the client's credit balance; a credit note that leaves nothing owed pays it) and voiding
//! one (it asks for the amount again), each in one transaction with its event.

use crate::incoming_payments::PaidEvents;
use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::Tenant;
use lajan_domain::Timestamp;
use lajan_domain::credit_note::{CreditNote, NewCreditNote};
use lajan_domain::invoice::InvoiceDetail;

/// A credit note with its invoice as it stands with it: what a change answers and its event
/// carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditNoteOnInvoice {
    pub credit_note: CreditNote,
    pub invoice: InvoiceDetail,
}

/// What a credit note change records: its own event (`credit_note.created` or
/// `credit_note.voided`) and those of a payment state it causes (`invoice.paid`).
pub struct CreditNoteEvents<'a> {
    pub changed: EventFor<'a, CreditNoteOnInvoice>,
    pub paid: &'a PaidEvents<'a>,
}

#[async_trait]
pub trait CreditNoteStore: Send + Sync {
    /// Issues `note` on the tenant's invoice `invoice_id` (made by the tenant's actor) with the
    /// next credit note number of its tenant: the invoice asks for `note.amount` less, what it
    /// had received beyond that is held on the client's credit balance, and an invoice left
    /// owing nothing is paid (`invoice.paid`). `NotFound` for an invoice that is not the
    /// tenant's; `Rejected` `cannot_credit` for a draft (edit it) or void invoice,
    /// `invalid_amount` past what the invoice still asks for.
    async fn issue_credit_note(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        note: &NewCreditNote,
        at: Timestamp,
        events: &CreditNoteEvents<'_>,
        idempotency: Option<IdempotentResponse<'_, CreditNoteOnInvoice>>,
    ) -> StoreResult<CreditNoteOnInvoice>;

    /// Voids the tenant's credit note `id` of invoice `invoice_id`: the invoice asks for its
    /// amount again (a paid invoice left short reopens; an overpayment it made is taken back
    /// from the client's credit balance, refused with `credit_balance_spent` if spent).
    /// `Rejected` `cannot_void` for one void already, or on a void invoice.
    async fn void_credit_note(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, CreditNoteOnInvoice>,
        idempotency: Option<IdempotentResponse<'_, CreditNoteOnInvoice>>,
    ) -> StoreResult<CreditNoteOnInvoice>;

    /// The credit notes of the tenant's invoice `invoice_id`, oldest first (void ones included).
    async fn invoice_credit_notes(&self, tenant: &Tenant, invoice_id: &str) -> StoreResult<Vec<CreditNote>>;
}
