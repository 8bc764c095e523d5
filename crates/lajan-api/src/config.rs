//! The API's runtime settings, with defaults in code. The binary fills them from flags,
//! `LAJAN_*` environment variables and an optional TOML file.

use crate::ratelimit::TierLimits;
use secrecy::SecretString;

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
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            public_url: "http://127.0.0.1:8080".into(),
            rate_limits: TierLimits::default(),
            redis_url: None,
            purge_interval_secs: 300,
        }
    }
}
