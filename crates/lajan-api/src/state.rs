//! What every handler can reach: the use cases, the store they share, the rate-limit counter,
//! the configuration and the keys being answered.

use crate::address_slots::AddressSlots;
use crate::caller::KeyCache;
use crate::config::AppConfig;
use crate::counters::HitCounter;
use crate::in_flight::InFlight;
use crate::pay_throttle::MissThrottle;
use lajan_services::Services;
use lajan_store::Store;
use std::ops::Deref;
use std::sync::Arc;

/// Cloned by every middleware and handler of every request: one reference count to bump, not
/// one per part.
#[derive(Clone)]
pub struct AppState(Arc<AppParts>);

impl AppState {
    pub fn new(parts: AppParts) -> Self {
        AppState(Arc::new(parts))
    }
}

impl Deref for AppState {
    type Target = AppParts;

    fn deref(&self) -> &AppParts {
        &self.0
    }
}

pub struct AppParts {
    pub services: Arc<Services>,
    /// The services' store, for reads and the middleware's bookkeeping.
    pub store: Arc<dyn Store>,
    pub limiter: Arc<dyn HitCounter>,
    pub config: Arc<AppConfig>,
    pub keys: Arc<KeyCache>,
    /// The `Idempotency-Key`s this process is answering now.
    pub in_flight: Arc<InFlight>,
    /// Client addresses that guessed too many payment pages this minute.
    pub pay_misses: Arc<MissThrottle>,
    /// Client addresses that gave too many wrong registration codes this hour.
    pub code_misses: Arc<MissThrottle>,
    /// Client addresses that started too many SEP-24 deposits this hour.
    pub deposit_starts: Arc<MissThrottle>,
    /// Requests in flight per client address forwarded by a trusted proxy.
    pub requests_per_address: Arc<AddressSlots>,
}

impl AppState {
    /// Base of payment-page links.
    pub fn public_url(&self) -> &str {
        &self.services.config.public_url
    }
}
