//! A payment counted on an invoice: every payment in, whatever its size, from the ledger (a
//! Stellar payment carrying the invoice's reference) or, later, received outside Lajan (cash,
//! mobile money, a bank transfer). A payment is never deleted: a mistaken one is reversed.

use crate::{Actor, Environment, Timestamp};
use std::fmt;
use std::str::FromStr;

/// How the money came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentMethod {
    /// A payment on the Stellar network, matched by the invoice's reference (its memo).
    Stellar,
    Cash,
    MonCash,
    NatCash,
    BankTransfer,
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 5] = [
        PaymentMethod::Stellar,
        PaymentMethod::Cash,
        PaymentMethod::MonCash,
        PaymentMethod::NatCash,
        PaymentMethod::BankTransfer,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Stellar => "stellar",
            PaymentMethod::Cash => "cash",
            PaymentMethod::MonCash => "moncash",
            PaymentMethod::NatCash => "natcash",
            PaymentMethod::BankTransfer => "bank_transfer",
        }
    }
}

impl fmt::Display for PaymentMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PaymentMethod {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PaymentMethod::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| format!("unknown method {s:?}: expected stellar, cash, moncash, natcash or bank_transfer"))
    }
}

/// One payment on an invoice, in the invoice's currency's minor units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoicePayment {
    pub id: String,
    pub org_id: String,
    pub env: Environment,
    pub invoice_id: String,
    pub amount: i64,
    pub method: PaymentMethod,
    /// The Stellar transaction's hash, or what the payer's receipt says.
    pub reference: Option<String>,
    /// The ledger payment it counts, for a Stellar payment.
    pub incoming_payment_id: Option<String>,
    /// When the payer paid (for a ledger payment, when it was seen on the ledger).
    pub paid_at: Timestamp,
    /// When Lajan counted it.
    pub recorded_at: Timestamp,
    /// Who counted it: the ledger watcher, or the person or key that recorded it.
    pub recorded_by: Actor,
    pub reversal: Option<Reversal>,
}

/// Why and when a payment stopped counting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reversal {
    pub at: Timestamp,
    pub by: Actor,
    pub reason: String,
}

impl InvoicePayment {
    /// What it counts towards the invoice: its amount, or nothing once reversed.
    pub fn counted(&self) -> i64 {
        if self.reversal.is_some() { 0 } else { self.amount }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_read_back_and_refuse_the_unknown() {
        for method in PaymentMethod::ALL {
            assert_eq!(method.as_str().parse::<PaymentMethod>(), Ok(method));
        }
        assert!("cheque".parse::<PaymentMethod>().unwrap_err().contains("bank_transfer"));
    }
}
