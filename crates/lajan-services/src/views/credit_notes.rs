//! How a credit note looks from outside: an item of `GET /v1/invoices/{id}/credit-notes`, what
//! issuing or voiding one answers, and the `creditNote` of `credit_note.created` and
//! `credit_note.voided`.

use super::events::ActorView;
use super::money;
use lajan_domain::Timestamp;
use lajan_domain::credit_note::CreditNote;
use lajan_domain::money::Currency;
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
