//! The store's contract: every case on SQLite and (when configured) PostgreSQL, one test binary.

mod contract;
mod disbursements;
mod invoices;
mod payouts;
