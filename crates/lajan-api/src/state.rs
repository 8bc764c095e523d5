//! What every handler can reach: the store, the rate-limit counter and the configuration.

use crate::auth::KeyCache;
use crate::config::AppConfig;
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
