//! The payments of an invoice: listing them, counting one received outside Lajan (cash at a
//! branch, MonCash, NatCash, a bank transfer) exactly as a ledger payment is counted, and
//! reversing one (kept, with why) so that it stops counting.

use crate::events::{PaidEventMakers, invoice_payment_event};
use crate::{ServiceResult, Services};
use lajan_domain::Tenant;
use lajan_domain::Timestamp;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice_payment::{InvoicePayment, OutsidePaymentInput, parse_reversal_reason};
use lajan_domain::money::Currency;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::statement::{Movement, statement};
use lajan_store::IdempotentResponse;
use lajan_store::incoming_payments::PaymentOnInvoice;
use lajan_store::invoice_payments::PaymentReversal;

impl Services {
    /// The statement of the tenant's invoice `id`: every movement of what the client owes on
    /// it, oldest first, with the running balance; `NotFound` for an invoice that is not the
    /// tenant's.
    pub async fn invoice_statement(&self, tenant: &Tenant, id: &str) -> ServiceResult<(InvoiceDetail, Vec<Movement>)> {
        let parts =
            self.store.invoice_statement_parts(tenant, id).await?.ok_or(crate::ServiceError::NotFound("invoice"))?;
        let lines = statement(&parts.invoice.invoice, &parts.payments, &parts.credits, &parts.credit_notes);
        Ok((parts.invoice, lines))
    }

    /// The payments counted on the tenant's invoice `id`, newest first, with the invoice's
    /// currency (their amounts are in it); `NotFound` for an invoice that is not the tenant's.
    pub async fn invoice_payments(
        &self,
        tenant: &Tenant,
        id: &str,
        page: PageRequest,
    ) -> ServiceResult<(Currency, Page<InvoicePayment>)> {
        let invoice = self.store.get_invoice(tenant, id).await?.ok_or(crate::ServiceError::NotFound("invoice"))?;
        let payments = self.store.list_invoice_payments(tenant, id, page).await?;
        Ok((invoice.invoice.currency, payments))
    }

    /// Counts a payment received outside Lajan on the tenant's invoice `id`, made by the
    /// tenant's actor: `invoice.payment_received`, and `invoice.paid` when it settles the
    /// invoice. Refused: a bad amount (`invalid_amount`), any other bad field at once
    /// (`validation_error`), an invoice that is not sent, viewed or overdue (`cannot_pay`).
    pub async fn record_invoice_payment(
        &self,
        tenant: &Tenant,
        id: &str,
        input: OutsidePaymentInput,
        idempotency: Option<IdempotentResponse<'_, PaymentOnInvoice>>,
    ) -> ServiceResult<PaymentOnInvoice> {
        let now = Timestamp::now();
        let payment = input.parse(now)?;
        let makers = PaidEventMakers::new(&self.config.public_url);
        let counted = self.store.record_outside_payment(tenant, id, &payment, now, &makers.events(), idempotency).await;
        counted.map_err(crate::ServiceError::not_found_as("invoice"))
    }

    /// Reverses the payment `payment_id` of the tenant's invoice `id` with `reason` (required),
    /// made by the tenant's actor: it stops counting, a paid invoice no longer paid in full
    /// reopens (partially paid, or sent when nothing paid is left), and `invoice.payment_reversed` is recorded. `cannot_reverse` for one
    /// reversed already; `NotFound` for a payment or invoice that is not the tenant's.
    pub async fn reverse_invoice_payment(
        &self,
        tenant: &Tenant,
        id: &str,
        payment_id: &str,
        reason: Option<&str>,
        idempotency: Option<IdempotentResponse<'_, PaymentOnInvoice>>,
    ) -> ServiceResult<PaymentOnInvoice> {
        let reason = parse_reversal_reason(reason)?;
        let public_url = self.config.public_url.as_str();
        let event = |r: &PaymentOnInvoice| invoice_payment_event("invoice.payment_reversed", r, public_url);
        let reversal = PaymentReversal { invoice_id: id, payment_id, reason: &reason };
        let reversed =
            self.store.reverse_invoice_payment(tenant, reversal, Timestamp::now(), &event, idempotency).await;
        reversed.map_err(crate::ServiceError::not_found_as("payment"))
    }
}
