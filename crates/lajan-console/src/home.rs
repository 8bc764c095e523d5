//! The console's home: the dashboard, the environment switch, and the page for paths that name
//! nothing.

use crate::guard::{Protected, Signed};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::Environment;
use lajan_i18n::say;
use minijinja::context;
use serde::Deserialize;

/// Balances, what waits for approval, this month's payouts and the latest events.
pub(crate) async fn dashboard(State(console): State<Console>, signed: Signed) -> Response {
    let d = match console.services.dashboard(&signed.session.tenant()).await {
        Ok(d) => d,
        Err(e) => return pages::failure(&e),
    };
    let (balances, balances_unavailable) = match d.balances {
        Ok(balances) => (balances, None),
        Err(why) => (Vec::new(), Some(why)),
    };
    let events: Vec<_> = d
        .recent_events
        .iter()
        .map(|e| context! { id => e.id, kind => e.event_type, at => e.created_at.to_string() })
        .collect();
    // The template names the month in the page's language.
    let (year, month_number) = (d.year, format!("{:02}", d.month));
    render(
        StatusCode::OK,
        "dashboard.html",
        context! { frame => signed.frame(), balances, balances_unavailable,
        payouts_waiting => d.payouts_awaiting_approval, disbursements_waiting => d.disbursements_awaiting_approval,
        paid => d.paid_this_month, month_number, year, events },
    )
}

#[derive(Deserialize)]
pub(crate) struct EnvironmentForm {
    environment: String,
}

/// Shows the other environment from now on, then the dashboard.
pub(crate) async fn switch_environment(
    State(console): State<Console>,
    request: Protected<EnvironmentForm>,
) -> Response {
    let Ok(environment) = request.form.environment.parse::<Environment>() else {
        return pages::message(StatusCode::BAD_REQUEST, &say("no-such-environment"), &say("choose-environment"));
    };
    match console.services.switch_console_environment(&request.signed.token, environment).await {
        Ok(()) => Redirect::to("/console").into_response(),
        Err(e) => pages::failure(&e),
    }
}

/// A path under `/console` that names no page (without a session, the sign-in form first).
pub(crate) async fn not_found(signed: Signed) -> Response {
    pages::not_found(signed.frame())
}
