//! Lajan's live ledger: building and signing the on-chain transactions that move money.
//!
//! For now this is only the Stellar signer ([`stellar`]): pure functions from a payment description
//! and a secret seed to a signed envelope, with no network IO, so they can be tested byte-for-byte
//! against the official SDK and reused by whichever component submits to Horizon.

pub mod stellar;

pub use stellar::LedgerError;
