//! How invoices and payment links look from outside: the HTTP bodies, which are also their
//! events' objects.

use super::clients::{ClientContact, ClientSummary};
use super::{money, number, pay_url};
use lajan_domain::Timestamp;
use lajan_domain::installment::InstallmentState;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice::LineItem;
use lajan_domain::payment::PaymentLink;
use serde::Serialize;
use utoipa::ToSchema;

/// A row of the invoices list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceSummary {
    #[schema(example = "inv_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    #[schema(example = "INV-000042")]
    pub invoice_number: String,
    pub client_id: String,
    pub client: ClientSummary,
    /// What the invoice asks for in all, as one invoice's `total` says it.
    #[schema(example = "1250.00")]
    pub total: String,
    /// The same as `total`, under its first name: kept for integrations that read it.
    #[schema(example = "1250.00", deprecated)]
    pub amount: String,
    #[schema(example = "HTG")]
    pub currency: String,
    #[schema(example = "sent")]
    pub status: String,
    #[schema(example = "2026-12-01")]
    pub due_date: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LineItemView {
    pub description: String,
    #[schema(value_type = f64, example = 3)]
    pub quantity: serde_json::Number,
    #[schema(example = "19.99")]
    pub unit_price: String,
    /// Percent applied to this line (the organization's default when the request named none).
    #[schema(value_type = f64, example = 0)]
    pub tax_rate: serde_json::Number,
    /// quantity x unitPrice, rounded half-up to the cent.
    #[schema(example = "59.97")]
    pub amount: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentLinkRef {
    pub url: String,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
}

/// An invoice in full.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    pub id: String,
    pub invoice_number: String,
    pub client_id: String,
    pub client: ClientContact,
    pub currency: String,
    pub status: String,
    pub due_date: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
    pub line_items: Vec<LineItemView>,
    pub subtotal: String,
    pub tax: String,
    pub total: String,
    /// Received so far through the payment link (may exceed the total after an overpayment):
    /// the sum of the invoice's payments (`GET /v1/invoices/{id}/payments`).
    #[schema(example = "500.00")]
    pub amount_paid: String,
    /// What is still due: the total less what was paid, never below 0.00; 0.00 once void.
    #[schema(example = "750.00")]
    pub amount_remaining: String,
    /// What its credit notes in force take off the total (`POST /v1/invoices/{id}/credit-notes`).
    #[schema(example = "0.00")]
    pub amount_credited: String,
    /// What was paid beyond the total (all that was paid, once void): it is held on the client's
    /// credit balance (`GET /v1/clients/{id}/credit-balance`), never lost.
    #[schema(example = "0.00")]
    pub amount_overpaid: String,
    /// The parts the total is due in, oldest first, each with what was paid of it (payments fill
    /// the oldest first); empty when it is due at once on `dueDate`.
    pub installments: Vec<InstallmentView>,
    /// The oldest instalment not paid in full: what the invoice waits for, and what made it
    /// overdue when it is. null without instalments, or once all are paid.
    pub next_installment: Option<InstallmentView>,
    /// Whether its first send pays what it can from the client's credit balance in its
    /// currency (a payment of method `credit_balance`; paid in full by it, no message asks
    /// the client for anything).
    pub apply_credit_balance: bool,
    pub memo: Option<String>,
    pub payment_link: PaymentLinkRef,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub sent_at: Option<Timestamp>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub paid_at: Option<Timestamp>,
}

/// One part of an invoice's total, with what was paid of it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstallmentView {
    /// Its place in the plan, from 1.
    #[schema(example = 2)]
    pub number: usize,
    #[schema(example = "1250.00")]
    pub amount: String,
    #[schema(example = "2027-02-28")]
    pub due_date: String,
    /// What credit notes took off it (they shorten the plan from its end).
    #[schema(example = "0.00")]
    pub amount_credited: String,
    #[schema(example = "500.00")]
    pub amount_paid: String,
    #[schema(example = "750.00")]
    pub amount_remaining: String,
}

impl From<&InstallmentState> for InstallmentView {
    fn from(s: &InstallmentState) -> Self {
        InstallmentView {
            number: s.number,
            amount: money(s.amount),
            due_date: s.due_date.to_string(),
            amount_credited: money(s.credited),
            amount_paid: money(s.paid),
            amount_remaining: money(s.remaining()),
        }
    }
}

fn line_view(l: &LineItem) -> LineItemView {
    LineItemView {
        description: l.description.clone(),
        quantity: number(&l.quantity_text()),
        unit_price: money(l.unit_price),
        tax_rate: number(&l.tax_rate.to_string()),
        amount: money(l.amount),
    }
}

impl InvoiceSummary {
    pub fn from_detail(d: &InvoiceDetail) -> Self {
        let i = &d.invoice;
        InvoiceSummary {
            id: i.id.clone(),
            invoice_number: i.number.clone(),
            client_id: i.client_id.clone(),
            client: ClientSummary::from(&d.client),
            total: money(i.totals.total),
            amount: money(i.totals.total),
            currency: i.currency.code().to_owned(),
            status: i.status.as_str().to_owned(),
            due_date: i.due_date.to_string(),
            created_at: i.created_at,
        }
    }
}

impl InvoiceView {
    pub fn from_detail(d: &InvoiceDetail, public_url: &str) -> Self {
        let i = &d.invoice;
        InvoiceView {
            id: i.id.clone(),
            invoice_number: i.number.clone(),
            client_id: i.client_id.clone(),
            client: ClientContact::from(&d.client),
            currency: i.currency.code().to_owned(),
            status: i.status.as_str().to_owned(),
            due_date: i.due_date.to_string(),
            created_at: i.created_at,
            updated_at: i.updated_at,
            line_items: i.line_items.iter().map(line_view).collect(),
            subtotal: money(i.totals.subtotal),
            tax: money(i.totals.tax),
            total: money(i.totals.total),
            amount_paid: money(i.amount_paid),
            amount_remaining: money(i.amount_remaining()),
            amount_credited: money(i.amount_credited),
            amount_overpaid: money(i.amount_overpaid),
            installments: i.installment_states().iter().map(InstallmentView::from).collect(),
            next_installment: i.next_installment().as_ref().map(InstallmentView::from),
            apply_credit_balance: i.apply_credit_balance,
            memo: i.memo.clone(),
            payment_link: PaymentLinkRef { url: pay_url(public_url, &d.intent.id), expires_at: d.intent.expires_at },
            sent_at: i.sent_at,
            paid_at: i.paid_at,
        }
    }
}

/// A payment link as the payment-links area shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentLinkView {
    #[schema(example = "pl_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    pub url: String,
    #[schema(example = "500.00")]
    pub amount: String,
    pub currency: String,
    pub description: String,
    /// active, inactive, expired or paid.
    pub status: String,
    /// Received so far (may exceed the amount).
    pub amount_paid: String,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

impl PaymentLinkView {
    pub fn from_link(l: &PaymentLink, public_url: &str, now: Timestamp) -> Self {
        PaymentLinkView {
            id: l.id.clone(),
            url: pay_url(public_url, &l.intent.id),
            amount: money(l.amount),
            currency: l.currency.code().to_owned(),
            description: l.description.clone(),
            status: l.intent.effective_status(now).as_str().to_owned(),
            amount_paid: money(l.intent.amount_received),
            expires_at: l.expires_at,
            created_at: l.created_at,
        }
    }
}
