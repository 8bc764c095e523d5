//! Black-box API tests through the real router, on SQLite and (when configured) PostgreSQL.

#[macro_use]
extern crate lajan_testkit;

mod auth;
mod clients;
mod connections;
mod credit_balances;
mod credit_notes;
mod disbursement_rules;
mod disbursements;
mod errors;
mod events;
mod home_domains;
mod idempotency;
mod inputs;
mod installments;
mod invitations;
mod invoice_payments;
mod invoices;
mod limits;
mod live;
mod live_channels;
mod live_chaos;
mod live_recovery;
mod messages;
mod metrics;
mod openapi;
mod openapi_examples;
mod pay;
mod payouts;
mod receipts;
mod receivers;
mod registration;
mod security;
mod sep10;
mod sep10_client_domain;
mod sep24;
mod settings;
mod standard_webhooks;
mod stellar_toml;
mod wallet_links;
mod wallet_sdk;
mod webhook_delivery;
mod webhook_guard;
mod webhook_guide;
mod webhook_samples;
mod webhooks;
