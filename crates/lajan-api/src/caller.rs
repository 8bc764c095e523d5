//! Who is calling: the context a resolved API key gives a request, and the cache of keys resolved
//! recently, which the application state holds and the authentication middleware consults.

use lajan_domain::org::Tier;
use lajan_domain::scope::Scope;
use lajan_domain::{Tenant, Timestamp};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How stale `last_used_at` may get before a request refreshes it (saves a write per request).
const TOUCH_AFTER_MS: i64 = 60_000;

/// Who is calling: the key's organization and environment and what it may do.
#[derive(Debug, Clone)]
pub(crate) struct AuthContext {
    pub tenant: Tenant,
    pub key_id: String,
    pub scopes: Vec<Scope>,
    pub tier: Tier,
}

/// Keys resolved in the last `ttl`, by secret hash, so most requests skip the key lookup.
///
/// Only keys that authenticated are kept. A key revoked (`lajan keys revoke`, another process)
/// stops working once its entry is older than `ttl` (`LAJAN_AUTH_CACHE_MS`, 1 s by default;
/// 0 turns the cache off).
pub struct KeyCache {
    ttl: Duration,
    entries: Mutex<HashMap<String, CachedKey>>,
}

struct CachedKey {
    ctx: AuthContext,
    last_used_at: Option<Timestamp>,
    until: Instant,
    /// The process's count of revoked keys when this one was resolved.
    revocations: u64,
}

/// Past this many entries, expired ones are dropped before another is added.
const KEY_CACHE_SWEEP_AT: usize = 10_000;

impl KeyCache {
    pub fn new(ttl: Duration) -> Self {
        KeyCache { ttl, entries: Mutex::new(HashMap::new()) }
    }

    /// The caller for `hash` if resolved within the ttl, and whether its `last_used_at` is due
    /// for a refresh (counted as done: one request per minute refreshes it).
    /// An entry from before the latest of `revocations` (a key revoked in this process since)
    /// is not used.
    pub(crate) fn get(&self, hash: &str, now: Timestamp, revocations: u64) -> Option<(AuthContext, bool)> {
        if self.ttl.is_zero() {
            return None;
        }
        let mut entries = self.entries.lock().ok()?;
        let entry = entries.get_mut(hash)?;
        if entry.until <= Instant::now() || entry.revocations != revocations {
            entries.remove(hash);
            return None;
        }
        let touch = due_for_touch(entry.last_used_at, now);
        if touch {
            entry.last_used_at = Some(now);
        }
        Some((entry.ctx.clone(), touch))
    }

    /// Keeps a key the store just resolved; returns it and whether to refresh `last_used_at`.
    pub(crate) fn put(
        &self,
        hash: String,
        ctx: AuthContext,
        last_used_at: Option<Timestamp>,
        now: Timestamp,
        revocations: u64,
    ) -> (AuthContext, bool) {
        let touch = due_for_touch(last_used_at, now);
        if self.ttl.is_zero() {
            return (ctx, touch);
        }
        let last_used_at = if touch { Some(now) } else { last_used_at };
        if let Ok(mut entries) = self.entries.lock() {
            let at = Instant::now();
            if entries.len() >= KEY_CACHE_SWEEP_AT {
                entries.retain(|_, e| e.until > at);
            }
            entries.insert(hash, CachedKey { ctx: ctx.clone(), last_used_at, until: at + self.ttl, revocations });
        }
        (ctx, touch)
    }
}

fn due_for_touch(last_used_at: Option<Timestamp>, now: Timestamp) -> bool {
    last_used_at.is_none_or(|t| now.as_millis() - t.as_millis() >= TOUCH_AFTER_MS)
}
