//! A payment counted on an invoice: every payment in, whatever its size, from the ledger (a
//! Stellar payment carrying the invoice's reference) or, later, received outside Lajan (cash,
//! mobile money, a bank transfer). A payment is never deleted: a mistaken one is reversed.

use crate::money::parse_amount;
use crate::validation::{FieldErrors, parse_text};
use crate::{Actor, Environment, Invalid, Timestamp};

/// How the money came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentMethod {
    /// A payment on the Stellar network, matched by the invoice's reference (its memo).
    Stellar,
    Cash,
    MonCash,
    NatCash,
    BankTransfer,
    /// Taken from the client's credit balance when the invoice was first sent
    /// (`applyCreditBalance`); its reference is the credit balance transaction.
    CreditBalance,
}

str_enum!(PaymentMethod {
    Stellar => "stellar",
    Cash => "cash",
    MonCash => "moncash",
    NatCash => "natcash",
    BankTransfer => "bank_transfer",
    CreditBalance => "credit_balance",
});

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

/// A payment received outside Lajan as a request gives it, before it is checked.
#[derive(Debug, Default, Clone)]
pub struct OutsidePaymentInput {
    /// The exact decimal text, in the invoice's currency.
    pub amount: Option<String>,
    pub method: Option<String>,
    pub reference: Option<String>,
    /// RFC 3339; absent: now.
    pub paid_at: Option<String>,
}

/// A payment received outside Lajan, checked: what it counts, how and when it was paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsidePayment {
    pub amount: i64,
    pub method: PaymentMethod,
    pub reference: Option<String>,
    pub paid_at: Timestamp,
}

const OUTSIDE_METHODS: &str =
    "must be cash, moncash, natcash or bank_transfer: stellar payments are counted from the ledger";
/// The credit balance is not money received: it pays an invoice when the invoice applies it.
const NOT_FROM_BALANCE: &str = "must be cash, moncash, natcash or bank_transfer: the client's credit balance pays an invoice through applyCreditBalance";

/// Why a payment is reversed: required, one line of at most this many characters.
pub const REVERSAL_REASON_CHARS: usize = 500;

/// The reason a reversal gives, checked: required, without control characters.
pub fn parse_reversal_reason(raw: Option<&str>) -> Result<String, Invalid> {
    crate::validation::required_text(raw, REVERSAL_REASON_CHARS, true)
        .map_err(|rule| Invalid::fields(vec![crate::FieldError::new("reason", rule)]))
}

/// A receipt's number, a transaction id: what a clerk copies from the payer's proof.
pub const REFERENCE_CHARS: usize = 100;
/// How far ahead of the server's clock a payment's time may be (a clerk's clock runs fast).
const CLOCK_GRACE_MS: i64 = 5 * 60 * 1000;

impl OutsidePaymentInput {
    /// The payment as checked at `now`. The amount is refused first (`invalid_amount`, as every
    /// amount is); then every other bad field at once (`validation_error`).
    pub fn parse(self, now: Timestamp) -> Result<OutsidePayment, Invalid> {
        let amount = match self.amount.as_deref() {
            None => return Err(Invalid::new("invalid_amount", "amount is required")),
            Some(text) => parse_amount("amount", text)?,
        };
        let mut errors = FieldErrors::new();
        let method = match self.method.as_deref() {
            None => errors.take::<PaymentMethod>("method", Err("is required".into())),
            Some("stellar") => errors.take::<PaymentMethod>("method", Err(OUTSIDE_METHODS.into())),
            Some("credit_balance") => errors.take::<PaymentMethod>("method", Err(NOT_FROM_BALANCE.into())),
            Some(raw) => errors.take("method", raw.parse()),
        };
        let reference = errors.take("reference", parse_text(self.reference.as_deref(), REFERENCE_CHARS, false));
        let paid_at = match self.paid_at.as_deref() {
            None => Some(now),
            Some(raw) => errors.take(
                "paidAt",
                Timestamp::parse_rfc3339(raw).and_then(|at| {
                    if at.as_millis() > now.as_millis() + CLOCK_GRACE_MS {
                        Err("must not be in the future".to_owned())
                    } else {
                        Ok(at)
                    }
                }),
            ),
        };
        errors.finish()?;
        match (method, reference, paid_at) {
            (Some(method), Some(reference), Some(paid_at)) => Ok(OutsidePayment { amount, method, reference, paid_at }),
            _ => Err(Invalid::new("validation_error", "the payment is incomplete")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_read_back_and_refuse_the_unknown() {
        for &method in PaymentMethod::ALL {
            assert_eq!(method.as_str().parse::<PaymentMethod>(), Ok(method));
        }
        assert!("cheque".parse::<PaymentMethod>().unwrap_err().contains("bank_transfer"));
    }

    #[test]
    fn an_outside_payment_is_checked_field_by_field() {
        let now = Timestamp::from_millis(1_795_867_200_000);
        let given = |amount: &str, method: &str, paid_at: Option<&str>| OutsidePaymentInput {
            amount: Some(amount.into()),
            method: Some(method.into()),
            reference: Some(" MC-1234 ".into()),
            paid_at: paid_at.map(str::to_owned),
        };
        let cash = given("250.50", "cash", None).parse(now).unwrap();
        assert_eq!((cash.amount, cash.method, cash.paid_at), (25_050, PaymentMethod::Cash, now));
        assert_eq!(cash.reference.as_deref(), Some("MC-1234"));
        assert_eq!(given("0", "cash", None).parse(now).unwrap_err().code, "invalid_amount");
        let refused = given("10", "stellar", Some("2099-01-01T00:00:00Z")).parse(now).unwrap_err();
        let fields: Vec<_> = refused.details.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(fields, ["method", "paidAt"]);
        let from_balance = given("10", "credit_balance", None).parse(now).unwrap_err();
        assert_eq!(from_balance.details[0].field, "method", "only applyCreditBalance takes from the balance");
        assert!(from_balance.details[0].message.contains("applyCreditBalance"), "{from_balance:?}");
        let missing = OutsidePaymentInput { method: Some("cash".into()), ..OutsidePaymentInput::default() };
        let missing = missing.parse(now).unwrap_err();
        assert_eq!((missing.code, missing.message.as_str()), ("invalid_amount", "amount is required"));
        let earlier = given("10", "moncash", Some("2026-11-01T08:00:00-05:00")).parse(now).unwrap();
        assert_eq!(earlier.method, PaymentMethod::MonCash);
    }
}
