//! Credit notes: issuing one on a sent invoice (it asks for less, and what it had received
//! beyond is the client's credit balance), listing an invoice's, and voiding one.

use crate::events::{PaidEventMakers, credit_note_event};
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::credit_note::{CreditNote, CreditNoteInput};
use lajan_domain::money::Currency;
use lajan_domain::{Tenant, Timestamp};
use lajan_store::IdempotentResponse;
use lajan_store::credit_notes::{CreditNoteEvents, CreditNoteOnInvoice};

impl Services {
    /// Issues a credit note on the tenant's invoice `id`, made by the tenant's actor, with
    /// `credit_note.created` (and `invoice.paid` when it leaves nothing owed). Refused: a bad
    /// amount (`invalid_amount`, also past what the invoice still asks for), a bad reason or
    /// memo (`validation_error`), a draft or void invoice (`cannot_credit`).
    pub async fn issue_credit_note(
        &self,
        tenant: &Tenant,
        id: &str,
        input: CreditNoteInput,
        idempotency: Option<IdempotentResponse<'_, CreditNoteOnInvoice>>,
    ) -> ServiceResult<CreditNoteOnInvoice> {
        let note = input.parse()?;
        let public_url = self.config.public_url.as_str();
        let makers = PaidEventMakers::new(public_url);
        let paid = makers.events();
        let changed = |c: &CreditNoteOnInvoice| credit_note_event("credit_note.created", c, public_url);
        let events = CreditNoteEvents { changed: &changed, paid: &paid };
        let issued = self.store.issue_credit_note(tenant, id, &note, Timestamp::now(), &events, idempotency).await;
        issued.map_err(ServiceError::not_found_as("invoice"))
    }

    /// Voids the credit note `credit_note_id` of the tenant's invoice `id`, made by the tenant's
    /// actor, with `credit_note.voided`: the invoice asks for its amount again.
    pub async fn void_credit_note(
        &self,
        tenant: &Tenant,
        id: &str,
        credit_note_id: &str,
        idempotency: Option<IdempotentResponse<'_, CreditNoteOnInvoice>>,
    ) -> ServiceResult<CreditNoteOnInvoice> {
        let public_url = self.config.public_url.as_str();
        let event = |c: &CreditNoteOnInvoice| credit_note_event("credit_note.voided", c, public_url);
        let voided =
            self.store.void_credit_note(tenant, id, credit_note_id, Timestamp::now(), &event, idempotency).await;
        voided.map_err(ServiceError::not_found_as("credit note"))
    }

    /// The credit notes of the tenant's invoice `id`, oldest first, with the invoice's currency;
    /// `NotFound` for an invoice that is not the tenant's.
    pub async fn invoice_credit_notes(&self, tenant: &Tenant, id: &str) -> ServiceResult<(Currency, Vec<CreditNote>)> {
        let invoice = self.store.get_invoice(tenant, id).await?.ok_or(ServiceError::NotFound("invoice"))?;
        Ok((invoice.invoice.currency, self.store.invoice_credit_notes(tenant, id).await?))
    }
}
