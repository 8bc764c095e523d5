//! The API's areas, one module each, mounted under `/v1`; what they share is in [`common`].

pub(crate) mod callbacks;
pub(crate) mod clients;
pub(crate) mod common;
pub(crate) mod credit_balances;
pub(crate) mod credit_notes;
pub(crate) mod disbursements;
pub(crate) mod doc_types;
pub(crate) mod events;
pub(crate) mod health;
pub(crate) mod home_domain;
pub(crate) mod invoice_payments;
pub(crate) mod invoices;
pub(crate) mod messages;
pub(crate) mod pay;
pub(crate) mod payment_links;
pub(crate) mod payouts;
pub(crate) mod register;
pub(crate) mod sandbox;
pub(crate) mod sep10;
pub(crate) mod sep24;
pub(crate) mod settings;
pub(crate) mod stellar_toml;
pub(crate) mod wallet_registration;
pub(crate) mod webhook_deliveries;
pub(crate) mod webhooks;

use crate::state::AppState;
use axum::Router;

/// Every area's routes, relative to `/v1` (and mounted again under `/v1/mfi`).
pub(crate) fn v1() -> Router<AppState> {
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
