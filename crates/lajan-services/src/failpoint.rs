//! Crash injection for the exactly-once and idempotency tests: with
//! `LAJAN_FAILPOINTS=payout.after_store` (a
//! comma-separated list) the process announces the point on stderr when it gets there and stops
//! dead, so a test can SIGKILL it at exactly that step and check what a restart does.
//! Unset (always, in production), a failpoint costs one cached lookup.

use std::sync::OnceLock;

fn armed() -> &'static [String] {
    static ARMED: OnceLock<Vec<String>> = OnceLock::new();
    ARMED.get_or_init(|| {
        std::env::var("LAJAN_FAILPOINTS")
            .map(|v| v.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default()
    })
}

/// Stops here forever when `name` is armed, after saying so on stderr.
pub async fn hit(name: &str) {
    if armed().iter().any(|a| a == name) {
        eprintln!("FAILPOINT {name} reached: waiting to be killed");
        std::future::pending::<()>().await;
    }
}
