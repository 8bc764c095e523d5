//! Organization settings, per environment: default currency and tax rate, payout approval rules,
//! the timezone in which due dates are judged, how invoices are paid and reminded, how receivers without a
//! wallet are reached, and how the organization presents itself to their wallets.

use crate::money::{Currency, TaxRate};
use crate::phone::PhoneCountry;
use crate::receiver::{ReceiverSettings, ReceiverSettingsInput};
use crate::reminder::{ReminderSettings, ReminderSettingsInput};
use crate::stellar_profile::{StellarProfile, StellarProfileInput};
use crate::validation::{FieldErrors, Invalid};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub default_currency: Currency,
    pub default_tax_rate: TaxRate,
    pub payout_approval_required: bool,
    pub require_distinct_approver: bool,
    /// An IANA timezone name, e.g. `America/Port-au-Prince`.
    pub timezone: String,
    /// The organization's country: a phone number written without its country code is read as
    /// one of its numbers.
    pub country: PhoneCountry,
    pub invoicing: InvoicingSettings,
    pub receivers: ReceiverSettings,
    pub stellar: StellarProfile,
}

/// How the organization's invoices are paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoicingSettings {
    /// Whether the payment page lets a payer pay less than what is due (any amount up to it);
    /// when false it asks for exactly what is due. A smaller payment that arrives anyway is
    /// still counted: money in is never refused.
    pub allow_partial_payments: bool,
    /// When clients are reminded of what they still owe.
    pub reminders: ReminderSettings,
    /// Whether a client gets a short receipt, with what is left, when a payment lands.
    pub payment_receipts: bool,
    /// Minutes the receipt of a payment a person recorded (cash, MonCash, a transfer) waits
    /// before it goes: a typo reversed within them never reaches the client.
    pub receipt_grace_minutes: u32,
}

/// The longest a recorded payment's receipt may wait: an hour, after which a receipt no longer
/// reads as one.
pub const MAX_RECEIPT_GRACE_MINUTES: u32 = 60;

impl Default for InvoicingSettings {
    fn default() -> Self {
        InvoicingSettings {
            allow_partial_payments: true,
            reminders: ReminderSettings::default(),
            payment_receipts: true,
            receipt_grace_minutes: 5,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            default_currency: Currency::Htg,
            default_tax_rate: TaxRate::default(),
            payout_approval_required: true,
            require_distinct_approver: false,
            timezone: "UTC".into(),
            country: PhoneCountry::HAITI,
            invoicing: InvoicingSettings::default(),
            receivers: ReceiverSettings::default(),
            stellar: StellarProfile::default(),
        }
    }
}

/// A PUT body before validation: absent fields keep their current value. The tax rate is the
/// JSON number's text.
#[derive(Debug, Default, Clone)]
pub struct SettingsInput {
    pub default_currency: Option<String>,
    pub default_tax_rate: Option<String>,
    pub payout_approval_required: Option<bool>,
    pub require_distinct_approver: Option<bool>,
    pub timezone: Option<String>,
    pub country: Option<String>,
    pub allow_partial_payments: Option<bool>,
    pub reminders: ReminderSettingsInput,
    pub payment_receipts: Option<bool>,
    pub receipt_grace_minutes: Option<i64>,
    pub receivers: ReceiverSettingsInput,
    pub stellar: StellarProfileInput,
}

/// Checks that `name` is a timezone in the IANA database.
pub fn parse_timezone(name: &str) -> Result<String, String> {
    jiff::tz::TimeZone::get(name)
        .map(|_| name.to_owned())
        .map_err(|_| format!("unknown timezone {name:?}: expected an IANA name like America/Port-au-Prince"))
}

impl Settings {
    /// Whether `next` changes who must approve a payout: only a key that may approve payouts may
    /// do that, or a settings key could switch approval off and pay without an approver.
    pub fn changes_approval_policy(&self, next: &Settings) -> bool {
        self.payout_approval_required != next.payout_approval_required
            || self.require_distinct_approver != next.require_distinct_approver
    }

    /// Whether `next` lets a payout go with fewer people than today: approval switched off, or
    /// its maker allowed to approve it. Such a change waits for a second person.
    pub fn relaxes_approval_policy(&self, next: &Settings) -> bool {
        (self.payout_approval_required && !next.payout_approval_required)
            || (self.require_distinct_approver && !next.require_distinct_approver)
    }

    /// These settings with the approval policy of `other`.
    pub fn with_policy_of(&self, other: &Settings) -> Settings {
        Settings {
            payout_approval_required: other.payout_approval_required,
            require_distinct_approver: other.require_distinct_approver,
            ..self.clone()
        }
    }

    /// These settings (asked for) with each approval rule they would relax kept as `current` has
    /// it: what may apply at once while the relaxation waits for a second person.
    pub fn keeping_rules_of(&self, current: &Settings) -> Settings {
        Settings {
            payout_approval_required: self.payout_approval_required || current.payout_approval_required,
            require_distinct_approver: self.require_distinct_approver || current.require_distinct_approver,
            ..self.clone()
        }
    }

    /// The settings after applying `input`, or every problem with it.
    pub fn updated(&self, input: SettingsInput) -> Result<Settings, Invalid> {
        let mut errors = FieldErrors::new();
        let mut next = self.clone();
        if let Some(c) = input.default_currency.as_deref().and_then(|c| errors.take("defaultCurrency", c.parse())) {
            next.default_currency = c;
        }
        if let Some(r) =
            input.default_tax_rate.as_deref().and_then(|r| errors.take("defaultTaxRate", TaxRate::parse(r)))
        {
            next.default_tax_rate = r;
        }
        if let Some(b) = input.payout_approval_required {
            next.payout_approval_required = b;
        }
        if let Some(b) = input.require_distinct_approver {
            next.require_distinct_approver = b;
        }
        if let Some(tz) = input.timezone.as_deref().and_then(|t| errors.take("timezone", parse_timezone(t))) {
            next.timezone = tz;
        }
        if let Some(c) = input.country.as_deref().and_then(|c| errors.take("country", PhoneCountry::parse(c))) {
            next.country = c;
        }
        if let Some(b) = input.allow_partial_payments {
            next.invoicing.allow_partial_payments = b;
        }
        if let Some(b) = input.payment_receipts {
            next.invoicing.payment_receipts = b;
        }
        if let Some(m) = input.receipt_grace_minutes {
            let range = 0..=i64::from(MAX_RECEIPT_GRACE_MINUTES);
            match u32::try_from(m) {
                Ok(minutes) if range.contains(&m) => next.invoicing.receipt_grace_minutes = minutes,
                _ => errors.add(
                    "receiptGraceMinutes",
                    format!("must be a whole number from 0 to {MAX_RECEIPT_GRACE_MINUTES}"),
                ),
            }
        }
        next.invoicing.reminders = self.invoicing.reminders.updated(input.reminders, &mut errors);
        next.receivers = self.receivers.updated(input.receivers, &mut errors);
        next.stellar = self.stellar.updated(input.stellar, &mut errors);
        errors.finish()?;
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_fewer_people_relaxes_the_policy() {
        let policy = |approval, distinct| Settings {
            payout_approval_required: approval,
            require_distinct_approver: distinct,
            ..Settings::default()
        };
        assert!(policy(true, false).relaxes_approval_policy(&policy(false, false)));
        assert!(policy(true, true).relaxes_approval_policy(&policy(true, false)));
        assert!(!policy(false, false).relaxes_approval_policy(&policy(true, true)), "tightening");
        assert!(!policy(true, false).relaxes_approval_policy(&policy(true, true)));
        let other = Settings { timezone: "America/Port-au-Prince".into(), ..policy(true, true) };
        assert!(!policy(true, true).relaxes_approval_policy(&other), "another field");
        assert_eq!(
            policy(false, true).keeping_rules_of(&policy(true, false)),
            policy(true, true),
            "tightening applies"
        );
        assert_eq!(
            other.with_policy_of(&policy(false, false)),
            Settings { timezone: other.timezone.clone(), ..policy(false, false) }
        );
    }

    #[test]
    fn updates_validate_every_field() {
        let s = Settings::default();
        let next = s
            .updated(SettingsInput {
                default_currency: Some("USD".into()),
                default_tax_rate: Some("10".into()),
                timezone: Some("America/Port-au-Prince".into()),
                require_distinct_approver: Some(true),
                country: Some("us".into()),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(next.country.code(), "US");
        assert_eq!(next.default_currency, Currency::Usd);
        assert_eq!(next.default_tax_rate, TaxRate::from_thousandths(10_000));
        assert!(next.require_distinct_approver && next.payout_approval_required);
        let err = s
            .updated(SettingsInput {
                default_currency: Some("EUR".into()),
                default_tax_rate: Some("101".into()),
                timezone: Some("Mars/Olympus".into()),
                country: Some("Haiti".into()),
                ..Default::default()
            })
            .unwrap_err();
        assert_eq!(err.details.len(), 4);
    }
}
