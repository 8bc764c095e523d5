//! How a client's statement looks in the console and its CSV: a line per invoice with what it
//! still asks, what the client owes in all and what the organization holds for them.

use super::clients::ClientView;
use super::credit_balances::CreditBalanceView;
use super::money;
use crate::client_statement::ClientStatement;
use lajan_domain::Timestamp;
use lajan_domain::invoice::InvoiceDetail;
use serde::Serialize;

/// One invoice of the statement.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatementInvoiceView {
    pub id: String,
    pub invoice_number: String,
    pub status: &'static str,
    pub currency: &'static str,
    pub created_at: Timestamp,
    pub due_date: String,
    pub total: String,
    pub amount_credited: String,
    pub amount_paid: String,
    pub amount_remaining: String,
}

impl From<&InvoiceDetail> for StatementInvoiceView {
    fn from(d: &InvoiceDetail) -> Self {
        let i = &d.invoice;
        StatementInvoiceView {
            id: i.id.clone(),
            invoice_number: i.number.clone(),
            status: i.status.as_str(),
            currency: i.currency.code(),
            created_at: i.created_at,
            due_date: i.due_date.to_string(),
            total: money(i.totals.total),
            amount_credited: money(i.amount_credited),
            amount_paid: money(i.amount_paid),
            amount_remaining: money(i.amount_remaining()),
        }
    }
}

/// A client's statement as the console shows it.
#[derive(Debug, Serialize)]
pub struct ClientStatementView {
    pub client: ClientView,
    pub invoices: Vec<StatementInvoiceView>,
    /// Whether the client has older invoices than those listed.
    pub older: bool,
    /// What the client owes, per currency (amounts are what is owed).
    pub owed: Vec<CreditBalanceView>,
    /// What the organization holds for the client, per currency.
    pub credit: Vec<CreditBalanceView>,
}

/// The client statement's CSV columns, in order. A row is an invoice (`type` `invoice`) or what
/// the organization holds for the client in a currency (`credit_held`); `owed` is what the row
/// adds to what the client owes (an invoice's remaining amount; credit held, negative), so the
/// column's sum per currency is what the client owes net of their credit.
pub const CLIENT_STATEMENT_COLUMNS: [&str; 11] = [
    "type",
    "invoiceNumber",
    "invoiceId",
    "status",
    "currency",
    "createdAt",
    "dueDate",
    "total",
    "credited",
    "paid",
    "owed",
];

impl From<&ClientStatement> for ClientStatementView {
    fn from(s: &ClientStatement) -> Self {
        let owed = |(currency, amount): &(lajan_domain::money::Currency, i64)| CreditBalanceView {
            currency: currency.code().to_owned(),
            amount: money(*amount),
        };
        ClientStatementView {
            client: ClientView::from(&s.client),
            invoices: s.invoices.iter().map(StatementInvoiceView::from).collect(),
            older: s.older,
            owed: s.owed.iter().map(owed).collect(),
            credit: s.credit.iter().map(CreditBalanceView::from).collect(),
        }
    }
}

impl ClientStatementView {
    /// The statement as rows of [`CLIENT_STATEMENT_COLUMNS`]: its invoices, then its credit held.
    pub fn report_rows(&self) -> Vec<[String; 11]> {
        let invoices = self.invoices.iter().map(|i| {
            [
                "invoice".to_owned(),
                i.invoice_number.clone(),
                i.id.clone(),
                i.status.to_owned(),
                i.currency.to_owned(),
                i.created_at.to_string(),
                i.due_date.clone(),
                i.total.clone(),
                i.amount_credited.clone(),
                i.amount_paid.clone(),
                i.amount_remaining.clone(),
            ]
        });
        let credit = self.credit.iter().map(|c| {
            let none = String::new;
            let owed = format!("-{}", c.amount);
            let currency = c.currency.clone();
            ["credit_held".to_owned(), none(), none(), none(), currency, none(), none(), none(), none(), none(), owed]
        });
        invoices.chain(credit).collect()
    }
}
