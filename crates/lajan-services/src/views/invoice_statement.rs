//! How an invoice's statement looks from outside: `GET /v1/invoices/{id}/statement` as JSON,
//! and the columns of its CSV.

use super::money;
use lajan_domain::Timestamp;
use lajan_domain::statement::Movement;
use serde::Serialize;
use utoipa::ToSchema;

/// One movement of what the client owes on the invoice.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatementLineView {
    /// `invoiced` (the total), `payment`, `payment_reversed`, `voided` (the total no longer
    /// owed), `credit_note`, `credit_note_voided`, `to_credit_balance` (what was paid beyond what it asks for, held for the client)
    /// or `from_credit_balance` (such an overpayment taken back by a reversal).
    #[schema(example = "payment")]
    pub r#type: &'static str,
    #[schema(value_type = String, format = DateTime)]
    pub at: Timestamp,
    /// A signed decimal string: positive adds to what is owed, negative takes from it.
    #[schema(example = "-500.00")]
    pub amount: String,
    /// What is owed once this movement is made; the last line's is the invoice's
    /// `amountRemaining`.
    #[schema(example = "750.00")]
    pub balance: String,
    /// The payment (`ipy_...`) of a payment or reversal, the credit note (`cn_...`), or the
    /// credit balance transaction (`cbt_...`).
    #[schema(example = "ipy_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b", nullable = true)]
    pub source_id: Option<String>,
    /// A payment's method (`stellar`, `cash`, ...).
    #[schema(example = "cash", nullable = true)]
    pub method: Option<&'static str>,
    /// A payment's reference (transaction hash or receipt number), a reversal's reason, or a
    /// credit note's number.
    #[schema(example = "REC-2026-0042", nullable = true)]
    pub reference: Option<String>,
}

/// The statement's CSV columns, in order.
pub const STATEMENT_COLUMNS: [&str; 7] = ["at", "type", "amount", "balance", "sourceId", "method", "reference"];

impl From<&Movement> for StatementLineView {
    fn from(m: &Movement) -> Self {
        StatementLineView {
            r#type: m.kind.as_str(),
            at: m.at,
            amount: money(m.amount),
            balance: money(m.balance),
            source_id: m.source_id.clone(),
            method: m.method,
            reference: m.reference.clone(),
        }
    }
}

impl StatementLineView {
    /// The line as a row of [`STATEMENT_COLUMNS`].
    pub fn report_row(&self) -> [String; 7] {
        [
            self.at.to_string(),
            self.r#type.to_owned(),
            self.amount.clone(),
            self.balance.clone(),
            self.source_id.clone().unwrap_or_default(),
            self.method.unwrap_or_default().to_owned(),
            self.reference.clone().unwrap_or_default(),
        ]
    }
}
