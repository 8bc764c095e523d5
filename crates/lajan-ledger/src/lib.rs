//! Lajan's ledgers: the one [`Ledger`] interface payouts are paid through, the sandbox network
//! simulated in the store ([`sandbox`]), and Stellar through Horizon ([`live`]).
//!
//! The Stellar signer ([`stellar`]) is pure functions from a payment description and a secret seed to
//! a signed envelope, with no network IO, so it can be tested byte-for-byte against the official SDK.
//! The Horizon client ([`horizon`]) submits those envelopes, classifying every outcome as applied,
//! refused, or unknown, so a payout is never sent twice nor marked failed while it may have landed.

pub mod exactly_once;
pub mod horizon;
pub mod ledger;
pub mod live;
pub mod sandbox;
pub mod sep10;
pub mod stellar;
pub mod stellar_decode;

pub use ledger::{Fate, Ledger, LedgerFault, Ledgers, Previous, Reach, Submission, Transaction, Tries, retry_delay};
pub use stellar::LedgerError;
#[cfg(feature = "testing")]
pub mod testing;
