//! The live ledger against stand-ins: Horizon's answers, both ledgers' outcomes, and envelopes
//! byte for byte against the official Python SDK; one test binary.

mod horizon;
mod ledgers;
mod sdk_parity;
mod sep10_sdk;
