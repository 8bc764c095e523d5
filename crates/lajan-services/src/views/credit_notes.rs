//! How a credit note looks from outside: an item of `GET /v1/invoices/{id}/credit-notes`, what
//! issuing or voiding one answers, and the `creditNote` of `credit_note.created` and
//! `credit_note.voided`.

use super::events::ActorView;
use super::money;
use lajan_domain::Timestamp;
use lajan_domain::credit_note::{CreditLine, CreditNote};
use lajan_domain::invoice::QUANTITY_PLACES;
use lajan_domain::money::{Currency, format_trimmed};
use serde::Serialize;
use utoipa::ToSchema;

/// What a sent invoice no longer asks for, and why.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreditNoteView {
    #[schema(example = "cn_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    /// `CN-` and a per-organization sequence, gapless like invoice numbers.
    #[schema(example = "CN-000001")]
    pub number: String,
    #[schema(example = "inv_01a1fc8be56c7228a813c8461b65a699")]
    pub invoice_id: String,
    #[schema(example = "500.00")]
    pub amount: String,
    #[schema(example = "HTG")]
    pub currency: String,
    /// The invoice's line items it took back (their amounts make its `amount`); empty for a
    /// credit note of an amount.
    pub lines: Vec<CreditLineView>,
    /// `waiver`, `rescheduling`, `duplicate` or `other`.
    #[schema(example = "waiver")]
    pub reason: &'static str,
    #[schema(example = "Hurricane relief: late fee waived", nullable = true)]
    pub memo: Option<String>,
    /// `issued` (it reduces the invoice) or `void`.
    #[schema(example = "issued")]
    pub status: &'static str,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    pub created_by: ActorView,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub voided_at: Option<Timestamp>,
    #[schema(nullable = true)]
    pub voided_by: Option<ActorView>,
}

impl CreditNoteView {
    pub fn of(n: &CreditNote, currency: Currency) -> Self {
        CreditNoteView {
            id: n.id.clone(),
            number: n.number.clone(),
            invoice_id: n.invoice_id.clone(),
            amount: money(n.amount),
            currency: currency.code().to_owned(),
            lines: n.lines.iter().map(CreditLineView::from).collect(),
            reason: n.reason.as_str(),
            memo: n.memo.clone(),
            status: if n.voided.is_some() { "void" } else { "issued" },
            created_at: n.created_at,
            created_by: n.created_by.clone().into(),
            voided_at: n.voided.as_ref().map(|(at, _)| *at),
            voided_by: n.voided.as_ref().map(|(_, by)| by.clone().into()),
        }
    }
}

/// Units of one of the invoice's line items a credit note took back.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreditLineView {
    /// The line's place in the invoice's `lineItems`, from 1.
    #[schema(example = 1)]
    pub line_item: usize,
    #[schema(example = "Late fee")]
    pub description: String,
    /// How many of its units, as a decimal string.
    #[schema(example = "1")]
    pub quantity: String,
    /// What they came to, tax included.
    #[schema(example = "150.00")]
    pub amount: String,
}

impl From<&CreditLine> for CreditLineView {
    fn from(l: &CreditLine) -> Self {
        CreditLineView {
            line_item: l.line_item,
            description: l.description.clone(),
            quantity: format_trimmed(l.quantity, QUANTITY_PLACES),
            amount: money(l.amount),
        }
    }
}
