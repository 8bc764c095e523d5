//! Lajan's console: server-rendered pages under `/console` for an organization's finance staff,
//! signed in with a session cookie, reading and acting through the same services as the API.
//! Plain forms that work without JavaScript; every answer carries a strict content policy and is
//! never framed or cached. Its words and formats come from `lajan-i18n`, as the hosted payment
//! page's do.

mod actors;
mod approvals;
mod assets;
pub use assets::favicon;
mod audit;
mod client_form;
mod confirm;
mod disbursements;
mod domain_text;
mod guard;
mod home;
mod invoice_actions;
mod invoice_form;
mod invoices;
mod keys;
mod language;
mod lists;
mod new_disbursement;
mod new_payout;
mod numbers;
mod once;
mod pages;
mod password;
mod payouts;
mod receivers;
mod records;
mod settings;
mod settings_changes;
mod sign_in;
mod state;
mod statements;
#[cfg(test)]
mod template_lint;
mod timeline;
mod users;
mod webhooks;

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::routing::{get, post};
use lajan_services::Services;
use state::Console;
use std::sync::Arc;
use tower_http::set_header::SetResponseHeaderLayer;

/// Everything the browser may load: the console's own stylesheet and script, nothing inline,
/// nothing from elsewhere, forms posting back to Lajan only, never inside a frame.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; \
     form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The console's routes, ready to merge into the application's router (whatever its state).
pub fn router<S: Clone + Send + Sync + 'static>(services: Arc<Services>) -> Router<S> {
    let fixed = |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    Router::new()
        .route("/console", get(home::dashboard))
        .route("/console/sign-in", get(sign_in::form).post(sign_in::submit))
        .route("/console/sign-out", post(sign_in::sign_out))
        .route("/console/environment", post(home::switch_environment))
        .route("/console/language", post(language::choose))
        .route("/console/password", get(password::form).post(password::save))
        .route("/console/invoices", get(invoices::list).post(invoice_form::create))
        .route("/console/invoices/new", get(invoice_form::new))
        .route("/console/invoices/{id}", get(invoices::detail))
        .route("/console/invoices/{id}/statement.csv", get(statements::invoice_csv))
        .route("/console/invoices/{id}/edit", get(invoice_form::edit).post(invoice_form::update))
        .route("/console/invoices/{id}/send", post(invoice_actions::send))
        .route("/console/invoices/{id}/void", post(invoice_actions::void))
        .route("/console/invoices/{id}/payments", post(invoice_actions::record_payment))
        .route("/console/invoices/{id}/payments/{payment_id}/reverse", post(invoice_actions::reverse_payment))
        .route("/console/invoices/{id}/credit-notes", post(invoice_actions::issue_credit_note))
        .route("/console/invoices/{id}/credit-notes/{credit_note_id}/void", post(invoice_actions::void_credit_note))
        .route("/console/payouts", get(payouts::list).post(new_payout::create))
        .route("/console/payouts/new", get(new_payout::form))
        .route("/console/payouts/{id}", get(payouts::detail))
        .route("/console/payouts/{id}/approve", post(approvals::approve_payout))
        .route("/console/payouts/{id}/reject", post(approvals::reject_payout))
        .route("/console/payouts/{id}/cancel", post(approvals::cancel_payout))
        .route("/console/approvals", get(approvals::page))
        .route("/console/keys", get(keys::list).post(keys::create))
        .route("/console/keys/{id}/revoke", post(keys::revoke))
        .route("/console/users", get(users::list).post(users::invite))
        .route("/console/users/{id}/disable", post(users::disable))
        .route("/console/audit", get(audit::page))
        .route("/console/settings", get(settings::page).post(settings::save))
        .route("/console/settings/organization", post(settings::rename))
        .route("/console/settings/changes/{id}/confirm", post(settings_changes::confirm))
        .route("/console/settings/changes/{id}/cancel", post(settings_changes::cancel))
        .route("/console/webhooks", get(webhooks::list).post(webhooks::create))
        .route("/console/webhooks/{id}", get(webhooks::detail).post(webhooks::update))
        .route("/console/webhooks/{id}/test", post(webhooks::test))
        .route("/console/webhooks/{id}/rotate-secret", post(webhooks::rotate))
        .route("/console/webhooks/{id}/deliveries/{delivery}", get(webhooks::delivery))
        .route("/console/webhooks/{id}/deliveries/{delivery}/retry", post(webhooks::retry))
        .route("/console/disbursements", get(disbursements::list).post(new_disbursement::create))
        .route("/console/disbursements/new", get(new_disbursement::form))
        .route("/console/disbursements/{id}/submit", post(new_disbursement::submit))
        .route("/console/disbursements/{id}", get(disbursements::detail))
        .route("/console/disbursements/{id}/report.csv", get(disbursements::report_csv))
        .route("/console/disbursements/{id}/approve", post(approvals::approve_disbursement))
        .route("/console/disbursements/{id}/reject", post(approvals::reject_disbursement))
        .route("/console/clients", get(records::clients).post(client_form::create))
        .route("/console/clients/new", get(client_form::new))
        .route("/console/clients/{id}", get(statements::client))
        .route("/console/clients/{id}/statement.csv", get(statements::client_csv))
        .route("/console/clients/{id}/edit", get(client_form::edit).post(client_form::update))
        .route("/console/clients/{id}/invite", post(receivers::invite))
        .route("/console/clients/{id}/unlock", post(receivers::unlock))
        .route("/console/events", get(records::events))
        .route("/console/messages", get(records::messages))
        .route("/console/assets/{file}", get(assets::serve))
        .route("/console/{*rest}", get(home::not_found))
        .layer(axum::middleware::from_fn(language::speak_the_asked_language))
        .layer(fixed(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .layer(fixed(header::X_FRAME_OPTIONS, "DENY"))
        .layer(fixed(header::REFERRER_POLICY, "same-origin"))
        // Pages show one organization's money: no shared or browser cache keeps them.
        .layer(fixed(header::CACHE_CONTROL, "no-store"))
        .with_state(Console::new(services))
}
