//! Credit notes: what a sent invoice no longer asks for, and why. Before payment a credit note
//! lowers what is owed; after payment beyond the new total, the excess is the client's credit
//! balance. Numbered per organization like invoices (`CN-000001`); voided, never deleted.

use crate::invoice::{LineItem, MAX_LINE_ITEMS, QUANTITY_PLACES};
use crate::money::{format_trimmed, parse_amount, parse_scaled};
use crate::validation::{FieldErrors, parse_text};
use crate::{Actor, FieldError, Invalid, Timestamp};

/// Why an invoice asks for less.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CreditNoteReason {
    Waiver,
    Rescheduling,
    Duplicate,
    Other,
}

str_enum!(CreditNoteReason {
    Waiver => "waiver",
    Rescheduling => "rescheduling",
    Duplicate => "duplicate",
    Other => "other",
});

/// A credit note's memo: at most this many characters.
pub const MAX_CREDIT_NOTE_MEMO: usize = 500;

/// A credit note as a request gives it: an `amount`, or the invoice's `lines` it takes back.
#[derive(Debug, Clone, Default)]
pub struct CreditNoteInput {
    /// The exact decimal text, in the invoice's currency.
    pub amount: Option<String>,
    pub lines: Option<Vec<CreditLineInput>>,
    pub reason: Option<String>,
    pub memo: Option<String>,
}

/// A line of the invoice a credit note takes back, as a request gives it.
#[derive(Debug, Clone, Default)]
pub struct CreditLineInput {
    /// The line's place in the invoice's line items, from 1.
    pub line_item: Option<i64>,
    /// The exact decimal text of how many of its units; absent: all that is left of it.
    pub quantity: Option<String>,
}

/// What a credit note takes off: an amount, or units of the invoice's lines (line from 1,
/// quantity in ten-thousandths; `None`: all that is left of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credit {
    Amount(i64),
    Lines(Vec<(usize, Option<i64>)>),
    /// Lines with the amount the caller expects them to take back: refused unless they do.
    LinesTotalling(Vec<(usize, Option<i64>)>, i64),
}

/// A credit note checked, before the invoice it reduces is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCreditNote {
    pub credit: Credit,
    pub reason: CreditNoteReason,
    pub memo: Option<String>,
}

/// A line of the invoice a credit note took back: which, how many units, and what they came
/// to, tax included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditLine {
    /// Its place in the invoice's line items, from 1.
    pub line_item: usize,
    pub description: String,
    pub quantity: i64,
    pub amount: i64,
}

impl Credit {
    /// What it takes off an invoice with line `items` whose `earlier` credit notes took back
    /// what they did (void ones gave it back), and the lines it takes back. Units of a line
    /// are never credited twice; the units that finish a line take exactly what is left of it,
    /// so a line credited in pieces adds up to its amount and tax. `invalid_amount` when that is
    /// nothing; `validation_error` naming each bad line otherwise.
    pub fn price(&self, items: &[LineItem], earlier: &[CreditNote]) -> Result<(i64, Vec<CreditLine>), Invalid> {
        let asked = match self {
            Credit::Amount(amount) => return Ok((*amount, Vec::new())),
            Credit::Lines(asked) | Credit::LinesTotalling(asked, _) => asked,
        };
        let mut taken = vec![0i64; items.len()];
        for line in earlier.iter().filter(|n| n.voided.is_none()).flat_map(|n| &n.lines) {
            if let Some(t) = taken.get_mut(line.line_item.wrapping_sub(1)) {
                *t += line.quantity;
            }
        }
        let (mut errors, mut lines, mut total) = (Vec::new(), Vec::new(), 0i64);
        for (i, (line_item, quantity)) in asked.iter().enumerate() {
            let Some(item) = line_item.checked_sub(1).and_then(|at| items.get(at)) else {
                let rule = format!("must be a whole number from 1 to {}", items.len());
                errors.push(FieldError::new(format!("lines[{i}].lineItem"), rule));
                continue;
            };
            let before = taken[line_item - 1];
            let left = item.quantity - before;
            let quantity = quantity.unwrap_or(left);
            if left <= 0 || quantity > left {
                let rule = if left <= 0 {
                    "nothing is left to credit on this line".to_owned()
                } else {
                    format!(
                        "must be at most {}: what is left to credit on this line",
                        format_trimmed(left, QUANTITY_PLACES)
                    )
                };
                errors.push(FieldError::new(format!("lines[{i}].quantity"), rule));
                continue;
            }
            let amount = item.charge_for(before + quantity) - item.charge_for(before);
            taken[line_item - 1] += quantity;
            total += amount;
            lines.push(CreditLine { line_item: *line_item, description: item.description.clone(), quantity, amount });
        }
        if !errors.is_empty() {
            return Err(Invalid::fields(errors));
        }
        if total <= 0 {
            return Err(Invalid::new("invalid_amount", "the lines come to 0.00: there is nothing to credit"));
        }
        if let Credit::LinesTotalling(_, stated) = self
            && *stated != total
        {
            let why = format!(
                "amount {} is not what the lines take back: {}",
                crate::money::format_scaled(*stated, 2),
                crate::money::format_scaled(total, 2)
            );
            return Err(Invalid::new("invalid_amount", why));
        }
        Ok((total, lines))
    }
}

/// The lines a request asks to credit, checked for shape: each names a line from 1, and a
/// quantity above 0 when it gives one.
fn parse_lines(given: &[CreditLineInput], errors: &mut FieldErrors) -> Option<Vec<(usize, Option<i64>)>> {
    if given.is_empty() || given.len() > MAX_LINE_ITEMS {
        errors.add("lines", format!("must hold 1 to {MAX_LINE_ITEMS} lines"));
        return None;
    }
    let mut lines = Vec::with_capacity(given.len());
    for (i, line) in given.iter().enumerate() {
        let line_item = match line.line_item.map(usize::try_from) {
            Some(Ok(n)) if n >= 1 => Some(n),
            None => errors.take::<usize>(&format!("lines[{i}].lineItem"), Err("is required".into())),
            Some(_) => errors.take::<usize>(&format!("lines[{i}].lineItem"), Err("must be greater than 0".into())),
        };
        let quantity = match line.quantity.as_deref().map(|q| parse_scaled(q, QUANTITY_PLACES)) {
            None => Some(None),
            Some(Ok(q)) if q > 0 => Some(Some(q)),
            Some(Ok(_)) => errors.take(&format!("lines[{i}].quantity"), Err("must be greater than 0".into())),
            Some(Err(e)) => errors.take(&format!("lines[{i}].quantity"), Err(e)),
        };
        if let (Some(line_item), Some(quantity)) = (line_item, quantity) {
            lines.push((line_item, quantity));
        }
    }
    (lines.len() == given.len()).then_some(lines)
}

impl CreditNoteInput {
    /// Every problem at once: `amount` above 0 with at most 2 decimal places or `lines` (one of
    /// the two), `reason` one of [`CreditNoteReason::ALL`], `memo` at most
    /// [`MAX_CREDIT_NOTE_MEMO`] characters.
    pub fn parse(self) -> Result<NewCreditNote, Invalid> {
        let mut errors = FieldErrors::new();
        let credit = match (self.amount.as_deref().map(|a| parse_amount("amount", a)), self.lines.as_deref()) {
            (Some(Err(e)), Some(_)) => return Err(e),
            (Some(Ok(a)), Some(lines)) => parse_lines(lines, &mut errors).map(|l| Credit::LinesTotalling(l, a)),
            (None, None) => {
                errors.add("amount", "is required, or lines");
                None
            }
            (Some(Err(e)), None) => return Err(e),
            (Some(Ok(a)), None) if a <= 0 => {
                return Err(Invalid::new("invalid_amount", "amount must be greater than 0"));
            }
            (Some(Ok(a)), None) => Some(Credit::Amount(a)),
            (None, Some(lines)) => parse_lines(lines, &mut errors).map(Credit::Lines),
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
        match (credit, reason) {
            (Some(credit), Some(reason)) => Ok(NewCreditNote { credit, reason, memo }),
            _ => Err(Invalid::new("validation_error", "amount or lines, and reason, are required")),
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
    /// The invoice's lines it took back; empty for a credit note of an amount.
    pub lines: Vec<CreditLine>,
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
            lines: None,
        };
        let note = input("250.5", "waiver").parse().unwrap();
        assert_eq!(
            (note.credit, note.reason, note.memo.as_deref()),
            (Credit::Amount(25_050), CreditNoteReason::Waiver, Some("Hurricane relief"))
        );
        assert_eq!(input("0", "waiver").parse().unwrap_err().code, "invalid_amount");
        assert_eq!(input("1.001", "waiver").parse().unwrap_err().code, "invalid_amount");
        let bad = input("5", "gift").parse().unwrap_err();
        assert_eq!((bad.code, bad.details[0].field.as_str()), ("validation_error", "reason"));
        let missing = CreditNoteInput::default().parse().unwrap_err();
        assert_eq!(missing.details.len(), 2);
        assert_eq!(credit_note_number(7), "CN-000007");
    }

    #[test]
    fn lines_credited_in_pieces_add_up_to_the_line_exactly() {
        use crate::money::TaxRate;
        let fee = LineItem {
            description: "Loan fee".into(),
            quantity: 30_000,
            unit_price: 3_333,
            tax_rate: TaxRate::from_thousandths(10_000),
            amount: 9_999,
            tax: 1_000,
        };
        let items = [fee.clone(), LineItem { description: "Stamp".into(), quantity: 10_000, unit_price: 500, ..fee }];
        let note = |lines: Vec<CreditLine>, void: bool| CreditNote {
            id: "cn_1".into(),
            number: "CN-000001".into(),
            invoice_id: "inv_1".into(),
            amount: lines.iter().map(|l| l.amount).sum(),
            lines,
            reason: CreditNoteReason::Waiver,
            memo: None,
            created_at: Timestamp::from_millis(0),
            created_by: Actor::worker(),
            voided: void.then(|| (Timestamp::from_millis(0), Actor::worker())),
        };
        let one = Credit::Lines(vec![(1, Some(10_000))]);
        let (first, lines) = one.price(&items, &[]).unwrap();
        assert_eq!((first, lines[0].quantity, lines[0].description.as_str()), (3_666, 10_000, "Loan fee"));
        let (second, more) = one.price(&items, &[note(lines.clone(), false)]).unwrap();
        assert_eq!(second, 3_667, "66.66 + 6.67 less the first 36.66");
        let both = [note(lines.clone(), false), note(more, false)];
        let (last, _) = Credit::Lines(vec![(1, None)]).price(&items, &both).unwrap();
        assert_eq!(first + second + last, 9_999 + 1_000, "three pieces are the line, to the cent");
        let checked = Credit::LinesTotalling(vec![(1, Some(10_000))], 3_666).price(&items, &[]).unwrap();
        assert_eq!(checked.0, 3_666, "an amount given with the lines that is what they come to");
        let differs = Credit::LinesTotalling(vec![(1, Some(10_000))], 1).price(&items, &[]).unwrap_err();
        assert_eq!(differs.message, "amount 0.01 is not what the lines take back: 36.66");
        let (again, _) = Credit::Lines(vec![(1, None)]).price(&items, &[note(lines, true)]).unwrap();
        assert_eq!(again, 10_999, "a void credit note gives its units back");

        let refused = Credit::Lines(vec![(3, None), (1, Some(40_000)), (2, None)]).price(&items, &[]).unwrap_err();
        let fields: Vec<_> = refused.details.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(fields, ["lines[0].lineItem", "lines[1].quantity"]);
        assert_eq!(Credit::Amount(5).price(&items, &[]).unwrap(), (5, Vec::new()));

        let input = |amount: Option<&str>, lines: Option<Vec<CreditLineInput>>| CreditNoteInput {
            amount: amount.map(str::to_owned),
            lines,
            reason: Some("waiver".into()),
            memo: None,
        };
        let line = |n: i64, q: Option<&str>| CreditLineInput { line_item: Some(n), quantity: q.map(str::to_owned) };
        let parsed = input(None, Some(vec![line(2, None), line(1, Some("1.5"))])).parse().unwrap();
        assert_eq!(parsed.credit, Credit::Lines(vec![(2, None), (1, Some(15_000))]));
        // Both: the amount checks what the lines come to once they are priced.
        let both = input(Some("5"), Some(vec![line(1, None)])).parse().unwrap();
        assert_eq!(both.credit, Credit::LinesTotalling(vec![(1, None)], 500));
        let bad = input(None, Some(vec![line(0, Some("-1"))])).parse().unwrap_err();
        let fields: Vec<_> = bad.details.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(fields, ["lines[0].lineItem", "lines[0].quantity"]);
        assert_eq!(input(None, Some(Vec::new())).parse().unwrap_err().details[0].field, "lines");
    }
}
