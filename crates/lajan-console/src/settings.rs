//! The settings page (admins): the organization's name (both environments), and the
//! environment's settings as the API has them (default currency and tax rate, the approval
//! policy, the timezone, how receivers are invited), changed through the API's service method as
//! the user, with each refused field's message, and the change of the approval policy waiting for
//! a second person.

use crate::domain_text;
use crate::guard::Admins;
use crate::guard::{Protected, Signed};
use crate::numbers::TypedNumbers;
use crate::pages::{self, render};
use crate::settings_changes;
use crate::state::Console;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::client::Language;
use lajan_domain::money::Currency;
use lajan_domain::receiver::{ReceiverSettingsInput, RecommendedWalletInput};
use lajan_domain::settings::SettingsInput;
use lajan_domain::user::Duty;
use lajan_services::ServiceError;
use lajan_services::views::settings::{RecommendedWalletView, SettingsView};
use minijinja::{Value, context};
use serde::{Deserialize, Serialize};

/// The form as posted; a box is absent when unticked.
#[derive(Deserialize, Serialize)]
pub(crate) struct SettingsForm {
    #[serde(default)]
    default_currency: String,
    #[serde(default)]
    default_tax_rate: String,
    #[serde(default)]
    payout_approval_required: Option<String>,
    #[serde(default)]
    require_distinct_approver: Option<String>,
    #[serde(default)]
    timezone: String,
    #[serde(default)]
    country: Option<String>,
    #[serde(default)]
    allow_partial_payments: Option<String>,
    /// The receivers' fields; one left out (or empty) keeps its value.
    #[serde(default)]
    default_client_language: Option<String>,
    #[serde(default)]
    invitation_resend_days: Option<String>,
    #[serde(default)]
    invitation_resends: Option<String>,
    #[serde(default)]
    registration_window_days: Option<String>,
    #[serde(default)]
    whatsapp_invitations: Option<String>,
    /// One wallet a line: `name | link | assets | deep link` (assets separated by spaces or
    /// commas; the deep link may be left out); empty suggests none.
    #[serde(default)]
    recommended_wallets: Option<String>,
}

/// A field as typed, unless left empty.
fn given(raw: &Option<String>) -> Option<&str> {
    raw.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// A number field as typed; what is not a whole number is out of every range, so the domain's
/// rule (with its bounds) is what the form says.
fn number(raw: &Option<String>) -> Option<i64> {
    given(raw).map(|n| n.parse().unwrap_or(-1))
}

/// The wallets textarea, a line each: `name | link | assets | deep link`.
fn wallets(raw: &str) -> Vec<RecommendedWalletInput> {
    raw.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.split('|').map(str::trim);
            let (name, url) =
                (parts.next().map(str::to_owned), parts.next().filter(|u| !u.is_empty()).map(str::to_owned));
            let assets = parts.next().unwrap_or_default();
            let assets = assets.split([' ', ',']).filter(|a| !a.is_empty()).map(str::to_owned).collect();
            let deep_link = parts.next().filter(|d| !d.is_empty()).map(str::to_owned);
            RecommendedWalletInput { name, url, assets, deep_link }
        })
        .collect()
}

/// The wallets as the textarea shows them.
fn wallet_lines(wallets: &[RecommendedWalletView]) -> String {
    let line = |w: &RecommendedWalletView| match &w.deep_link {
        Some(deep_link) => format!("{} | {} | {} | {deep_link}", w.name, w.url, w.assets.join(" ")),
        None => format!("{} | {} | {}", w.name, w.url, w.assets.join(" ")),
    };
    let lines: Vec<String> = wallets.iter().map(line).collect();
    lines.join("\n")
}

/// The organization's name as posted.
#[derive(Deserialize, Serialize)]
pub(crate) struct NameForm {
    #[serde(default)]
    organization_name: String,
}

#[derive(Deserialize)]
pub(crate) struct Shown {
    #[serde(default)]
    saved: Option<String>,
    /// Set after a save that left a change of the approval policy waiting.
    #[serde(default)]
    requested: Option<String>,
}

/// What the page shows beside the environment's settings: the organization's name as stored,
/// or as typed when refused, with the refusal.
#[derive(Default)]
struct NameShown {
    typed: Option<String>,
    errors: Vec<String>,
}

async fn settings_page(
    console: &Console,
    signed: &Signed,
    status: StatusCode,
    form: Value,
    errors: Vec<String>,
    shown: &Shown,
    name: NameShown,
) -> Response {
    let organization_name = match name.typed {
        Some(typed) => typed,
        None => match console.services.store.get_organization(&signed.session.user.org_id).await {
            Ok(org) => org.map(|o| o.name).unwrap_or_default(),
            Err(e) => return pages::failure(&e.into()),
        },
    };
    let name_errors = name.errors;
    let currencies: Vec<&str> = Currency::ALL.iter().map(|c| c.code()).collect();
    let languages: Vec<&str> = Language::ALL.iter().map(|l| l.as_str()).collect();
    let waiting = match settings_changes::waiting(console, signed).await {
        Ok(waiting) => waiting,
        Err(e) => return pages::failure(&e),
    };
    let (saved, requested) = (shown.saved.is_some(), shown.requested.is_some());
    let frame = signed.frame();
    render(
        status,
        "settings.html",
        context! { frame, form, currencies, languages, errors, saved, requested, waiting, organization_name, name_errors },
    )
}

pub(crate) async fn page(State(console): State<Console>, signed: Signed, Query(shown): Query<Shown>) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Administer) {
        return refused;
    }
    let form = match settings_form(&console, &signed).await {
        Ok(form) => form,
        Err(e) => return pages::failure(&e),
    };
    settings_page(&console, &signed, StatusCode::OK, form, Vec::new(), &shown, NameShown::default()).await
}

/// The environment's settings as the form shows them.
async fn settings_form(console: &Console, signed: &Signed) -> Result<Value, ServiceError> {
    let settings = SettingsView::from(&console.services.store.get_settings(&signed.session.tenant()).await?);
    Ok(context! {
        default_currency => settings.default_currency,
        default_tax_rate => settings.default_tax_rate.to_string(),
        payout_approval_required => settings.payout_approval_required.then_some("on"),
        require_distinct_approver => settings.require_distinct_approver.then_some("on"),
        timezone => settings.timezone,
        country => settings.country,
        allow_partial_payments => settings.allow_partial_payments.then_some("on"),
        default_client_language => settings.default_client_language,
        invitation_resend_days => settings.invitation_resend_days.to_string(),
        invitation_resends => settings.invitation_resends.to_string(),
        registration_window_days => settings.registration_window_days.to_string(),
        whatsapp_invitations => settings.whatsapp_invitations.then_some("on"),
        recommended_wallets => wallet_lines(&settings.recommended_wallets),
    })
}

/// Renames the organization (payers read the name on pages, emails and SMS).
pub(crate) async fn rename(State(console): State<Console>, request: Protected<NameForm, Admins>) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let (org_id, by) = (&signed.session.user.org_id, signed.session.tenant().actor);
    match console.services.rename_organization(org_id, &form.organization_name, &by).await {
        Ok(_) => Redirect::to("/console/settings?saved=1").into_response(),
        Err(ServiceError::Invalid(refusal)) => {
            let name =
                NameShown { typed: Some(form.organization_name.clone()), errors: domain_text::refusal_lines(&refusal) };
            let shown = Shown { saved: None, requested: None };
            let form = match settings_form(&console, signed).await {
                Ok(form) => form,
                Err(e) => return pages::failure(&e),
            };
            settings_page(&console, signed, StatusCode::BAD_REQUEST, form, Vec::new(), &shown, name).await
        }
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn save(State(console): State<Console>, request: Protected<SettingsForm, Admins>) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let mut numbers = TypedNumbers::default();
    let input = SettingsInput {
        default_currency: Some(form.default_currency.trim().to_owned()),
        default_tax_rate: Some(numbers.read("defaultTaxRate", &form.default_tax_rate).unwrap_or_default()),
        payout_approval_required: Some(form.payout_approval_required.is_some()),
        require_distinct_approver: Some(form.require_distinct_approver.is_some()),
        timezone: Some(form.timezone.trim().to_owned()),
        country: given(&form.country).map(str::to_owned),
        allow_partial_payments: Some(form.allow_partial_payments.is_some()),
        // Reminders and receipts are set through the API (`PUT /v1/settings`); the form keeps them.
        reminders: Default::default(),
        payment_receipts: None,
        receipt_grace_minutes: None,
        receivers: ReceiverSettingsInput {
            default_client_language: given(&form.default_client_language).map(str::to_owned),
            invitation_resend_days: number(&form.invitation_resend_days),
            invitation_resends: number(&form.invitation_resends),
            registration_window_days: number(&form.registration_window_days),
            whatsapp_invitations: Some(form.whatsapp_invitations.is_some()),
            recommended_wallets: form.recommended_wallets.as_deref().map(wallets),
        },
        // The Stellar profile is set through the API (`PUT /v1/settings`); the form keeps it.
        stellar: Default::default(),
    };
    let may_set_approval_policy = signed.session.user.role.may(Duty::Approve);
    match console.services.update_settings(&signed.session.tenant(), may_set_approval_policy, input).await {
        Ok((_, Some(waiting))) if waiting.requested_by == signed.session.tenant().actor => {
            Redirect::to("/console/settings?requested=1").into_response()
        }
        Ok(_) => Redirect::to("/console/settings?saved=1").into_response(),
        Err(ServiceError::Invalid(refusal)) => {
            let errors = numbers.lines(&refusal);
            let shown = Shown { saved: None, requested: None };
            let form = Value::from_serialize(form);
            settings_page(&console, signed, StatusCode::BAD_REQUEST, form, errors, &shown, NameShown::default()).await
        }
        Err(e) => pages::failure(&e),
    }
}
