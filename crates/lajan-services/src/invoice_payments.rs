//! The payments of an invoice: listing them, and counting one received outside Lajan (cash at
//! a branch, MonCash, NatCash, a bank transfer) exactly as a ledger payment is counted.

use crate::events::PaidEventMakers;
use crate::{ServiceResult, Services};
use lajan_domain::Tenant;
use lajan_domain::Timestamp;
use lajan_domain::invoice_payment::{InvoicePayment, OutsidePaymentInput};
use lajan_domain::money::Currency;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_store::IdempotentResponse;
use lajan_store::incoming_payments::PaymentReceived;

impl Services {
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
        idempotency: Option<IdempotentResponse<'_, PaymentReceived>>,
    ) -> ServiceResult<PaymentReceived> {
        let now = Timestamp::now();
        let payment = input.parse(now)?;
        let makers = PaidEventMakers::new(&self.config.public_url);
        let counted = self.store.record_outside_payment(tenant, id, &payment, now, &makers.events(), idempotency).await;
        counted.map_err(crate::ServiceError::not_found_as("invoice"))
    }
}
