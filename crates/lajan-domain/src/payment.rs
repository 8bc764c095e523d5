//! Payment intents (what a payment page collects: an amount, a currency and the reference that
//! identifies the payment on the ledger) and the incoming ledger payments matched against them.

use crate::Timestamp;
use crate::money::Currency;

/// Status of a payment intent, shared by payment links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntentStatus {
    Active,
    Inactive,
    Expired,
    Paid,
}

str_enum!(IntentStatus {
    Active => "active",
    Inactive => "inactive",
    Expired => "expired",
    Paid => "paid",
});

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentIntent {
    pub id: String,
    pub org_id: String,
    pub env: crate::Environment,
    pub amount: i64,
    pub currency: Currency,
    /// The Stellar text memo that identifies this payment (at most 28 bytes).
    pub reference: String,
    pub status: IntentStatus,
    pub amount_received: i64,
    pub invoice_id: Option<String>,
    pub payment_link_id: Option<String>,
    pub created_at: Timestamp,
    pub paid_at: Option<Timestamp>,
    pub expires_at: Option<Timestamp>,
}

impl PaymentIntent {
    /// The status a customer sees now: an active intent past its expiry is expired.
    pub fn effective_status(&self, now: Timestamp) -> IntentStatus {
        match (self.status, self.expires_at) {
            (IntentStatus::Active, Some(exp)) if exp <= now => IntentStatus::Expired,
            (s, _) => s,
        }
    }

    /// Whether taking its received total to `received` at `now` pays it in full: it must still
    /// be active (not expired, paid or inactive). Every path that counts money on an intent
    /// (the ledger watcher, a payment received outside Lajan) asks this.
    pub fn completed_by(&self, received: i64, now: Timestamp) -> bool {
        self.effective_status(now) == IntentStatus::Active && received >= self.amount
    }
}

/// What a payment page asks a payer for, in minor units: `ask` (what is due now: all that is
/// `owed`, or the next instalment), or the amount the payer `chose` (its decimal text as typed:
/// a comma may be the decimal point, spaces group thousands) when `partial` payments are
/// allowed, anything from 0.01 to all that is owed. `Err` carries `ask` when the choice is not
/// such an amount, or when choosing is not allowed: the page then asks for `ask` and says why.
pub fn asked_amount(ask: i64, owed: i64, partial: bool, chose: Option<&str>) -> Result<i64, i64> {
    let Some(typed) = chose.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(ask) };
    if !partial {
        return Err(ask);
    }
    let plain: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
    let decimal = match (plain.contains('.'), plain.matches(',').count()) {
        (false, 1) => plain.replace(',', "."),
        (_, 0) => plain,
        // Both marks, or several commas: which is the decimal point is a guess, never made.
        _ => return Err(ask),
    };
    match crate::money::parse_amount("amount", &decimal) {
        Ok(cents) if cents > 0 && cents <= owed => Ok(cents),
        _ => Err(ask),
    }
}

/// A fresh payment reference: `LJ` and 12 characters of Crockford base32 (60 random bits),
/// short enough for a Stellar text memo and easy to read aloud.
pub fn new_reference() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let random = uuid::Uuid::new_v4().as_u128();
    let mut out = String::with_capacity(14);
    out.push_str("LJ");
    for i in 0..12 {
        let index = ((random >> (i * 5)) & 31) as usize;
        out.push(char::from(ALPHABET[index]));
    }
    out
}

/// A payment seen arriving on a ledger (the sandbox simulator or the Stellar network).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncomingPayment {
    pub id: String,
    pub org_id: String,
    pub env: crate::Environment,
    pub ledger_seq: i64,
    pub tx_hash: String,
    pub source_account: String,
    pub destination_account: String,
    pub asset_code: String,
    pub amount: i64,
    pub memo: Option<String>,
    pub created_at: Timestamp,
    /// The intent it was matched to, once the watcher processed it.
    pub payment_intent_id: Option<String>,
    pub processed_at: Option<Timestamp>,
}

/// A payment link: a standalone amount to collect, with its payment intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentLink {
    pub id: String,
    pub amount: i64,
    pub currency: Currency,
    pub description: String,
    pub created_at: Timestamp,
    pub expires_at: Option<Timestamp>,
    pub intent: PaymentIntent,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_fit_a_text_memo_and_differ() {
        let a = new_reference();
        assert_eq!(a.len(), 14);
        assert!(a.len() <= 28 && a.is_ascii());
        assert_ne!(a, new_reference());
    }

    #[test]
    fn a_payer_may_choose_a_part_of_what_is_due() {
        let due = 6_000;
        assert_eq!(asked_amount(due, due, true, None), Ok(6_000));
        assert_eq!(asked_amount(due, due, true, Some("  ")), Ok(6_000));
        assert_eq!(asked_amount(due, due, true, Some("25")), Ok(2_500));
        assert_eq!(asked_amount(due, due, true, Some("25,5")), Ok(2_550), "a decimal comma");
        assert_eq!(asked_amount(due, due, true, Some("60.00")), Ok(6_000));
        assert_eq!(asked_amount(due, 1_000_000, true, Some("1 000,25")), Ok(100_025), "spaces group thousands");
        for refused in ["0", "60.01", "-5", "abc", "1,000.5", "1,0,0", "2.555"] {
            assert_eq!(asked_amount(due, due, true, Some(refused)), Err(due), "{refused}");
        }
        assert_eq!(asked_amount(due, due, false, Some("25")), Err(due), "the organization asks for all of it");
        assert_eq!(asked_amount(due, due, false, None), Ok(due));
        // An instalment of 20.00 of 60.00 owed: asked for, and anything up to the 60.00 may be paid.
        assert_eq!(asked_amount(2_000, due, true, None), Ok(2_000));
        assert_eq!(asked_amount(2_000, due, true, Some("45")), Ok(4_500));
        assert_eq!(asked_amount(2_000, due, false, Some("45")), Err(2_000), "the full instalment, no less, no more");
    }
}
