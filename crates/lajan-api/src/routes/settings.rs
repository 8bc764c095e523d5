//! Settings: `GET/PUT /settings`, per organization and environment. PUT changes only the fields
//! it names; every field is validated before anything is saved. A change that relaxes the
//! approval policy waits for a second person: `POST /settings/changes/{id}/confirm` and
//! `.../cancel`.

use super::common::{IdempotencyKeyHeader, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{PayoutsApprove, SettingsRead, SettingsWrite};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ExactNumber, not_null};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::Timestamp;
use lajan_domain::receiver::{ReceiverSettingsInput, RecommendedWalletInput};
use lajan_domain::reminder::ReminderSettingsInput;
use lajan_domain::scope::Scope;
use lajan_domain::settings::SettingsInput;
use lajan_domain::settings_change::SettingsChange;
use lajan_domain::stellar_profile::StellarProfileInput;
use lajan_services::views::settings::{SettingsChangeView, SettingsView};
use serde::Deserialize;
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/settings", get(fetch).put(update))
        .route("/settings/changes/{id}/confirm", post(confirm))
        .route("/settings/changes/{id}/cancel", post(cancel))
}

/// Fields to change; those left out keep their value. `null` is a `validation_error`; the
/// organization's Stellar profile (`homeDomain` to `orgSupportEmail`) is cleared field by field
/// with an empty string.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct UpdateSettings {
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, value_type = Option<crate::routes::doc_types::Currency>)]
    pub default_currency: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, value_type = Option<f64>, minimum = 0, maximum = 100, multiple_of = 0.001)]
    pub default_tax_rate: Option<ExactNumber>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub payout_approval_required: Option<bool>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub require_distinct_approver: Option<bool>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub timezone: Option<String>,
    /// The organization's country (ISO 3166-1 alpha-2, e.g. `HT`): a phone number written
    /// without its country code (`3710 2030`) is read as one of its numbers.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "HT", pattern = "^[A-Za-z]{2}$")]
    pub country: Option<String>,
    /// Whether the payment page lets a payer pay part of what is due.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub allow_partial_payments: Option<bool>,
    /// The reminder schedule: the fields given replace theirs.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub reminders: Option<RemindersRequest>,
    /// Whether a client gets a short receipt, with what is left, when a payment lands.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub payment_receipts: Option<bool>,
    /// Minutes (0 to 60; default 5) the receipt of a payment recorded by a person (cash,
    /// moncash, natcash, bank_transfer) waits before it is sent; reversed within them, it is
    /// never sent. A payment seen on the Stellar network is receipted at once.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, minimum = 0, maximum = 60, example = 5)]
    pub receipt_grace_minutes: Option<i64>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, value_type = Option<crate::routes::doc_types::Language>)]
    pub default_client_language: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, minimum = 1, maximum = 30)]
    pub invitation_resend_days: Option<i64>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, minimum = 0, maximum = 10)]
    pub invitation_resends: Option<i64>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, minimum = 1, maximum = 90)]
    pub registration_window_days: Option<i64>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub whatsapp_invitations: Option<bool>,
    /// The whole list, replacing the one before (`[]` clears it); at most 10.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, max_items = 10)]
    pub recommended_wallets: Option<Vec<RecommendedWalletRequest>>,
    /// A domain of the organization's own (a host, with a port at most) whose DNS points at
    /// Lajan: the stellar.toml served for it names the organization and its documentation, and
    /// wallets authenticate there (SEP-10 challenges for that domain). Read in the environment
    /// wallets meet (live when the deployment has a live network, else the sandbox). Served only
    /// once proved with a DNS TXT record (`GET /v1/settings/home-domain`, then `.../verify`);
    /// never an address, a name of this machine, a trailing dot or the deployment's own.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "pay.fonkoze.example", max_length = 59)]
    pub home_domain: Option<String>,
    /// SEP-1 `ORG_URL`: the organization's website, an https link.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "https://fonkoze.example", max_length = 500)]
    pub org_url: Option<String>,
    /// SEP-1 `ORG_LOGO`: an https link to its logo.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "https://fonkoze.example/logo.png", max_length = 500)]
    pub org_logo: Option<String>,
    /// SEP-1 `ORG_DESCRIPTION`.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "Microfinance for Haiti's rural women", max_length = 500)]
    pub org_description: Option<String>,
    /// SEP-1 `ORG_OFFICIAL_EMAIL`.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "info@fonkoze.example")]
    pub org_official_email: Option<String>,
    /// SEP-1 `ORG_SUPPORT_EMAIL`: where a receiver writes for help.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "help@fonkoze.example")]
    pub org_support_email: Option<String>,
}

/// A change to the reminder schedule; fields left out keep their value.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct RemindersRequest {
    /// Days from each due date (negative: before), -60 to 90, at most 8; `[]` turns reminders off.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, max_items = 8, value_type = Option<Vec<crate::routes::doc_types::ReminderOffsetDay>>, example = json!([-3, 0, 3, 7]))]
    pub offset_days: Option<Vec<i64>>,
    /// `sms` and/or `email`: each reminder goes on each of them the client can receive.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, value_type = Option<Vec<crate::routes::doc_types::SendChannel>>, min_items = 1, example = json!(["sms"]))]
    pub channels: Option<Vec<String>>,
    /// Local time of day in the organization's `timezone`, `HH:MM` (24-hour).
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, example = "09:00", pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub time_of_day: Option<String>,
}

/// A wallet app the registration page suggests to a receiver who has none.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct RecommendedWalletRequest {
    #[schema(example = "Beans", max_length = 60)]
    pub name: Option<String>,
    /// Where the receiver gets it: an http(s) link.
    #[schema(example = "https://www.beansapp.com/", max_length = 500)]
    pub url: Option<String>,
    /// The asset codes it holds, at most 12.
    #[serde(default)]
    #[schema(example = json!(["USDC", "XLM"]), max_items = 12)]
    pub assets: Vec<String>,
    /// Where the wallet app opens a registration it is handed (an https universal link or the
    /// app's own scheme, as the Stellar Disbursement Platform's deep link schema): the
    /// invitation's page then offers "Open in" this wallet with a link signed by the
    /// stellar.toml's SIGNING_KEY. Null or absent: the page only links to `url`.
    #[schema(example = "https://www.beansapp.com/sdp", max_length = 500)]
    pub deep_link: Option<String>,
}

#[utoipa::path(get, operation_id = "getSettings", path = "/v1/settings", tag = "Settings",
    description = "The settings, with the change of the approval policy waiting for a second person (pendingChange), if any.",
    responses((status = 200, body = SettingsView)))]
pub(crate) async fn fetch(auth: Authed<SettingsRead>, State(state): State<AppState>) -> ApiResult<Json<SettingsView>> {
    let now = Timestamp::now();
    let settings = state.store.get_settings(auth.tenant()).await?;
    let pending = state.store.pending_settings_change(auth.tenant(), now).await?;
    Ok(Json(SettingsView::with_pending(&settings, pending.as_ref(), now)))
}

#[utoipa::path(put, operation_id = "updateSettings", path = "/v1/settings", tag = "Settings", request_body = UpdateSettings,
    description = "Changes the fields given; every change writes a settings.updated event naming the key and the previous values. Changing payoutApprovalRequired or requireDistinctApprover (the approval policy) also needs payouts:approve. A change that lets payouts go with fewer people (either turned off) does not apply yet: the answer's pendingChange waits for another key or console user with approval rights to confirm it within 72 hours (settings.change_requested); the other fields of the request apply at once. Where no one else has approval rights it applies at once, and settings.updated says secondPerson none_available.",
    responses((status = 200, body = SettingsView), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "forbidden: the key lacks settings:write, or changes the approval policy without payouts:approve; nothing changed")))]
pub(crate) async fn update(
    auth: Authed<SettingsWrite>,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<UpdateSettings>,
) -> ApiResult<Json<SettingsView>> {
    let input = SettingsInput {
        default_currency: body.default_currency,
        default_tax_rate: body.default_tax_rate.as_ref().map(ExactNumber::text),
        payout_approval_required: body.payout_approval_required,
        require_distinct_approver: body.require_distinct_approver,
        timezone: body.timezone,
        country: body.country,
        allow_partial_payments: body.allow_partial_payments,
        reminders: body
            .reminders
            .map(|r| ReminderSettingsInput {
                offset_days: r.offset_days,
                channels: r.channels,
                time_of_day: r.time_of_day,
            })
            .unwrap_or_default(),
        payment_receipts: body.payment_receipts,
        receipt_grace_minutes: body.receipt_grace_minutes,
        receivers: ReceiverSettingsInput {
            default_client_language: body.default_client_language,
            invitation_resend_days: body.invitation_resend_days,
            invitation_resends: body.invitation_resends,
            registration_window_days: body.registration_window_days,
            whatsapp_invitations: body.whatsapp_invitations,
            recommended_wallets: body.recommended_wallets.map(|wallets| {
                let input = |w: RecommendedWalletRequest| RecommendedWalletInput {
                    name: w.name,
                    url: w.url,
                    assets: w.assets,
                    deep_link: w.deep_link,
                };
                wallets.into_iter().map(input).collect()
            }),
        },
        stellar: StellarProfileInput {
            home_domain: body.home_domain,
            org_url: body.org_url,
            org_logo: body.org_logo,
            org_description: body.org_description,
            org_official_email: body.org_official_email,
            org_support_email: body.org_support_email,
        },
    };
    let may_set_approval_policy = Scope::any_grants(&auth.0.scopes, &Scope::ApprovePayouts);
    let (next, pending) = state.services.update_settings(auth.tenant(), may_set_approval_policy, input).await?;
    Ok(Json(SettingsView::with_pending(&next, pending.as_ref(), Timestamp::now())))
}

/// What a decision answers, recorded under its `Idempotency-Key` with it.
fn change_body(change: &SettingsChange) -> Vec<u8> {
    json_bytes(&SettingsChangeView::at(change, Timestamp::now()))
}

#[utoipa::path(post, operation_id = "confirmSettingsChange", path = "/v1/settings/changes/{id}/confirm", tag = "Settings",
    params(("id" = String, Path, description = "The change's id (stc_...)"), IdempotencyKeyHeader),
    description = "Confirms a change of the approval policy that waits for a second person: it applies now, and settings.updated names who asked and who confirmed. Needs payouts:approve, from another key than the one that asked (or another console user).",
    responses((status = 200, body = SettingsChangeView), (status = 400, body = ErrorBody, description = "settings_change_not_pending: it was confirmed, cancelled, replaced or has lapsed"),
        (status = 403, body = ErrorBody, description = "forbidden: the key lacks payouts:approve, or asked for the change itself"),
        (status = 404, body = ErrorBody)))]
pub(crate) async fn confirm(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<SettingsChangeView>> {
    let answer = idempotency.respond(StatusCode::OK, &change_body);
    let change = state.services.confirm_settings_change(auth.tenant(), &id, answer).await?;
    Ok(Json(SettingsChangeView::at(&change, Timestamp::now())))
}

#[utoipa::path(post, operation_id = "cancelSettingsChange", path = "/v1/settings/changes/{id}/cancel", tag = "Settings",
    params(("id" = String, Path, description = "The change's id (stc_...)"), IdempotencyKeyHeader),
    description = "Cancels a change of the approval policy that waits for a second person (settings.change_cancelled); the settings stay as they are. Needs payouts:approve: the key that asked, or another.",
    responses((status = 200, body = SettingsChangeView), (status = 400, body = ErrorBody, description = "settings_change_not_pending: it was confirmed, cancelled, replaced or has lapsed"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn cancel(
    auth: Authed<PayoutsApprove>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<SettingsChangeView>> {
    let answer = idempotency.respond(StatusCode::OK, &change_body);
    let change = state.services.cancel_settings_change(auth.tenant(), &id, answer).await?;
    Ok(Json(SettingsChangeView::at(&change, Timestamp::now())))
}
