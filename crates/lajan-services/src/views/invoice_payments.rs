//! How a payment counted on an invoice looks from outside: an item of
//! `GET /v1/invoices/{id}/payments`, and the `payment` of `invoice.payment_received`.

use super::events::ActorView;
use super::money;
use lajan_domain::Timestamp;
use lajan_domain::invoice_payment::InvoicePayment;
use lajan_domain::money::Currency;
use serde::Serialize;
use utoipa::ToSchema;

/// A payment counted on an invoice.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoicePaymentView {
    #[schema(example = "ipy_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    #[schema(example = "inv_01a1fc8be56c7228a813c8461b65a699")]
    pub invoice_id: String,
    /// What the payment counts for, in the invoice's currency, as a decimal string.
    #[schema(example = "500.00")]
    pub amount: String,
    #[schema(example = "HTG")]
    pub currency: String,
    /// `stellar`: a payment on the Stellar network carrying the invoice's reference; `cash`,
    /// `moncash`, `natcash`, `bank_transfer`: recorded as received outside Lajan;
    /// `credit_balance`: taken from the client's credit balance (`applyCreditBalance`).
    #[schema(example = "stellar")]
    pub method: &'static str,
    /// The Stellar transaction's hash for a `stellar` payment, the receipt's number for one
    /// received outside Lajan, the credit balance transaction (`cbt_…`) for `credit_balance`.
    #[schema(example = "3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889", nullable = true)]
    pub reference: Option<String>,
    /// When the payer paid (a `stellar` payment: when Lajan saw it on the ledger).
    #[schema(value_type = String, format = DateTime)]
    pub paid_at: Timestamp,
    /// When Lajan counted it.
    #[schema(value_type = String, format = DateTime)]
    pub recorded_at: Timestamp,
    /// Who counted it (`system` `worker` for a ledger payment).
    pub recorded_by: ActorView,
    /// When it stopped counting, if it was reversed.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub reversed_at: Option<Timestamp>,
    #[schema(nullable = true)]
    pub reversal_reason: Option<String>,
}

impl InvoicePaymentView {
    pub fn of(p: &InvoicePayment, currency: Currency) -> Self {
        InvoicePaymentView {
            id: p.id.clone(),
            invoice_id: p.invoice_id.clone(),
            amount: money(p.amount),
            currency: currency.code().to_owned(),
            method: p.method.as_str(),
            reference: p.reference.clone(),
            paid_at: p.paid_at,
            recorded_at: p.recorded_at,
            recorded_by: p.recorded_by.clone().into(),
            reversed_at: p.reversal.as_ref().map(|r| r.at),
            reversal_reason: p.reversal.as_ref().map(|r| r.reason.clone()),
        }
    }
}
