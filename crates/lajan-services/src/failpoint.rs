//! Crash injection for the exactly-once, idempotency and shutdown tests: with
//! `LAJAN_FAILPOINTS=payout.after_store` (a comma-separated list) the process announces the point
//! on stderr when it gets there and stops dead, so a test can SIGKILL it at exactly that step
//! and check what a restart does; `name@MS` instead pauses there MS milliseconds (announced as
//! well) and goes on, so a test can act while requests are held at that step.
//! Only with the `testing` feature (which the tests that run the binary turn on): in a release
//! build `hit` is empty and `LAJAN_FAILPOINTS` is never read.

#[cfg(feature = "testing")]
use std::sync::OnceLock;
#[cfg(feature = "testing")]
use std::time::Duration;

/// Each armed point, with its pause (`None`: stop forever).
#[cfg(feature = "testing")]
fn armed() -> &'static [(String, Option<u64>)] {
    static ARMED: OnceLock<Vec<(String, Option<u64>)>> = OnceLock::new();
    ARMED.get_or_init(|| {
        let listed = std::env::var("LAJAN_FAILPOINTS").unwrap_or_default();
        listed
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|point| match point.split_once('@') {
                Some((name, ms)) => (name.to_owned(), Some(ms.parse().unwrap_or(0))),
                None => (point.to_owned(), None),
            })
            .collect()
    })
}

/// Stops here forever (or pauses, see the module) when `name` is armed, after saying so on stderr.
#[cfg(feature = "testing")]
pub async fn hit(name: &str) {
    match armed().iter().find(|(armed, _)| armed == name) {
        None => {}
        Some((_, Some(ms))) => {
            eprintln!("FAILPOINT {name} pausing {ms} ms");
            tokio::time::sleep(Duration::from_millis(*ms)).await;
        }
        Some((_, None)) => {
            eprintln!("FAILPOINT {name} reached: waiting to be killed");
            std::future::pending::<()>().await;
        }
    }
}

/// Nothing: a release build has no failpoints.
#[cfg(not(feature = "testing"))]
pub async fn hit(_name: &str) {}
