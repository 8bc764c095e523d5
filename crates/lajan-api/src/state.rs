//! What every handler can reach: the store, the rate-limit counter, the configuration, the jobs
//! and the keys being answered.

use crate::auth::KeyCache;
use crate::config::AppConfig;
use crate::idempotency::InFlight;
use crate::jobs::Jobs;
use crate::ratelimit::HitCounter;
use lajan_store::Store;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub store: Arc<dyn Store>,
    pub limiter: Arc<dyn HitCounter>,
    pub config: Arc<AppConfig>,
    pub jobs: Arc<Jobs>,
    pub keys: Arc<KeyCache>,
    /// The `Idempotency-Key`s this process is answering now.
    pub in_flight: Arc<InFlight>,
}

impl AppState {
    /// Nudges the notification sender after messages were queued.
    pub fn wake_notifier(&self) {
        self.jobs.wake_notifications();
    }

    /// Nudges the payout executor after a payout became approved.
    pub fn wake_executor(&self) {
        self.jobs.wake_payouts();
    }
}
