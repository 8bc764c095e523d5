//! Settings: `GET/PUT /settings`, per organization and environment. PUT changes only the fields
//! it names; every field is validated before anything is saved.

use crate::auth::Authed;
use crate::auth::scope::{SettingsRead, SettingsWrite};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ExactNumber, not_null};
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use lajan_domain::scope::Scope;
use lajan_domain::settings::SettingsInput;
use lajan_services::views::settings::SettingsView;
use serde::Deserialize;
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new().route("/settings", get(fetch).put(update))
}

/// Fields to change; those left out keep their value. None can be cleared: `null` is a
/// `validation_error`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateSettings {
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
}

#[utoipa::path(get, operation_id = "getSettings", path = "/v1/settings", tag = "Settings", responses((status = 200, body = SettingsView)))]
pub async fn fetch(auth: Authed<SettingsRead>, State(state): State<AppState>) -> ApiResult<Json<SettingsView>> {
    let settings = state.store.get_settings(auth.tenant()).await?;
    Ok(Json(SettingsView::from(&settings)))
}

#[utoipa::path(put, operation_id = "updateSettings", path = "/v1/settings", tag = "Settings", request_body = UpdateSettings,
    description = "Changes the fields given; every change writes a settings.updated event naming the key and the previous values. Changing payoutApprovalRequired or requireDistinctApprover (the approval policy) also needs payouts:approve.",
    responses((status = 200, body = SettingsView), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "forbidden: the key lacks settings:write, or changes the approval policy without payouts:approve; nothing changed")))]
pub async fn update(
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
    };
    let may_set_approval_policy = Scope::any_grants(&auth.0.scopes, &Scope::ApprovePayouts);
    let next = state.services.update_settings(auth.tenant(), may_set_approval_policy, input).await?;
    Ok(Json(SettingsView::from(&next)))
}
