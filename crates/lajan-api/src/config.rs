//! The HTTP layer's runtime settings, with defaults in code. The binary fills them from flags,
//! `LAJAN_*` environment variables and an optional TOML file; the use cases' and the workers'
//! settings are `lajan_services::ServiceConfig` and `lajan_worker::WorkerConfig`.

use crate::counters::TierLimits;
use crate::serve::ConnectionLimits;
use secrecy::SecretString;

#[derive(Debug, Clone)]
pub struct AppConfig {
    /// Requests per minute per organization and environment, by tier.
    pub rate_limits: TierLimits,
    /// Where rate-limit counters live when several processes share them. Secret: may hold a password.
    pub redis_url: Option<SecretString>,
    /// How long a resolved API key is trusted without asking the store again (0: never);
    /// a revoked key stops working on a running server within this.
    pub auth_cache_ms: u64,
    /// `/pay` pages a client address may ask for that do not exist, per minute, before every
    /// page answers it 429 until the minute ends (0: no limit).
    pub pay_miss_limit: u64,
    /// Wrong registration codes one client address may give per hour, on every registration
    /// and deposit page together, before those pages answer it 429 (0: no limit).
    pub code_miss_limit: u64,
    /// SEP-24 deposits one client address may start per hour, whatever its accounts, before
    /// the next answers 429 (0: no limit).
    pub deposit_limit: u64,
    /// Timeouts and the cap on open connections.
    pub connections: ConnectionLimits,
    /// Reverse proxies whose `X-Forwarded-For` names the client (none by default).
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            rate_limits: TierLimits::default(),
            redis_url: None,
            auth_cache_ms: 1000,
            pay_miss_limit: 30,
            code_miss_limit: 30,
            deposit_limit: 20,
            connections: ConnectionLimits::default(),
            trusted_proxies: Vec::new(),
        }
    }
}
