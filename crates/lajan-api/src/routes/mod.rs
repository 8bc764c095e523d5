//! The API's areas, one module each, mounted under `/v1`; what they share is in [`common`].

pub mod callbacks;
pub mod clients;
pub mod common;
pub mod credit_balances;
pub mod credit_notes;
pub mod disbursements;
pub mod doc_types;
pub mod events;
pub mod health;
pub mod home_domain;
pub mod invoice_payments;
pub mod invoices;
pub mod messages;
pub mod pay;
pub mod payment_links;
pub mod payouts;
pub mod register;
pub mod sandbox;
pub mod sep10;
pub mod sep24;
pub mod settings;
pub mod stellar_toml;
pub mod wallet_registration;
pub mod webhook_deliveries;
pub mod webhooks;

use crate::state::AppState;
use axum::Router;

/// Every area's routes, relative to `/v1` (and mounted again under `/v1/mfi`).
pub fn v1() -> Router<AppState> {
    Router::new()
        .merge(clients::routes())
        .merge(events::routes())
        .merge(settings::routes())
        .merge(home_domain::routes())
        .merge(invoices::routes())
        .merge(invoice_payments::routes())
        .merge(credit_balances::routes())
        .merge(credit_notes::routes())
        .merge(payment_links::routes())
        .merge(payouts::routes())
        .merge(disbursements::routes())
        .merge(messages::routes())
        .merge(sandbox::routes())
        .merge(webhooks::routes())
        .merge(webhook_deliveries::routes())
}
