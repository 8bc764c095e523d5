//! Four eyes on the approval policy, in the console: the change waiting for a second person as
//! the settings and approvals pages show it (what it sets, who asked, until when), its confirm
//! and cancel forms (approvers and admins; the asker cannot confirm), and any change's fields in
//! words for the audit page.

use crate::actors::Names;
use crate::guard::Approvers;
use crate::guard::{Protected, Signed};
use crate::pages::{self, WayBack};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::Timestamp;
use lajan_domain::settings_change::SettingsChange;
use lajan_domain::user::Duty;
use lajan_i18n::say;
use lajan_services::ServiceError;
use lajan_services::views::settings::changed_fields;
use minijinja::{Value, context};
use serde::Deserialize;

/// Each field `change` sets, in words: `label: before → after`.
pub(crate) fn described(change: &SettingsChange) -> Vec<String> {
    let (previous, changes) = changed_fields(&change.before, &change.after);
    changes
        .iter()
        .map(|(field, after)| {
            let label = match field.as_str() {
                "defaultCurrency" => say("default-currency"),
                "defaultTaxRate" => say("default-tax-rate"),
                "payoutApprovalRequired" => say("payouts-wait-for-approver"),
                "requireDistinctApprover" => say("nobody-approves-own"),
                "timezone" => say("timezone"),
                other => other.to_owned(),
            };
            let before = previous.get(field).map(in_words).unwrap_or_default();
            format!("{label}: {before} → {}", in_words(after))
        })
        .collect()
}

fn in_words(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Bool(true) => say("setting-on"),
        serde_json::Value::Bool(false) => say("setting-off"),
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The change waiting for a second person, as the settings and approvals pages show it, with
/// what the signed-in user may do about it; `None` when nothing waits.
pub(crate) async fn waiting(console: &Console, signed: &Signed) -> Result<Option<Value>, ServiceError> {
    let tenant = signed.session.tenant();
    let Some(change) = console.services.store.pending_settings_change(&tenant, Timestamp::now()).await? else {
        return Ok(None);
    };
    let names = Names::of(&console.services, &tenant).await?;
    let approver = signed.session.user.role.may(Duty::Approve);
    let own = change.requested_by == tenant.actor;
    Ok(Some(context! {
        id => change.id, lines => described(&change), by => names.label(&change.requested_by),
        at => change.requested_at.to_string(), until => change.expires_at.map(|t| t.to_string()),
        may_confirm => approver && !own, may_cancel => approver, own,
    }))
}

/// Which page a decision returns to.
#[derive(Deserialize)]
pub(crate) struct Back {
    #[serde(default)]
    back: String,
}

pub(crate) async fn confirm(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Back, Approvers>,
) -> Response {
    decide(&console, &id, &request, true).await
}

pub(crate) async fn cancel(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Back, Approvers>,
) -> Response {
    decide(&console, &id, &request, false).await
}

async fn decide(console: &Console, id: &str, request: &Protected<Back, Approvers>, confirming: bool) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let (tenant, services) = (signed.session.tenant(), &console.services);
    let decided = match confirming {
        true => services.confirm_settings_change(&tenant, id, None).await,
        false => services.cancel_settings_change(&tenant, id, None).await,
    };
    let (page, back_text) = match form.back.as_str() {
        "approvals" => ("/console/approvals", "back-to-approvals"),
        _ => ("/console/settings", "back-to-settings"),
    };
    let back = || WayBack { href: page, label: say(back_text) };
    match decided {
        Ok(_) => Redirect::to(page).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(ServiceError::Forbidden(_)) => {
            pages::refused(signed.frame(), StatusCode::FORBIDDEN, &say("not-done"), &say("settings-change-own"), back())
        }
        Err(ServiceError::Invalid(_)) => pages::refused(
            signed.frame(),
            StatusCode::CONFLICT,
            &say("not-done"),
            &say("settings-change-decided"),
            back(),
        ),
        Err(e) => pages::failure(&e),
    }
}
