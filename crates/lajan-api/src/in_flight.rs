//! The `Idempotency-Key`s this process is answering right now: a second request with one of them
//! gets 409 at once instead of waiting for the database to put the two in line.

use lajan_domain::Tenant;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

/// The keys this process is answering right now, per organization and environment.
#[derive(Debug, Default)]
pub struct InFlight(Mutex<HashSet<(String, &'static str, String)>>);

impl InFlight {
    /// Marks `key` as running until the guard drops; `None` when it already is.
    pub fn enter(self: &Arc<Self>, tenant: &Tenant, key: &str) -> Option<Running> {
        let entry = (tenant.org_id.clone(), tenant.env.as_str(), key.to_owned());
        let fresh = self.0.lock().unwrap_or_else(PoisonError::into_inner).insert(entry.clone());
        fresh.then(|| Running { set: self.clone(), entry })
    }
}

/// A key being answered; dropping it (the request finished, failed or was abandoned) frees it.
pub struct Running {
    set: Arc<InFlight>,
    entry: (String, &'static str, String),
}

impl Drop for Running {
    fn drop(&mut self) {
        self.set.0.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.entry);
    }
}
