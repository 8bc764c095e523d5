//! A client's credit balance: money the organization holds for the client, per currency (an
//! overpayment, what was paid on an invoice later voided or credited), moved only by
//! transactions that each say why and leave the balance never below zero.

use crate::money::Currency;
use crate::{Actor, Timestamp};

/// Why a client's credit balance moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreditCause {
    /// A payment took what an invoice received past what it asks for.
    Overpayment,
    /// A payment reversed took back an overpayment it had made.
    PaymentReversed,
    /// An invoice voided after payments: what it received is the client's.
    InvoiceVoided,
    /// A credit note lowered an invoice below what it had received.
    CreditNote,
    /// A credit note voided: the invoice asks for more again, taken back from the balance.
    CreditNoteVoided,
    /// Taken from the balance to pay an invoice that asked for it (`applyCreditBalance`).
    Applied,
    /// Such a payment reversed: what it took comes back to the balance.
    Unapplied,
}

str_enum!(CreditCause {
    Overpayment => "overpayment",
    PaymentReversed => "payment_reversed",
    InvoiceVoided => "invoice_voided",
    CreditNote => "credit_note",
    CreditNoteVoided => "credit_note_voided",
    Applied => "applied",
    Unapplied => "unapplied",
});

impl CreditCause {
    /// Whether it pays an invoice from the balance (or gives such a payment back): the
    /// invoice's statement shows it as that payment, not as a move of what it owes.
    pub const fn pays_invoice(self) -> bool {
        matches!(self, CreditCause::Applied | CreditCause::Unapplied)
    }
}

/// One move of a client's credit balance in one currency, in minor units: positive adds to
/// what the organization holds for the client, negative takes from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditTransaction {
    pub id: String,
    pub client_id: String,
    pub currency: Currency,
    pub amount: i64,
    /// The balance in this currency once this transaction was made.
    pub balance_after: i64,
    pub cause: CreditCause,
    /// The invoice whose balance made it, or that it paid.
    pub invoice_id: Option<String>,
    pub created_at: Timestamp,
    pub actor: Actor,
}

/// A client's credit balance in one currency, in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreditBalance {
    pub currency: Currency,
    pub amount: i64,
}

/// What an invoice that asks for `due` and received `received` holds beyond it for the client:
/// the whole of it once the invoice is void (it asks for nothing any more).
pub const fn overpaid(received: i64, due: i64, void: bool) -> i64 {
    let due = if void { 0 } else { due };
    if received > due { received - due } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_an_invoice_holds_for_the_client() {
        assert_eq!(overpaid(12_000, 10_000, false), 2_000);
        assert_eq!(overpaid(10_000, 10_000, false), 0);
        assert_eq!(overpaid(4_000, 10_000, false), 0);
        assert_eq!(overpaid(4_000, 10_000, true), 4_000, "a void invoice asks for nothing");
        assert_eq!(overpaid(0, 10_000, true), 0);
        for &cause in CreditCause::ALL {
            assert_eq!(cause.as_str().parse::<CreditCause>(), Ok(cause));
        }
    }
}
