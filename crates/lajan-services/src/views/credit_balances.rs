//! How a client's credit balance looks from outside: `GET /v1/clients/{id}/credit-balance` and
//! the items of `GET /v1/clients/{id}/credit-balance/transactions`.

use super::events::ActorView;
use super::money;
use lajan_domain::Timestamp;
use lajan_domain::credit_balance::{CreditBalance, CreditTransaction};
use serde::Serialize;
use utoipa::ToSchema;

/// What the organization holds for the client in one currency.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreditBalanceView {
    #[schema(example = "HTG")]
    pub currency: String,
    /// A decimal string, never negative.
    #[schema(example = "150.00")]
    pub amount: String,
}

impl From<&CreditBalance> for CreditBalanceView {
    fn from(b: &CreditBalance) -> Self {
        CreditBalanceView { currency: b.currency.code().to_owned(), amount: money(b.amount) }
    }
}

/// One move of a client's credit balance.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreditTransactionView {
    #[schema(example = "cbt_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    #[schema(example = "cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub client_id: String,
    #[schema(example = "HTG")]
    pub currency: String,
    /// A signed decimal string: positive adds to the balance, negative takes from it.
    #[schema(example = "150.00")]
    pub amount: String,
    /// The balance in this currency once this move was made.
    #[schema(example = "150.00")]
    pub balance_after: String,
    /// Why: `overpayment` (a payment beyond what the invoice asks for), `payment_reversed` (a
    /// reversal took an overpayment back), `invoice_voided` (what a voided invoice received),
    /// `credit_note` (a credit note lowered an invoice below what it received),
    /// `credit_note_voided` (a credit note voided took that back), `applied` (it paid an invoice
    /// created with `applyCreditBalance`, as a payment of method `credit_balance`),
    /// `unapplied` (such a payment reversed gave it back).
    #[schema(example = "overpayment")]
    pub cause: &'static str,
    /// The invoice whose money moved it, or that it paid.
    #[schema(example = "inv_01a1fc8be56c7228a813c8461b65a699", nullable = true)]
    pub invoice_id: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    /// Who made the change that moved it (`system` `worker` for a ledger payment).
    pub actor: ActorView,
}

impl From<&CreditTransaction> for CreditTransactionView {
    fn from(t: &CreditTransaction) -> Self {
        CreditTransactionView {
            id: t.id.clone(),
            client_id: t.client_id.clone(),
            currency: t.currency.code().to_owned(),
            amount: money(t.amount),
            balance_after: money(t.balance_after),
            cause: t.cause.as_str(),
            invoice_id: t.invoice_id.clone(),
            created_at: t.created_at,
            actor: t.actor.clone().into(),
        }
    }
}
