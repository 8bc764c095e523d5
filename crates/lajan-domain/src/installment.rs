//! Instalment plans: an invoice's total due in parts on successive dates. The parts sum to the
//! total exactly; payments fill them oldest first; the oldest part not yet paid is what makes
//! the invoice overdue once its date passes.

use crate::FieldError;
use crate::due_date::DueDate;
use crate::money::{format_scaled, parse_scaled};
use crate::validation::Invalid;

/// Weekly repayments for two years, with room to spare.
pub const MAX_INSTALLMENTS: usize = 120;

/// One part of an invoice's total, due on its date, in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Installment {
    pub amount: i64,
    pub due_date: DueDate,
}

/// An instalment as received: the amount as its exact JSON text.
#[derive(Debug, Clone, Default)]
pub struct InstallmentInput {
    pub amount: Option<String>,
    pub due_date: Option<String>,
}

impl InstallmentInput {
    /// The instalment as a request would give it: to judge a kept plan against a new total.
    pub fn of(installment: &Installment) -> Self {
        InstallmentInput {
            amount: Some(format_scaled(installment.amount, 2)),
            due_date: Some(installment.due_date.to_string()),
        }
    }
}

/// An instalment with what was paid of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallmentState {
    /// Its place in the plan, from 1.
    pub number: usize,
    pub amount: i64,
    pub due_date: DueDate,
    /// What credit notes took off it: they shorten the plan from its end.
    pub credited: i64,
    pub paid: i64,
}

impl InstallmentState {
    pub const fn remaining(&self) -> i64 {
        self.amount - self.credited - self.paid
    }
}

/// Parses a plan for an invoice of `total`: each row an amount above 0 (at most 2 decimal
/// places) and a due date, the dates in order (two on one day is one instalment), at most
/// [`MAX_INSTALLMENTS`], summing to `total` exactly. Every problem is `invalid_installments`
/// naming its row (`installments[2].dueDate`). An empty list is no plan.
pub fn parse_installments(rows: &[InstallmentInput], total: i64) -> Result<Vec<Installment>, Invalid> {
    let invalid = |details: Vec<FieldError>| {
        let message = match details.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            _ => format!("{} instalment fields are invalid", details.len()),
        };
        Invalid { code: "invalid_installments", message, details }
    };
    if rows.len() > MAX_INSTALLMENTS {
        return Err(invalid(vec![FieldError::new("installments", format!("at most {MAX_INSTALLMENTS} instalments"))]));
    }
    let mut errors = Vec::new();
    let mut plan = Vec::with_capacity(rows.len());
    // The last good date, even on a row whose amount is bad: each row is judged on its own.
    let mut previous: Option<DueDate> = None;
    for (i, row) in rows.iter().enumerate() {
        let mut bad =
            |name: &str, message: String| errors.push(FieldError::new(format!("installments[{i}].{name}"), message));
        let amount = match row.amount.as_deref().map(|a| crate::money::plain_cents(a).and_then(|()| parse_scaled(a, 2)))
        {
            None => {
                bad("amount", "is required".into());
                None
            }
            Some(Err(e)) => {
                bad("amount", e);
                None
            }
            Some(Ok(a)) if a <= 0 => {
                bad("amount", "must be greater than 0".into());
                None
            }
            Some(Ok(a)) => Some(a),
        };
        let due_date = match row.due_date.as_deref().map(DueDate::parse) {
            None => {
                bad("dueDate", "is required".into());
                None
            }
            Some(Err(e)) => {
                bad("dueDate", e.message);
                None
            }
            Some(Ok(d)) => Some(d),
        };
        if let (Some(before), Some(due)) = (previous, due_date)
            && due <= before
        {
            bad("dueDate", format!("must come after the instalment before it ({before})"));
        }
        previous = due_date.or(previous);
        if let (Some(amount), Some(due_date)) = (amount, due_date) {
            plan.push(Installment { amount, due_date });
        }
    }
    if !errors.is_empty() {
        return Err(invalid(errors));
    }
    let sum = plan.iter().try_fold(0i64, |acc, p| acc.checked_add(p.amount));
    if !plan.is_empty() && sum != Some(total) {
        let said = sum.map_or_else(|| "more than any amount".to_owned(), |s| format_scaled(s, 2));
        let why = format!("the instalments sum to {said}; the invoice's total is {}", format_scaled(total, 2));
        return Err(invalid(vec![FieldError::new("installments", why)]));
    }
    Ok(plan)
}

/// The due date of an invoice with `plan`: its last instalment's; `given` (the request's
/// `dueDate`) may say so again but not differ. Without a plan, `given`.
pub fn plan_due_date(plan: &[Installment], given: Option<DueDate>) -> Result<Option<DueDate>, Invalid> {
    match (plan.last(), given) {
        (Some(last), Some(given)) if given != last.due_date => Err(Invalid::fields(vec![FieldError::new(
            "dueDate",
            format!("must be the last instalment's due date ({}) or left out", last.due_date),
        )])),
        (Some(last), _) => Ok(Some(last.due_date)),
        (None, given) => Ok(given),
    }
}

/// Each instalment of `plan`, oldest first, with what `credited` (credit notes, taken off the
/// last instalments first: the plan ends sooner) and `paid` (filling the oldest first) cover
/// of it.
pub fn fill(plan: &[Installment], paid: i64, credited: i64) -> Vec<InstallmentState> {
    let mut uncredited = credited.max(0);
    let mut states: Vec<InstallmentState> = plan
        .iter()
        .enumerate()
        .map(|(i, p)| InstallmentState { number: i + 1, amount: p.amount, due_date: p.due_date, credited: 0, paid: 0 })
        .collect();
    for s in states.iter_mut().rev() {
        s.credited = uncredited.min(s.amount);
        uncredited -= s.credited;
    }
    let mut unpaid = paid.max(0);
    for s in &mut states {
        s.paid = unpaid.min(s.amount - s.credited);
        unpaid -= s.paid;
    }
    states
}

/// The oldest instalment left short, if any: the one the invoice waits for.
pub fn next_unpaid(plan: &[Installment], paid: i64, credited: i64) -> Option<InstallmentState> {
    fill(plan, paid, credited).into_iter().find(|s| s.remaining() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(amount: &str, due: &str) -> InstallmentInput {
        InstallmentInput { amount: Some(amount.into()), due_date: Some(due.into()) }
    }

    #[test]
    fn a_plan_sums_to_the_total_in_date_order() {
        let plan = parse_installments(&[row("40", "2030-01-31"), row("60.00", "2030-02-28")], 10_000).unwrap();
        assert_eq!(plan.iter().map(|p| p.amount).collect::<Vec<_>>(), [4_000, 6_000]);
        assert_eq!(parse_installments(&[], 10_000), Ok(vec![]));

        let short = parse_installments(&[row("40", "2030-01-31"), row("50", "2030-02-28")], 10_000).unwrap_err();
        assert_eq!((short.code, short.details[0].field.as_str()), ("invalid_installments", "installments"));
        assert!(short.message.contains("sum to 90.00") && short.message.contains("100.00"), "{}", short.message);

        let bad = parse_installments(
            &[row("0", "2030-01-31"), row("40", "2030-13-01"), row("30.001", "2030-02-15"), row("30", "2030-02-01")],
            10_000,
        )
        .unwrap_err();
        let fields: Vec<&str> = bad.details.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(
            fields,
            ["installments[0].amount", "installments[1].dueDate", "installments[2].amount", "installments[3].dueDate"]
        );
        let missing = parse_installments(&[InstallmentInput::default()], 100).unwrap_err();
        assert_eq!(missing.details.len(), 2);
        let many: Vec<_> = (0..=MAX_INSTALLMENTS).map(|_| row("1", "2030-01-01")).collect();
        assert_eq!(parse_installments(&many, 121).unwrap_err().details[0].field, "installments");
    }

    #[test]
    fn payments_fill_the_oldest_first() {
        let plan =
            parse_installments(&[row("30", "2030-01-31"), row("30", "2030-02-28"), row("40", "2030-03-31")], 10_000)
                .unwrap();
        let paid: Vec<i64> = fill(&plan, 4_500, 0).iter().map(|s| s.paid).collect();
        assert_eq!(paid, [3_000, 1_500, 0]);
        assert_eq!(next_unpaid(&plan, 4_500, 0).map(|s| (s.number, s.remaining())), Some((2, 1_500)));
        assert_eq!(next_unpaid(&plan, 0, 0).map(|s| s.number), Some(1));
        assert_eq!(next_unpaid(&plan, 10_000, 0), None);
        assert_eq!(fill(&plan, 12_000, 0).iter().map(|s| s.paid).sum::<i64>(), 10_000, "an overpayment fills no more");
        // 50.00 credited shortens the plan from its end: the last instalment and 10.00 of the second.
        let credited: Vec<(i64, i64)> = fill(&plan, 4_500, 5_000).iter().map(|s| (s.credited, s.paid)).collect();
        assert_eq!(credited, [(0, 3_000), (1_000, 1_500), (4_000, 0)]);
        assert_eq!(next_unpaid(&plan, 5_000, 5_000), None, "paid what the credit note left");
    }
}
