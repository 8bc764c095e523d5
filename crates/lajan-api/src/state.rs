//! What every handler can reach: the store, the rate-limit counter and the configuration.

use crate::config::AppConfig;
use crate::ratelimit::HitCounter;
use lajan_store::Store;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub store: Arc<dyn Store>,
    pub limiter: Arc<dyn HitCounter>,
    pub config: Arc<AppConfig>,
}
