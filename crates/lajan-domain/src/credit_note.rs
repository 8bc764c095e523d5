//! Credit notes: what a sent invoice no longer asks for, and why. Before payment a credit note
//! lowers what is owed; after payment beyond the new total, the excess is the client's credit
//! balance. Numbered per organization like invoices (`CN-000001`); voided, never deleted.

use crate::money::parse_amount;
use crate::validation::{FieldErrors, parse_text};
use crate::{Actor, Invalid, Timestamp};
use std::str::FromStr;

/// Why an invoice asks for less.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreditNoteReason {
    Waiver,
    Rescheduling,
    Duplicate,
    Other,
}

impl CreditNoteReason {
    pub const ALL: [CreditNoteReason; 4] = [
        CreditNoteReason::Waiver,
        CreditNoteReason::Rescheduling,
        CreditNoteReason::Duplicate,
        CreditNoteReason::Other,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            CreditNoteReason::Waiver => "waiver",
            CreditNoteReason::Rescheduling => "rescheduling",
            CreditNoteReason::Duplicate => "duplicate",
            CreditNoteReason::Other => "other",
        }
    }
}

impl FromStr for CreditNoteReason {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CreditNoteReason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| "must be waiver, rescheduling, duplicate or other".to_owned())
    }
}

/// A credit note's memo: at most this many characters.
pub const MAX_CREDIT_NOTE_MEMO: usize = 500;

/// A credit note as a request gives it.
#[derive(Debug, Clone, Default)]
pub struct CreditNoteInput {
    /// The exact decimal text, in the invoice's currency.
    pub amount: Option<String>,
    pub reason: Option<String>,
    pub memo: Option<String>,
}

/// A credit note checked, before the invoice it reduces is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCreditNote {
    pub amount: i64,
    pub reason: CreditNoteReason,
    pub memo: Option<String>,
}

impl CreditNoteInput {
    /// Every problem at once: `amount` above 0 with at most 2 decimal places, `reason` one of
    /// [`CreditNoteReason::ALL`], `memo` at most [`MAX_CREDIT_NOTE_MEMO`] characters.
    pub fn parse(self) -> Result<NewCreditNote, Invalid> {
        let mut errors = FieldErrors::new();
        let amount = match self.amount.as_deref().map(|a| parse_amount("amount", a)) {
            None => {
                errors.add("amount", "is required");
                None
            }
            Some(Err(e)) => return Err(e),
            Some(Ok(a)) if a <= 0 => return Err(Invalid::new("invalid_amount", "amount must be greater than 0")),
            Some(Ok(a)) => Some(a),
        };
        let reason = match self.reason.as_deref() {
            None => {
                errors.add("reason", "is required");
                None
            }
            Some(r) => errors.take("reason", r.parse()),
        };
        let memo = errors.take("memo", parse_text(self.memo.as_deref(), MAX_CREDIT_NOTE_MEMO, true)).flatten();
        errors.finish()?;
        match (amount, reason) {
            (Some(amount), Some(reason)) => Ok(NewCreditNote { amount, reason, memo }),
            _ => Err(Invalid::new("validation_error", "amount and reason are required")),
        }
    }
}

/// A credit note as stored, in the invoice's currency's minor units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditNote {
    pub id: String,
    pub number: String,
    pub invoice_id: String,
    pub amount: i64,
    pub reason: CreditNoteReason,
    pub memo: Option<String>,
    pub created_at: Timestamp,
    pub created_by: Actor,
    /// When, and by whom, it stopped reducing the invoice.
    pub voided: Option<(Timestamp, Actor)>,
}

impl CreditNote {
    /// What it takes off its invoice now: its amount, or nothing once void.
    pub fn in_force(&self) -> i64 {
        if self.voided.is_some() { 0 } else { self.amount }
    }
}

/// `CN-` and a per-organization, per-environment sequence of at least 6 digits.
pub fn credit_note_number(sequence: i64) -> String {
    format!("CN-{sequence:06}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_credit_note_says_how_much_and_why() {
        let input = |amount: &str, reason: &str| CreditNoteInput {
            amount: Some(amount.into()),
            reason: Some(reason.into()),
            memo: Some(" Hurricane relief ".into()),
        };
        let note = input("250.5", "waiver").parse().unwrap();
        assert_eq!(
            (note.amount, note.reason, note.memo.as_deref()),
            (25_050, CreditNoteReason::Waiver, Some("Hurricane relief"))
        );
        assert_eq!(input("0", "waiver").parse().unwrap_err().code, "invalid_amount");
        assert_eq!(input("1.001", "waiver").parse().unwrap_err().code, "invalid_amount");
        let bad = input("5", "gift").parse().unwrap_err();
        assert_eq!((bad.code, bad.details[0].field.as_str()), ("validation_error", "reason"));
        let missing = CreditNoteInput::default().parse().unwrap_err();
        assert_eq!(missing.details.len(), 2);
        assert_eq!(credit_note_number(7), "CN-000007");
    }
}
