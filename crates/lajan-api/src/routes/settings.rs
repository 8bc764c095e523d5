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
use lajan_domain::settings::{Settings, SettingsInput};
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new().route("/settings", get(fetch).put(update))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsView {
    /// Currency of new invoices that name none: `HTG` or `USD`.
    #[schema(example = "HTG")]
    pub default_currency: String,
    /// Percent applied to line items without their own `taxRate`, 0 to 100, up to 3 decimals.
    #[schema(value_type = f64, example = 10)]
    pub default_tax_rate: serde_json::Number,
    /// When true, new payouts wait for approval.
    pub payout_approval_required: bool,
    /// When true, the key approving a payout must differ from the key that created it.
    pub require_distinct_approver: bool,
    /// IANA timezone in which invoice due dates are judged.
    #[schema(example = "America/Port-au-Prince")]
    pub timezone: String,
}

impl From<&Settings> for SettingsView {
    fn from(s: &Settings) -> Self {
        SettingsView {
            default_currency: s.default_currency.code().to_owned(),
            default_tax_rate: serde_json::Number::from_str(&s.default_tax_rate.to_string())
                .unwrap_or_else(|_| serde_json::Number::from(0)),
            payout_approval_required: s.payout_approval_required,
            require_distinct_approver: s.require_distinct_approver,
            timezone: s.timezone.clone(),
        }
    }
}

/// Fields to change; those left out keep their value. None can be cleared: `null` is a
/// `validation_error`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateSettings {
    #[serde(default, deserialize_with = "not_null")]
    pub default_currency: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(value_type = Option<f64>)]
    pub default_tax_rate: Option<ExactNumber>,
    #[serde(default, deserialize_with = "not_null")]
    pub payout_approval_required: Option<bool>,
    #[serde(default, deserialize_with = "not_null")]
    pub require_distinct_approver: Option<bool>,
    #[serde(default, deserialize_with = "not_null")]
    pub timezone: Option<String>,
}

#[utoipa::path(get, path = "/v1/settings", tag = "Settings", responses((status = 200, body = SettingsView)))]
pub async fn fetch(auth: Authed<SettingsRead>, State(state): State<AppState>) -> ApiResult<Json<SettingsView>> {
    let settings = state.store.get_settings(auth.tenant()).await?;
    Ok(Json(SettingsView::from(&settings)))
}

#[utoipa::path(put, path = "/v1/settings", tag = "Settings", request_body = UpdateSettings,
    responses((status = 200, body = SettingsView), (status = 400, body = ErrorBody)))]
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
    let next = state.services.update_settings(auth.tenant(), input).await?;
    Ok(Json(SettingsView::from(&next)))
}
