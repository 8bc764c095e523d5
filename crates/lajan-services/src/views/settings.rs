//! How an organization's settings look from outside, in the API and in `settings.updated`.

use lajan_domain::settings::Settings;
use serde::Serialize;
use std::str::FromStr;
use utoipa::ToSchema;

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
