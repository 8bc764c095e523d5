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
    /// How long a resolved API key is trusted without asking the store again (0: never);
    /// a revoked key stops working on a running server within this.
    pub auth_cache_ms: u64,
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
    /// How often the sandbox network closes a ledger.
    pub sandbox_ledger_close_ms: i64,
    /// The live Stellar network; without it live payouts wait and live payments are not watched.
    pub live_ledger: Option<LiveLedgerConfig>,
}

/// Where and how live payouts are made, and where live payments arrive.
#[derive(Debug, Clone)]
pub struct LiveLedgerConfig {
    /// e.g. `https://horizon.stellar.org`.
    pub horizon_url: String,
    /// Signed into every transaction: the public network's unless configured otherwise.
    pub network_passphrase: String,
    /// The `S...` seed of the account payouts are paid from. Never logged.
    pub distribution_secret: SecretString,
    /// The account customers pay into; the distribution account when unset.
    pub receiving_account: Option<String>,
    /// Stroops per operation (the network minimum is 100).
    pub base_fee: u32,
    /// A transaction's `max_time` is this long after it is built; an unknown outcome is settled
    /// when it has passed.
    pub tx_timeout_secs: u64,
}

/// The public Stellar network, where live payouts go unless configured otherwise.
pub const PUBLIC_NETWORK_PASSPHRASE: &str = "Public Global Stellar Network ; September 2015";

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            public_url: "http://127.0.0.1:8080".into(),
            rate_limits: TierLimits::default(),
            redis_url: None,
            auth_cache_ms: 1000,
            purge_interval_secs: 300,
            jobs: Some(JobIntervals::default()),
            smtp: None,
            sms: None,
            live_asset_issuers: BTreeMap::new(),
            payout_max_attempts: 5,
            payout_lease_ms: 120_000,
            sandbox_ledger_close_ms: 1000,
            live_ledger: None,
        }
    }
}
