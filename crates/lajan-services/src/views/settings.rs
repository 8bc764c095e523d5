//! How an organization's settings look from outside, in the API and in `settings.updated`, and
//! a change of them (in `settings.change_requested`, `settings.change_cancelled` and the API).

use crate::views::events::ActorView;
use lajan_domain::Timestamp;
use lajan_domain::reminder::{ReminderSettings, time_of_day_text};
use lajan_domain::settings::Settings;
use lajan_domain::settings_change::SettingsChange;
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
    /// The organization's country (ISO 3166-1 alpha-2; `HT` unless set): phone numbers written
    /// without a country code are read as its numbers and kept in E.164.
    #[schema(example = "HT", pattern = "^[A-Z]{2}$")]
    pub country: String,
    /// When true (the default), the payment page lets a payer pay part of what is due, any amount
    /// up to it; when false it asks for exactly what is due. A smaller payment that arrives
    /// anyway is still counted.
    pub allow_partial_payments: bool,
    /// When clients are reminded of what they still owe.
    pub reminders: RemindersView,
    /// When true (the default), a client gets a short receipt, with what is left, when a payment
    /// of their invoice lands.
    pub payment_receipts: bool,
    /// Minutes the receipt of a payment recorded by a person waits before it is sent (a
    /// reversal within them means it is never sent).
    #[schema(example = 5)]
    pub receipt_grace_minutes: u32,
    /// The language of a client created without one: ht, fr or en.
    #[schema(example = "ht")]
    pub default_client_language: &'static str,
    /// Days before an unanswered invitation is sent again.
    #[schema(example = 3)]
    pub invitation_resend_days: u32,
    /// How many times an unanswered invitation is sent again.
    #[schema(example = 2)]
    pub invitation_resends: u32,
    /// Days an approved payout waits for its client to register a wallet before it is canceled.
    #[schema(example = 14)]
    pub registration_window_days: u32,
    /// Invitations to a phone go by WhatsApp (through the same SMS provider) instead of SMS.
    pub whatsapp_invitations: bool,
    /// The wallets the registration page suggests to a receiver who has none, in this order.
    pub recommended_wallets: Vec<RecommendedWalletView>,
    /// The organization's own domain, pointed at Lajan, whose stellar.toml names it.
    #[schema(example = "pay.fonkoze.example", nullable = true)]
    pub home_domain: Option<String>,
    /// SEP-1 `ORG_URL`.
    #[schema(example = "https://fonkoze.example", nullable = true)]
    pub org_url: Option<String>,
    /// SEP-1 `ORG_LOGO`.
    #[schema(example = "https://fonkoze.example/logo.png", nullable = true)]
    pub org_logo: Option<String>,
    /// SEP-1 `ORG_DESCRIPTION`.
    #[schema(example = "Microfinance for Haiti's rural women", nullable = true)]
    pub org_description: Option<String>,
    /// SEP-1 `ORG_OFFICIAL_EMAIL`.
    #[schema(example = "info@fonkoze.example", nullable = true)]
    pub org_official_email: Option<String>,
    /// SEP-1 `ORG_SUPPORT_EMAIL`.
    #[schema(example = "help@fonkoze.example", nullable = true)]
    pub org_support_email: Option<String>,
    /// A change of the approval policy waiting for a second person with approval rights
    /// (`POST /v1/settings/changes/{id}/confirm`), or null. Always null in `settings.updated`.
    #[schema(nullable = true)]
    pub pending_change: Option<SettingsChangeView>,
}

/// A wallet app the registration page suggests.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecommendedWalletView {
    #[schema(example = "Beans")]
    pub name: String,
    #[schema(example = "https://www.beansapp.com/")]
    pub url: String,
    #[schema(example = json!(["USDC", "XLM"]))]
    pub assets: Vec<String>,
    /// Where the wallet app opens a registration: the invitation's page offers "Open in" it.
    #[schema(example = "https://www.beansapp.com/sdp", nullable = true)]
    pub deep_link: Option<String>,
}

/// A change of the settings: what was asked, by whom, and what came of it. A change that lets
/// payouts go with fewer people (`payoutApprovalRequired` off, or `requireDistinctApprover`
/// off) is `pending` until another person or key with approval rights confirms it, within
/// 72 hours (`expiresAt`), or it is cancelled, replaced by a later policy change (`superseded`)
/// or `lapsed`. `unconfirmed`: it applied at once because nobody else had approval rights.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsChangeView {
    #[schema(example = "stc_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    #[schema(value_type = String, example = "pending")]
    pub status: &'static str,
    /// Each field the change sets, with the value asked for.
    #[schema(value_type = Object, example = json!({ "payoutApprovalRequired": false }))]
    pub changes: serde_json::Map<String, serde_json::Value>,
    /// The value of each of those fields when it was asked.
    #[schema(value_type = Object, example = json!({ "payoutApprovalRequired": true }))]
    pub previous: serde_json::Map<String, serde_json::Value>,
    pub requested_by: ActorView,
    #[schema(value_type = String, format = DateTime)]
    pub requested_at: Timestamp,
    /// When a pending change lapses unless confirmed; null for one that never waited.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
    /// Who confirmed or cancelled it.
    #[schema(nullable = true)]
    pub decided_by: Option<ActorView>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub decided_at: Option<Timestamp>,
}

/// The settings' fields as the API names them.
fn fields(s: &Settings) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(SettingsView::from(s)) {
        Ok(serde_json::Value::Object(mut fields)) => {
            fields.remove("pendingChange");
            fields
        }
        _ => serde_json::Map::new(),
    }
}

/// The fields whose value differs between `before` and `after`: their values before, and after.
pub fn changed_fields(
    before: &Settings,
    after: &Settings,
) -> (serde_json::Map<String, serde_json::Value>, serde_json::Map<String, serde_json::Value>) {
    let (before, after) = (fields(before), fields(after));
    let previous: serde_json::Map<_, _> =
        before.into_iter().filter(|(field, value)| after.get(field) != Some(value)).collect();
    let changes = after.into_iter().filter(|(field, _)| previous.contains_key(field)).collect();
    (previous, changes)
}

/// The reminder schedule: each unpaid instalment (or invoice) is reminded on these days from
/// its due date, at the organization's time of day, on each channel the client can receive.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemindersView {
    /// Days from the due date (negative: before), ascending; empty: no reminders.
    #[schema(example = json!([-3, 0, 3, 7]))]
    pub offset_days: Vec<i32>,
    /// `sms` and/or `email`.
    #[schema(example = json!(["sms", "email"]))]
    pub channels: Vec<&'static str>,
    /// Local time of day in `timezone`, `HH:MM`.
    #[schema(example = "09:00")]
    pub time_of_day: String,
}

impl From<&ReminderSettings> for RemindersView {
    fn from(r: &ReminderSettings) -> Self {
        RemindersView {
            offset_days: r.offset_days.clone(),
            channels: r.channels.iter().map(|c| c.as_str()).collect(),
            time_of_day: time_of_day_text(r.time_of_day),
        }
    }
}

impl SettingsChangeView {
    /// The change as of `now` (a pending one past its expiry shows as lapsed).
    pub fn at(change: &SettingsChange, now: Timestamp) -> Self {
        let (previous, changes) = changed_fields(&change.before, &change.after);
        SettingsChangeView {
            id: change.id.clone(),
            status: change.status_at(now).as_str(),
            changes,
            previous,
            requested_by: change.requested_by.clone().into(),
            requested_at: change.requested_at,
            expires_at: change.expires_at,
            decided_by: change.decided_by.clone().map(Into::into),
            decided_at: change.decided_at,
        }
    }
}

impl SettingsView {
    /// The settings with the change waiting for a second person, if any.
    pub fn with_pending(settings: &Settings, pending: Option<&SettingsChange>, now: Timestamp) -> Self {
        SettingsView { pending_change: pending.map(|c| SettingsChangeView::at(c, now)), ..SettingsView::from(settings) }
    }
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
            country: s.country.code(),
            allow_partial_payments: s.invoicing.allow_partial_payments,
            reminders: RemindersView::from(&s.invoicing.reminders),
            payment_receipts: s.invoicing.payment_receipts,
            receipt_grace_minutes: s.invoicing.receipt_grace_minutes,
            default_client_language: s.receivers.default_client_language.as_str(),
            invitation_resend_days: s.receivers.invitation_resend_days,
            invitation_resends: s.receivers.invitation_resends,
            registration_window_days: s.receivers.registration_window_days,
            whatsapp_invitations: s.receivers.whatsapp_invitations,
            recommended_wallets: (s.receivers.recommended_wallets.iter())
                .map(|w| RecommendedWalletView {
                    name: w.name.clone(),
                    url: w.url.clone(),
                    assets: w.assets.iter().map(|a| a.as_str().to_owned()).collect(),
                    deep_link: w.deep_link.clone(),
                })
                .collect(),
            home_domain: s.stellar.home_domain.clone(),
            org_url: s.stellar.org_url.clone(),
            org_logo: s.stellar.org_logo.clone(),
            org_description: s.stellar.org_description.clone(),
            org_official_email: s.stellar.org_official_email.clone(),
            org_support_email: s.stellar.org_support_email.clone(),
            pending_change: None,
        }
    }
}
