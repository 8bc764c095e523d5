//! Approvals (approvers and admins): the payouts and disbursements waiting for a decision with
//! the balance check, a change of the approval policy waiting for a second person, and the approve and reject forms posted from that page or from a payout's
//! or disbursement's own page. Each decision goes through the API's service method, as the
//! signed-in user.

use crate::confirm::{self, Confirm, Done};
use crate::domain_text;
use crate::guard::{Protected, Signed};
use crate::pages::{self, Frame, WayBack, render};
use crate::settings_changes;
use crate::state::Console;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::console::ConsoleSession;
use lajan_domain::disbursement::Disbursement;
use lajan_domain::id::IdKind;
use lajan_domain::money::format_scaled;
use lajan_domain::payout::{PayoutAction, PayoutDetail};
use lajan_domain::user::Duty;
use lajan_domain::validation::parse_reason;
use lajan_i18n::{say, say_with};
use lajan_services::ServiceError;
use lajan_services::views::disbursements::DisbursementView;
use lajan_services::views::payouts::PayoutView;
use minijinja::{Value, context};
use serde::Deserialize;

/// Why (a catalogue key) the signed-in user may not approve what they created or submitted
/// themself, when the organization asks for a distinct approver.
pub(crate) fn own_payout(session: &ConsoleSession, distinct: bool, p: &PayoutDetail) -> Option<&'static str> {
    (distinct && p.payout.created_by_key == session.user.id).then_some("refusal-own-payout")
}

pub(crate) fn own_disbursement(session: &ConsoleSession, distinct: bool, d: &Disbursement) -> Option<&'static str> {
    let me = Some(session.user.id.as_str());
    (distinct && (Some(d.created_by_key.as_str()) == me || d.submitted_by_key.as_deref() == me))
        .then_some("refusal-own-disbursement")
}

/// What a payout's or disbursement's own page offers the signed-in user: `None` unless it waits
/// for approval and the user decides approvals; else why they may not approve it, if they may not.
pub(crate) async fn decision(
    console: &Console,
    session: &ConsoleSession,
    waiting: bool,
    own: impl FnOnce(bool) -> Option<&'static str>,
) -> Result<Option<Value>, ServiceError> {
    if !waiting || !session.user.role.may(Duty::Approve) {
        return Ok(None);
    }
    let distinct = console.services.store.get_settings(&session.tenant()).await?.require_distinct_approver;
    Ok(Some(context! { refusal => own(distinct) }))
}

pub(crate) async fn page(State(console): State<Console>, signed: Signed, Query(done): Query<Done>) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Approve) {
        return refused;
    }
    let session = &signed.session;
    let waiting = match console.services.approvals(&session.tenant()).await {
        Ok(waiting) => waiting,
        Err(e) => return pages::failure(&e),
    };
    let distinct = waiting.distinct_approver;
    let payouts: Vec<Value> = waiting
        .payouts
        .iter()
        .map(|p| context! { payout => PayoutView::from_detail(p), refusal => own_payout(session, distinct, p) })
        .collect();
    let disbursements: Vec<Value> = waiting
        .disbursements
        .iter()
        .map(|d| context! { batch => DisbursementView::from(d), refusal => own_disbursement(session, distinct, d) })
        .collect();
    let checks: Vec<Value> = waiting
        .checks
        .iter()
        .map(|c| context! { asset_code => c.asset_code, waiting => c.waiting, balance => c.balance, covered => c.covered })
        .collect();
    let policy_change = match settings_changes::waiting(&console, &signed).await {
        Ok(waiting) => waiting,
        Err(e) => return pages::failure(&e),
    };
    let values = context! {
        frame => signed.frame(), payouts, disbursements, checks, distinct, policy_change,
        payouts_waiting => waiting.payouts_waiting, disbursements_waiting => waiting.disbursements_waiting,
        balances_unavailable => waiting.balances_unavailable, notice => done.notice(),
    };
    render(StatusCode::OK, "approvals.html", values)
}

/// A decision form: the reason (rejections), and which page to go back to.
#[derive(Deserialize)]
pub(crate) struct Decision {
    #[serde(default)]
    reason: String,
    /// `approvals` to return to the approvals page; anything else returns to the item's page.
    #[serde(default)]
    back: String,
    /// Set by the confirmation page's button: without it, approving or rejecting asks first.
    #[serde(default)]
    confirmed: Option<String>,
}

enum Decided {
    Payout(PayoutAction),
    ApproveDisbursement,
    RejectDisbursement,
}

pub(crate) async fn approve_payout(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Decision>,
) -> Response {
    decide(&console, &id, &request, Decided::Payout(PayoutAction::Approve)).await
}

pub(crate) async fn reject_payout(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Decision>,
) -> Response {
    decide(&console, &id, &request, Decided::Payout(PayoutAction::Reject)).await
}

/// Calls off an approved payout still waiting for its receiver to register: a preparer's act,
/// as `payouts:write` is in the API, since it can only keep money from going out.
pub(crate) async fn cancel_payout(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Decision>,
) -> Response {
    decide(&console, &id, &request, Decided::Payout(PayoutAction::Cancel)).await
}

pub(crate) async fn approve_disbursement(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Decision>,
) -> Response {
    decide(&console, &id, &request, Decided::ApproveDisbursement).await
}

pub(crate) async fn reject_disbursement(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Decision>,
) -> Response {
    decide(&console, &id, &request, Decided::RejectDisbursement).await
}

async fn decide(console: &Console, id: &str, request: &Protected<Decision>, decided: Decided) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let duty = if matches!(decided, Decided::Payout(PayoutAction::Cancel)) { Duty::Prepare } else { Duty::Approve };
    if let Some(refused) = signed.refused_unless(duty) {
        return refused;
    }
    let (tenant, frame) = (signed.session.tenant(), signed.frame());
    let reason = match parse_reason(Some(&form.reason)) {
        Ok(reason) => reason.filter(|r| !r.is_empty()),
        Err(invalid) => return not_done(frame, StatusCode::BAD_REQUEST, &domain_text::field_lines(&invalid).join(" ")),
    };
    let services = &console.services;
    if form.confirmed.is_none() && !matches!(decided, Decided::Payout(PayoutAction::Cancel)) {
        return confirmation(console, signed, id, &decided, form).await;
    }
    let (done, item_page) = match decided {
        Decided::Payout(action) => (
            services.act_on_payout(&tenant, id, action, reason.as_deref(), None).await.map(drop),
            format!("/console/payouts/{id}"),
        ),
        Decided::ApproveDisbursement => {
            (services.approve_disbursement(&tenant, id, None).await.map(drop), format!("/console/disbursements/{id}"))
        }
        Decided::RejectDisbursement => (
            services.reject_disbursement(&tenant, id, reason.as_deref(), None).await.map(drop),
            format!("/console/disbursements/{id}"),
        ),
    };
    match done {
        Ok(()) => {
            let act = match decided {
                Decided::Payout(PayoutAction::Approve) | Decided::ApproveDisbursement => "approved",
                Decided::Payout(PayoutAction::Cancel) => "canceled",
                _ => "rejected",
            };
            let back = if form.back == "approvals" { "/console/approvals" } else { &item_page };
            Redirect::to(&confirm::reported(back, act)).into_response()
        }
        Err(ServiceError::NotFound(_)) => pages::not_found(frame),
        Err(ServiceError::Invalid(refusal)) if refusal.code == "cannot_approve" => {
            not_done(frame, StatusCode::CONFLICT, &say("refusal-own-item"))
        }
        Err(ServiceError::Invalid(refusal)) => not_done(frame, StatusCode::CONFLICT, &domain_text::refusal(&refusal)),
        Err(ServiceError::Unavailable(why)) => {
            tracing::warn!(%why, "a console decision could not be made");
            not_done(frame, StatusCode::SERVICE_UNAVAILABLE, &say("unavailable-explained"))
        }
        Err(e) => pages::failure(&e),
    }
}

/// The page asking to confirm a decision, saying what it decides: the payout's amount and
/// recipient, or the batch's name, size and total; the not-found page when there is no such item.
async fn confirmation(console: &Console, signed: &Signed, id: &str, decided: &Decided, form: &Decision) -> Response {
    let (tenant, store) = (signed.session.tenant(), &console.services.store);
    let approve = matches!(decided, Decided::Payout(PayoutAction::Approve) | Decided::ApproveDisbursement);
    let (key, args, item_page) = match decided {
        Decided::Payout(_) => {
            let read = || store.get_payout(&tenant, id);
            let d = match pages::record(|| signed.frame(), IdKind::Payout, id, read).await {
                Ok(d) => d,
                Err(page) => return page,
            };
            let p = &d.payout;
            let to = match (&d.client, &p.wallet_account_id) {
                (Some(c), _) => format!("{} {}", c.first_name, c.last_name),
                (None, Some(wallet)) => wallet.as_str().to_owned(),
                (None, None) => String::new(),
            };
            let amount = confirm::money(&format_scaled(p.asset_amount, 2), p.asset_code.as_str());
            let key = if approve { "confirm-approve-payout" } else { "confirm-reject-payout" };
            (key, vec![("amount", amount), ("to", to)], format!("/console/payouts/{id}"))
        }
        Decided::ApproveDisbursement | Decided::RejectDisbursement => {
            let read = || store.get_disbursement(&tenant, id);
            let b = match pages::record(|| signed.frame(), IdKind::Disbursement, id, read).await {
                Ok(b) => b,
                Err(page) => return page,
            };
            let amount = confirm::money(&format_scaled(b.total_amount, 2), b.asset_code.as_str());
            let key = if approve { "confirm-approve-disbursement" } else { "confirm-reject-disbursement" };
            let args = vec![("name", b.name.clone()), ("count", b.item_count.to_string()), ("amount", amount)];
            (key, args, format!("/console/disbursements/{id}"))
        }
    };
    let back = if form.back == "approvals" { "/console/approvals" } else { &item_page };
    let confirm = Confirm {
        text: say_with(key, &args),
        fields: vec![("reason", form.reason.clone()), ("back", form.back.clone())],
        button: if approve { "confirm-yes-approve" } else { "confirm-yes-reject" },
        danger: !approve,
        back,
    };
    confirm::page(signed.frame(), confirm)
}

/// A decision that was refused: why, and the way back to the approvals.
fn not_done(frame: Frame, status: StatusCode, text: &str) -> Response {
    let back = WayBack { href: "/console/approvals", label: say("back-to-approvals") };
    pages::refused(frame, status, &say("not-done"), text, back)
}
