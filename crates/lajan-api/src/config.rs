//! The API's runtime settings, with defaults in code. The binary fills them from flags,
//! `LAJAN_*` environment variables and an optional TOML file.

use crate::jobs::JobIntervals;
use crate::ratelimit::TierLimits;
use lajan_worker::notify::{SmsConfig, SmtpConfig};
use secrecy::SecretString;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
pub struct AppConfig {
    /// Base of payment-page links, e.g. `https://pay.example.com`.
    pub public_url: String,
    /// Requests per minute per organization and environment, by tier.
    pub rate_limits: TierLimits,
    /// Where rate-limit counters live when several processes share them. Secret: may hold a password.
    pub redis_url: Option<SecretString>,
    /// How often expired idempotency keys and rate-limit windows are purged.
    pub purge_interval_secs: u64,
    /// How often the payment watcher, the overdue job and the notification sender run;
    /// `None` runs none of them in the background (tests drive them step by step).
    pub jobs: Option<JobIntervals>,
    /// Outgoing email for live invoices; without it live email fails with "not configured".
    pub smtp: Option<SmtpConfig>,
    /// Outgoing SMS for live invoices (Twilio-compatible); without it live SMS fail likewise.
    pub sms: Option<SmsConfig>,
    /// Issuers of credit assets on the live network, by asset code (sandbox issuers are shipped).
    pub live_asset_issuers: BTreeMap<String, String>,
    /// How many times a payout is submitted before a transient failure becomes final.
    pub payout_max_attempts: i64,
    /// How long a claimed payout belongs to the executor that claimed it. A payout whose
    /// executor died is resumed (its stored transaction resubmitted) once this has passed.
    pub payout_lease_ms: i64,
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            public_url: "http://127.0.0.1:8080".into(),
            rate_limits: TierLimits::default(),
            redis_url: None,
            purge_interval_secs: 300,
            jobs: Some(JobIntervals::default()),
            smtp: None,
            sms: None,
            live_asset_issuers: BTreeMap::new(),
            payout_max_attempts: 5,
            payout_lease_ms: 120_000,
        }
    }
}
