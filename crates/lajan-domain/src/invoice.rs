//! Invoices: line items and their exact arithmetic, the invoice number, the due date, and the
//! state machine (draft, sent, viewed, partially_paid, paid, overdue, void) with the event each
//! move emits.

use crate::client::Client;
pub use crate::due_date::DueDate;
use crate::money::{Currency, MAX_CENTS, TaxRate, format_scaled, parse_scaled};
use crate::payment::PaymentIntent;
use crate::validation::{FieldErrors, Invalid, parse_text, required_text};
use crate::{FieldError, Timestamp};
/// Quantities carry up to 4 decimal places and are kept multiplied by 10^4.
pub const QUANTITY_PLACES: u32 = 4;
pub const MAX_LINE_ITEMS: usize = 100;
pub const MAX_DESCRIPTION_CHARS: usize = 500;
pub const MAX_MEMO_CHARS: usize = 1000;

/// Divides `n` by `d` (> 0), rounding half away from zero: the rounding of money here.
fn div_round_half_up(n: i128, d: i128) -> i128 {
    let (q, r) = (n / d, n % d);
    if r.abs() * 2 >= d { q + n.signum() } else { q }
}

/// A line item as stored: quantity in ten-thousandths, money in cents, the rate that applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineItem {
    pub description: String,
    pub quantity: i64,
    pub unit_price: i64,
    pub tax_rate: TaxRate,
    /// quantity x unitPrice, rounded half-up to the cent.
    pub amount: i64,
    /// amount x taxRate / 100, rounded half-up to the cent.
    pub tax: i64,
}

/// What `quantity` units at `unit_price` come to before tax, and their tax at `rate`, each
/// rounded as every line's are.
fn price_units(quantity: i64, unit_price: i64, rate: TaxRate) -> (i128, i128) {
    let amount = div_round_half_up(i128::from(quantity) * i128::from(unit_price), 10i128.pow(QUANTITY_PLACES));
    (amount, div_round_half_up(amount * i128::from(rate.thousandths()), 100_000))
}

impl LineItem {
    pub fn quantity_text(&self) -> String {
        crate::money::format_trimmed(self.quantity, QUANTITY_PLACES)
    }

    /// What `quantity` of its units come to, tax included, priced as the line was; all of them
    /// (or more) are exactly its amount and tax.
    pub fn charge_for(&self, quantity: i64) -> i64 {
        let whole = self.amount + self.tax;
        if quantity >= self.quantity {
            return whole;
        }
        let (amount, tax) = price_units(quantity, self.unit_price, self.tax_rate);
        // Fewer units never cost more than the whole line, which fits.
        i64::try_from(amount + tax).unwrap_or(whole)
    }
}

/// A line item as received: numbers as their exact JSON text.
#[derive(Debug, Clone, Default)]
pub struct LineItemInput {
    pub description: Option<String>,
    pub quantity: Option<String>,
    pub unit_price: Option<String>,
    pub tax_rate: Option<String>,
}

/// Subtotal, tax and total of a set of line items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    pub subtotal: i64,
    pub tax: i64,
    pub total: i64,
}

/// Parses and prices line items. Every problem is reported as `invalid_line_items` with the
/// field path (`lineItems[2].quantity`); `default_rate` applies where an item names none.
pub fn price_line_items(items: &[LineItemInput], default_rate: TaxRate) -> Result<(Vec<LineItem>, Totals), Invalid> {
    let invalid = |details: Vec<FieldError>| {
        let message = match details.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            _ => format!("{} line item fields are invalid", details.len()),
        };
        Invalid { code: "invalid_line_items", message, details }
    };
    if items.is_empty() {
        return Err(invalid(vec![FieldError::new("lineItems", "at least one line item is required")]));
    }
    if items.len() > MAX_LINE_ITEMS {
        return Err(invalid(vec![FieldError::new("lineItems", format!("at most {MAX_LINE_ITEMS} line items"))]));
    }
    let mut errors = Vec::new();
    let mut priced = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let field = |name: &str| format!("lineItems[{i}].{name}");
        let mut bad = |name: &str, message: String| errors.push(FieldError::new(field(name), message));
        let description = match required_text(item.description.as_deref(), MAX_DESCRIPTION_CHARS, false) {
            Ok(d) => Some(d),
            Err(rule) => {
                bad("description", rule);
                None
            }
        };
        let quantity = match item.quantity.as_deref().map(|q| parse_scaled(q, QUANTITY_PLACES)) {
            None => {
                bad("quantity", "is required".into());
                None
            }
            Some(Err(e)) => {
                bad("quantity", e);
                None
            }
            Some(Ok(q)) if q <= 0 => {
                bad("quantity", "must be greater than 0".into());
                None
            }
            Some(Ok(q)) => Some(q),
        };
        let unit_price = match item.unit_price.as_deref().map(|p| parse_scaled(p, 2)) {
            None => {
                bad("unitPrice", "is required".into());
                None
            }
            Some(Err(e)) => {
                bad("unitPrice", e);
                None
            }
            Some(Ok(p)) if p < 0 => {
                bad("unitPrice", "must not be negative".into());
                None
            }
            Some(Ok(p)) if p > MAX_CENTS => {
                bad("unitPrice", format!("must be at most {}", format_scaled(MAX_CENTS, 2)));
                None
            }
            Some(Ok(p)) => Some(p),
        };
        let tax_rate = match item.tax_rate.as_deref().map(TaxRate::parse) {
            None => Some(default_rate),
            Some(Err(e)) => {
                bad("taxRate", e);
                None
            }
            Some(Ok(r)) => Some(r),
        };
        if let (Some(description), Some(quantity), Some(unit_price), Some(tax_rate)) =
            (description, quantity, unit_price, tax_rate)
        {
            let (amount, tax) = price_units(quantity, unit_price, tax_rate);
            match (i64::try_from(amount), i64::try_from(tax)) {
                (Ok(amount), Ok(tax)) => {
                    priced.push(LineItem { description, quantity, unit_price, tax_rate, amount, tax })
                }
                _ => bad("quantity", "quantity x unitPrice is too large".into()),
            }
        }
    }
    if !errors.is_empty() {
        return Err(invalid(errors));
    }
    let sum = |f: fn(&LineItem) -> i64| priced.iter().try_fold(0i64, |acc, l| acc.checked_add(f(l)));
    let totals = match (sum(|l| l.amount), sum(|l| l.tax)) {
        (Some(subtotal), Some(tax)) => subtotal.checked_add(tax).map(|total| Totals { subtotal, tax, total }),
        _ => None,
    }
    .filter(|t| t.total <= MAX_CENTS);
    let totals = totals.ok_or_else(|| {
        invalid(vec![FieldError::new(
            "lineItems",
            format!("the total exceeds the maximum of {}", format_scaled(MAX_CENTS, 2)),
        )])
    })?;
    // Nothing can be paid against a zero total: its payment page would ask for 0.00.
    if totals.total == 0 {
        return Err(invalid(vec![FieldError::new("lineItems", "the total must be greater than 0.00")]));
    }
    Ok((priced, totals))
}

/// `INV-` and a per-organization, per-environment sequence of at least 6 digits.
pub fn invoice_number(sequence: i64) -> String {
    format!("INV-{sequence:06}")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvoiceStatus {
    Draft,
    Sent,
    Viewed,
    PartiallyPaid,
    Paid,
    Overdue,
    Void,
}

str_enum!(InvoiceStatus {
    Draft => "draft",
    Sent => "sent",
    Viewed => "viewed",
    PartiallyPaid => "partially_paid",
    Paid => "paid",
    Overdue => "overdue",
    Void => "void",
});

impl InvoiceStatus {
    /// Whether a customer may pay it now.
    pub const fn is_payable(self) -> bool {
        matches!(
            self,
            InvoiceStatus::Sent | InvoiceStatus::Viewed | InvoiceStatus::PartiallyPaid | InvoiceStatus::Overdue
        )
    }

    /// The status once what the invoice received changes (a payment in, or one reversed) to
    /// `received` of `due`: an open invoice with something paid and something left is partially
    /// paid, one with nothing paid any more is sent again, and a paid one a reversal leaves short
    /// reopens as either (the overdue job marks it overdue if its due date has passed). Paid in
    /// full changes nothing here: [`InvoiceAction::Pay`] moves it, with its event. Overdue wins
    /// while it is overdue; a draft or void invoice keeps its status whatever money reaches it.
    pub const fn after_received(self, received: i64, due: i64) -> InvoiceStatus {
        use InvoiceStatus as S;
        match self {
            S::Draft | S::Void | S::Overdue => self,
            _ if received >= due => self,
            _ if received > 0 => S::PartiallyPaid,
            S::PartiallyPaid | S::Paid => S::Sent,
            other => other,
        }
    }
}

/// What can happen to an invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceAction {
    Update,
    Send,
    View,
    Pay,
    MarkOverdue,
    Void,
}

impl InvoiceAction {
    pub const ALL: [InvoiceAction; 6] = [
        InvoiceAction::Update,
        InvoiceAction::Send,
        InvoiceAction::View,
        InvoiceAction::Pay,
        InvoiceAction::MarkOverdue,
        InvoiceAction::Void,
    ];
}

/// The outcome of an action that is allowed: the new status and the event to record, if any.
/// `None` for the event means nothing observable changed (a no-op).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transition {
    pub to: InvoiceStatus,
    pub event: Option<&'static str>,
}

/// The invoice state machine. `Err` is the API error for a refused action.
pub fn transition(from: InvoiceStatus, action: InvoiceAction) -> Result<Transition, Invalid> {
    use InvoiceAction as A;
    use InvoiceStatus as S;
    let to = |to: S, event: &'static str| Ok(Transition { to, event: Some(event) });
    let stay = || Ok(Transition { to: from, event: None });
    match (action, from) {
        (A::Update, S::Draft) => stay(),
        (A::Update, _) => {
            Err(Invalid::new("cannot_update", format!("Only draft invoices can be updated; this one is {from}")))
        }
        (A::Send, S::Draft | S::Sent | S::Viewed | S::Overdue) => to(S::Sent, "invoice.sent"),
        // Sent again, a partly paid invoice still says what was paid.
        (A::Send, S::PartiallyPaid) => to(S::PartiallyPaid, "invoice.sent"),
        (A::Send, S::Paid | S::Void) => Err(Invalid::new("cannot_send", format!("A {from} invoice cannot be sent"))),
        (A::View, S::Sent) => to(S::Viewed, "invoice.viewed"),
        (A::View, _) => stay(),
        (A::Pay, S::Sent | S::Viewed | S::PartiallyPaid | S::Overdue) => to(S::Paid, "invoice.paid"),
        (A::Pay, _) => Err(Invalid::new("cannot_pay", format!("A {from} invoice cannot be paid"))),
        (A::MarkOverdue, S::Sent | S::Viewed | S::PartiallyPaid) => to(S::Overdue, "invoice.overdue"),
        (A::MarkOverdue, _) => stay(),
        (A::Void, S::Paid) => Err(Invalid::new("cannot_void", "A paid invoice cannot be voided")),
        (A::Void, S::Void) => stay(),
        (A::Void, S::Draft | S::Sent | S::Viewed | S::PartiallyPaid | S::Overdue) => to(S::Void, "invoice.voided"),
    }
}

/// An invoice as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoice {
    pub id: String,
    pub number: String,
    pub client_id: String,
    pub currency: Currency,
    pub status: InvoiceStatus,
    pub due_date: DueDate,
    pub memo: Option<String>,
    pub line_items: Vec<LineItem>,
    pub totals: Totals,
    /// Received so far through its payment intent, in cents.
    pub amount_paid: i64,
    /// What it received beyond what it asks for (all of it once void), held on the client's
    /// credit balance.
    pub amount_overpaid: i64,
    /// What its credit notes in force take off the total.
    pub amount_credited: i64,
    /// The parts its total is due in, oldest first; empty when it is due at once on `due_date`.
    pub installments: Vec<crate::installment::Installment>,
    /// Whether its first send pays what it can from the client's credit balance in its currency.
    pub apply_credit_balance: bool,
    pub payment_intent_id: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub sent_at: Option<Timestamp>,
    pub paid_at: Option<Timestamp>,
    pub voided_at: Option<Timestamp>,
    pub void_reason: Option<String>,
}

impl Invoice {
    /// Its instalments with what credit notes and payments cover of each; empty without a plan.
    pub fn installment_states(&self) -> Vec<crate::installment::InstallmentState> {
        crate::installment::fill(&self.installments, self.amount_paid, self.amount_credited)
    }

    /// The oldest instalment left short: what the invoice waits for.
    pub fn next_installment(&self) -> Option<crate::installment::InstallmentState> {
        crate::installment::next_unpaid(&self.installments, self.amount_paid, self.amount_credited)
    }

    /// Whether what it waits for is past due at `now` in the organization's timezone `tz`: its
    /// due date, or with instalments the oldest one left short (none: nothing is owed by date).
    /// The overdue mark is decided by this on the invoice as locked, never on a row read before.
    pub fn is_past_due(&self, now: Timestamp, tz: &str) -> bool {
        let due = if self.installments.is_empty() {
            Some(self.due_date)
        } else {
            self.next_installment().map(|next| next.due_date)
        };
        due.is_some_and(|due| due.has_passed(now, tz))
    }

    /// What is still owed: the total less its credit notes and what was paid, never below zero
    /// (what was paid beyond is the client's credit balance), and nothing once void.
    pub fn amount_remaining(&self) -> i64 {
        let asked = self.totals.total.saturating_sub(self.amount_credited);
        if self.status == InvoiceStatus::Void { 0 } else { asked.saturating_sub(self.amount_paid).max(0) }
    }
}

/// A memo for the customer: trimmed, at most [`MAX_MEMO_CHARS`] characters, several lines
/// allowed but no other control characters; empty means none.
pub fn parse_memo(raw: Option<&str>, errors: &mut FieldErrors) -> Option<String> {
    errors.take("memo", parse_text(raw, MAX_MEMO_CHARS, true)).flatten()
}

/// An invoice with the client it bills (shown even once archived) and its payment intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceDetail {
    pub invoice: Invoice,
    pub client: Client,
    pub intent: PaymentIntent,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(q: &str, p: &str, rate: Option<&str>) -> LineItemInput {
        LineItemInput {
            description: Some("Item".into()),
            quantity: Some(q.into()),
            unit_price: Some(p.into()),
            tax_rate: rate.map(Into::into),
        }
    }

    #[test]
    fn exact_money() {
        let (_, t) = price_line_items(&[item("3", "19.99", None)], TaxRate::default()).unwrap();
        assert_eq!(t, Totals { subtotal: 5997, tax: 0, total: 5997 });
        let (_, t) = price_line_items(&[item("3", "0.1", None)], TaxRate::default()).unwrap();
        assert_eq!(t.total, 30);
        // 0.3333 x 0.10 = 0.03333 -> 0.03; 1.5 x 0.05 = 0.075 -> 0.08 (half-up).
        let (lines, _) =
            price_line_items(&[item("0.3333", "0.10", None), item("1.5", "0.05", None)], TaxRate::default()).unwrap();
        assert_eq!((lines[0].amount, lines[1].amount), (3, 8));
        // 10% of 0.05 = 0.005 -> 0.01; 7.5% of 19.99 = 1.49925 -> 1.50.
        let (lines, t) = price_line_items(
            &[item("1", "0.05", Some("10")), item("1", "19.99", None)],
            TaxRate::parse("7.5").unwrap(),
        )
        .unwrap();
        assert_eq!((lines[0].tax, lines[1].tax), (1, 150));
        assert_eq!(t, Totals { subtotal: 2004, tax: 151, total: 2155 });
        assert_eq!(lines[1].tax_rate, TaxRate::parse("7.5").unwrap(), "the default rate is recorded on the line");
    }

    #[test]
    fn line_item_errors_name_the_field() {
        let err = price_line_items(
            &[
                item("0", "1", None),
                item("1", "1.001", None),
                item("1.00001", "-1", Some("101")),
                LineItemInput::default(),
            ],
            TaxRate::default(),
        )
        .unwrap_err();
        assert_eq!(err.code, "invalid_line_items");
        let fields: Vec<&str> = err.details.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "lineItems[0].quantity",
                "lineItems[1].unitPrice",
                "lineItems[2].quantity",
                "lineItems[2].unitPrice",
                "lineItems[2].taxRate",
                "lineItems[3].description",
                "lineItems[3].quantity",
                "lineItems[3].unitPrice"
            ]
        );
        assert_eq!(price_line_items(&[], TaxRate::default()).unwrap_err().code, "invalid_line_items");
        let huge = price_line_items(&[item("2", "92233720368547758.07", None)], TaxRate::default());
        assert_eq!(huge.unwrap_err().code, "invalid_line_items");
        let sum_overflow =
            price_line_items(&[item("1", "92233720368547758.07", None), item("1", "1", None)], TaxRate::default());
        assert_eq!(sum_overflow.unwrap_err().code, "invalid_line_items");
        let free = price_line_items(&[item("1", "0", None), item("3", "0.00", Some("10"))], TaxRate::default());
        assert_eq!(free.unwrap_err().details[0].field, "lineItems", "a zero total is refused");
        assert!(price_line_items(&[item("1", "0", None), item("1", "0.01", None)], TaxRate::default()).is_ok());
        let mut escape = item("1", "1", None);
        escape.description = Some("Fee\u{1b}[2J".into());
        let err = price_line_items(&[escape], TaxRate::default()).unwrap_err();
        assert_eq!(err.details[0].field, "lineItems[0].description");
    }

    #[test]
    fn due_dates_are_real_days() {
        assert_eq!(DueDate::parse("2026-02-28").unwrap().to_string(), "2026-02-28");
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "2026/01/01", "2026-01-01T00:00:00Z", ""] {
            assert_eq!(DueDate::parse(bad).unwrap_err().code, "invalid_due_date", "{bad}");
        }
        for far in ["0000-01-01", "1999-12-31", "2100-01-01", "9999-12-31"] {
            let e = DueDate::parse(far).unwrap_err();
            assert_eq!(e.message, format!("dueDate {far:?} must be between 2000-01-01 and 2099-12-31"));
            assert!(DueDate::from_stored(far).is_ok(), "a stored {far} still loads");
        }
        assert!(DueDate::parse("2000-01-01").is_ok() && DueDate::parse("2099-12-31").is_ok());
        let due = DueDate::parse("2026-11-20").unwrap();
        // 2026-11-21T03:00Z is still the 20th in Port-au-Prince (UTC-5), already the 21st in UTC.
        let now = Timestamp::from_millis(1_795_230_000_000);
        assert!(due.has_passed(now, "UTC"));
        assert!(!due.has_passed(now, "America/Port-au-Prince"));
    }

    #[test]
    fn numbers() {
        assert_eq!(invoice_number(1), "INV-000001");
        assert_eq!(invoice_number(1_234_567), "INV-1234567");
    }

    /// Every state x every action, against the table in the spec and DECISIONS.md.
    #[test]
    fn state_machine_is_total_and_matches_the_rules() {
        use InvoiceAction as A;
        use InvoiceStatus as S;
        for &from in S::ALL {
            for action in A::ALL {
                let got = transition(from, action);
                let expected: Result<(S, Option<&str>), &str> = match (action, from) {
                    (A::Update, S::Draft) => Ok((S::Draft, None)),
                    (A::Update, _) => Err("cannot_update"),
                    (A::Send, S::Paid | S::Void) => Err("cannot_send"),
                    (A::Send, S::PartiallyPaid) => Ok((S::PartiallyPaid, Some("invoice.sent"))),
                    (A::Send, _) => Ok((S::Sent, Some("invoice.sent"))),
                    (A::View, S::Sent) => Ok((S::Viewed, Some("invoice.viewed"))),
                    (A::View, s) => Ok((s, None)),
                    (A::Pay, S::Sent | S::Viewed | S::PartiallyPaid | S::Overdue) => {
                        Ok((S::Paid, Some("invoice.paid")))
                    }
                    (A::Pay, _) => Err("cannot_pay"),
                    (A::MarkOverdue, S::Sent | S::Viewed | S::PartiallyPaid) => {
                        Ok((S::Overdue, Some("invoice.overdue")))
                    }
                    (A::MarkOverdue, s) => Ok((s, None)),
                    (A::Void, S::Paid) => Err("cannot_void"),
                    (A::Void, S::Void) => Ok((S::Void, None)),
                    (A::Void, _) => Ok((S::Void, Some("invoice.voided"))),
                };
                match (got, expected) {
                    (Ok(t), Ok((to, event))) => assert_eq!((t.to, t.event), (to, event), "{from:?} {action:?}"),
                    (Err(e), Err(code)) => assert_eq!(e.code, code, "{from:?} {action:?}"),
                    (got, expected) => panic!("{from:?} {action:?}: got {got:?}, expected {expected:?}"),
                }
            }
        }
    }

    /// Every status x nothing, some or all of 100.00 received, against DECISIONS.md: something
    /// paid and something left is partially paid unless overdue; drafts and void invoices keep
    /// their status whatever money reaches them.
    #[test]
    fn what_was_received_sets_the_status_of_an_open_invoice() {
        use InvoiceStatus as S;
        for &from in S::ALL {
            for received in [0, 1, 9_999, 10_000, 12_000] {
                let expected = match (from, received) {
                    (S::Draft | S::Void | S::Overdue, _) => from,
                    (_, 10_000..) => from,
                    (S::PartiallyPaid | S::Paid, 0) => S::Sent,
                    (S::Sent | S::Viewed, 0) => from,
                    (_, _) => S::PartiallyPaid,
                };
                assert_eq!(from.after_received(received, 10_000), expected, "{from:?} with {received}");
            }
        }
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::money::format_trimmed;
    use proptest::prelude::*;
    use rust_decimal::{Decimal, RoundingStrategy};

    /// Half-up rounding to the cent, computed independently with decimals.
    fn cents(d: Decimal) -> i64 {
        let rounded = d.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero) * Decimal::from(100);
        i64::try_from(rounded).unwrap_or(i64::MAX)
    }

    proptest! {
        #[test]
        fn total_is_subtotal_plus_tax_is_the_sum_of_rounded_lines(
            items in proptest::collection::vec((1i64..=10_000_000, 0i64..=100_000_000, proptest::option::of(0i64..=100_000)), 1..20),
            default_rate in 0i64..=100_000,
        ) {
            let inputs: Vec<LineItemInput> = items
                .iter()
                .map(|(q, p, r)| LineItemInput {
                    description: Some("x".into()),
                    quantity: Some(format_trimmed(*q, QUANTITY_PLACES)),
                    unit_price: Some(format_scaled(*p, 2)),
                    tax_rate: r.map(|r| format_trimmed(r, TaxRate::PLACES)),
                })
                .collect();
            let (lines, totals) = price_line_items(&inputs, TaxRate::from_thousandths(default_rate)).unwrap();
            prop_assert_eq!(totals.total, totals.subtotal + totals.tax);
            prop_assert_eq!(totals.subtotal, lines.iter().map(|l| l.amount).sum::<i64>());
            prop_assert_eq!(totals.tax, lines.iter().map(|l| l.tax).sum::<i64>());
            for ((q, p, r), line) in items.iter().zip(&lines) {
                let amount = cents(Decimal::new(*q, QUANTITY_PLACES) * Decimal::new(*p, 2));
                prop_assert_eq!(line.amount, amount);
                let rate = r.unwrap_or(default_rate);
                prop_assert_eq!(line.tax_rate.thousandths(), rate);
                prop_assert_eq!(line.tax, cents(Decimal::new(amount, 2) * Decimal::new(rate, TaxRate::PLACES) / Decimal::from(100)));
            }
        }
    }
}
