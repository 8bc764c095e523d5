//! An invoice's statement: every movement of what the client owes on it, in the order they
//! happened, each with the running balance, so that the last balance is the invoice's
//! `amountRemaining`, explained line by line.

use crate::Timestamp;
use crate::credit_balance::CreditTransaction;
use crate::credit_note::CreditNote;
use crate::invoice::{Invoice, InvoiceStatus};
use crate::invoice_payment::InvoicePayment;

/// What moved the balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MovementKind {
    /// The invoice's total, owed from its creation.
    Invoiced,
    /// A payment counted (from the ledger or received outside Lajan).
    Payment,
    /// A payment reversed: it owes again what the payment had paid.
    PaymentReversed,
    /// The invoice voided: what it asked for is no longer owed.
    Voided,
    /// A credit note: the invoice asks for less.
    CreditNote,
    /// A credit note voided: the invoice asks for its amount again.
    CreditNoteVoided,
    /// What was paid beyond what it asks for, moved to the client's credit balance.
    ToCreditBalance,
    /// An overpayment taken back from the client's credit balance (a reversal).
    FromCreditBalance,
}

impl MovementKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            MovementKind::Invoiced => "invoiced",
            MovementKind::Payment => "payment",
            MovementKind::PaymentReversed => "payment_reversed",
            MovementKind::Voided => "voided",
            MovementKind::CreditNote => "credit_note",
            MovementKind::CreditNoteVoided => "credit_note_voided",
            MovementKind::ToCreditBalance => "to_credit_balance",
            MovementKind::FromCreditBalance => "from_credit_balance",
        }
    }
}

/// One line of the statement, in minor units: `amount` adds to what is owed (negative takes
/// from it), and `balance` is what is owed once it is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Movement {
    pub kind: MovementKind,
    pub at: Timestamp,
    pub amount: i64,
    pub balance: i64,
    /// The payment (payments and reversals) or the credit balance transaction it comes from.
    pub source_id: Option<String>,
    /// A payment's method and reference (its transaction hash or receipt number), or a
    /// reversal's reason.
    pub method: Option<&'static str>,
    pub reference: Option<String>,
}

/// The statement of `invoice` from its `payments` (reversed ones included), its credit notes
/// (void ones included) and the moves of the client's credit balance it made, oldest first:
/// within one moment, in the order a change makes them (the invoice, payments and reversals,
/// a void, credit notes, then what its balance held for the client).
pub fn statement(
    invoice: &Invoice,
    payments: &[InvoicePayment],
    credits: &[CreditTransaction],
    credit_notes: &[CreditNote],
) -> Vec<Movement> {
    let line = |kind, at, amount, source_id: Option<&String>| Movement {
        kind,
        at,
        amount,
        balance: 0,
        source_id: source_id.cloned(),
        method: None,
        reference: None,
    };
    let mut lines = vec![line(MovementKind::Invoiced, invoice.created_at, invoice.totals.total, None)];
    for p in payments {
        lines.push(Movement {
            method: Some(p.method.as_str()),
            reference: p.reference.clone(),
            ..line(MovementKind::Payment, p.recorded_at, -p.amount, Some(&p.id))
        });
        if let Some(r) = &p.reversal {
            lines.push(Movement {
                method: Some(p.method.as_str()),
                reference: Some(r.reason.clone()),
                ..line(MovementKind::PaymentReversed, r.at, p.amount, Some(&p.id))
            });
        }
    }
    if let (InvoiceStatus::Void, Some(at)) = (invoice.status, invoice.voided_at) {
        // What it still asked for (its credit notes stay as they were once it is void).
        lines.push(line(MovementKind::Voided, at, -(invoice.totals.total - invoice.amount_credited), None));
    }
    for n in credit_notes {
        lines.push(Movement {
            reference: Some(n.number.clone()),
            ..line(MovementKind::CreditNote, n.created_at, -n.amount, Some(&n.id))
        });
        if let Some((at, _)) = &n.voided {
            lines.push(Movement {
                reference: Some(n.number.clone()),
                ..line(MovementKind::CreditNoteVoided, *at, n.amount, Some(&n.id))
            });
        }
    }
    for c in credits.iter().filter(|c| !c.cause.pays_invoice()) {
        let kind = if c.amount >= 0 { MovementKind::ToCreditBalance } else { MovementKind::FromCreditBalance };
        lines.push(line(kind, c.created_at, c.amount, Some(&c.id)));
    }
    lines.sort_by(|a, b| (a.at, a.kind, &a.source_id).cmp(&(b.at, b.kind, &b.source_id)));
    let mut balance = 0i64;
    for l in &mut lines {
        balance = balance.saturating_add(l.amount);
        l.balance = balance;
    }
    lines
}

/// What a client owes on `invoices`, per currency (by currency code), only currencies with
/// something owed: what each open invoice still asks (a draft asks nothing of the client yet;
/// a paid or void one, nothing any more).
pub fn owed_by_currency<'a>(invoices: impl IntoIterator<Item = &'a Invoice>) -> Vec<(crate::money::Currency, i64)> {
    let mut owed: Vec<(crate::money::Currency, i64)> = Vec::new();
    for invoice in invoices.into_iter().filter(|i| i.status.is_payable() && i.amount_remaining() > 0) {
        match owed.iter_mut().find(|(currency, _)| *currency == invoice.currency) {
            Some((_, sum)) => *sum = sum.saturating_add(invoice.amount_remaining()),
            None => owed.push((invoice.currency, invoice.amount_remaining())),
        }
    }
    owed.sort_by_key(|(currency, _)| currency.code());
    owed
}
