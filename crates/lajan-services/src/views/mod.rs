//! The resources as the API shows them: each view is the HTTP body and the `data.object` of the
//! events about that resource, so a worker and a route build the same bytes.

pub mod client_statement;
pub mod clients;
pub mod credit_balances;
pub mod credit_notes;
pub mod disbursements;
pub mod events;
pub mod invitations;
pub mod invoice_payments;
pub mod invoice_statement;
pub mod invoices;
pub mod messages;
pub mod payouts;
pub mod settings;
pub mod wallet_deposits;
pub mod webhooks;

use lajan_domain::money::format_scaled;
use std::str::FromStr;

/// Money as the API shows it: a decimal string with two places.
pub fn money(cents: i64) -> String {
    format_scaled(cents, 2)
}

/// An exact JSON number from its decimal text.
pub fn number(text: &str) -> serde_json::Number {
    serde_json::Number::from_str(text).unwrap_or_else(|_| serde_json::Number::from(0))
}

/// The hosted payment page of an intent.
pub fn pay_url(public_url: &str, intent_id: &str) -> String {
    format!("{public_url}/pay/{intent_id}")
}
