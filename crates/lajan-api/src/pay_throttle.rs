//! Guessing: a `/pay/{id}` that names no page, or a wrong registration code, is a miss, counted
//! per client address in fixed windows on the rate limiter's counter (shared where it is
//! shared); so is each SEP-24 deposit started, which anyone with a fresh account can ask for. An address past its limit gets 429 on every such page until the window ends, hits
//! included, so a 200 among the 429s never tells a guesser it found one.

use crate::counters::{HitCounter, WINDOW_SECS};
use crate::error::error_chain;
use lajan_domain::Timestamp;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};

/// What one kind of miss is counted as, and the addresses this process saw spend their misses,
/// with the window they spent them in.
#[derive(Debug)]
pub struct MissThrottle {
    bucket: &'static str,
    window_secs: i64,
    blocked: Mutex<HashMap<IpAddr, i64>>,
}

impl MissThrottle {
    /// Payment pages that do not exist, per minute.
    pub fn pay_pages() -> Self {
        MissThrottle { bucket: "pay-miss", window_secs: WINDOW_SECS, blocked: Mutex::default() }
    }

    /// Wrong registration codes, on every page together, per hour: a guesser spraying many
    /// receivers' pages from one address.
    pub fn registration_codes() -> Self {
        MissThrottle { bucket: "code-miss", window_secs: 3_600, blocked: Mutex::default() }
    }

    /// SEP-24 deposits started, per hour: a new SEP-10 account costs nothing, so the cap per
    /// account alone would not bound one address.
    pub fn deposits() -> Self {
        MissThrottle { bucket: "deposit-start", window_secs: 3_600, blocked: Mutex::default() }
    }

    /// The window `now` falls in, and the seconds left in it.
    fn window(&self, now: Timestamp) -> (i64, u64) {
        let secs = now.as_unix_seconds();
        let start = secs - secs.rem_euclid(self.window_secs);
        (start, u64::try_from(start + self.window_secs - secs).unwrap_or(1).max(1))
    }

    /// The seconds until `ip` may open pages again, when it spent its misses in this window.
    pub fn blocked(&self, ip: IpAddr, now: Timestamp) -> Option<u64> {
        let (start, left) = self.window(now);
        let blocked = self.blocked.lock().unwrap_or_else(PoisonError::into_inner);
        (blocked.get(&ip) == Some(&start)).then_some(left)
    }

    /// Counts one miss of `ip` on `counter`; the seconds it is now blocked for when this miss is
    /// over `limit` (0: no limit).
    pub async fn miss(&self, counter: &dyn HitCounter, limit: u64, ip: IpAddr, now: Timestamp) -> Option<u64> {
        if limit == 0 {
            return None;
        }
        let (start, left) = self.window(now);
        let bucket = format!("{}:{ip}", self.bucket);
        let count = match counter.hit(&bucket, start, self.window_secs, limit).await {
            Ok(count) => count,
            Err(e) => {
                tracing::error!(error = %error_chain(e.as_ref()), bucket = self.bucket, "guess throttle unavailable; miss allowed");
                return None;
            }
        };
        if count <= limit {
            return None;
        }
        let mut blocked = self.blocked.lock().unwrap_or_else(PoisonError::into_inner);
        blocked.retain(|_, window| *window == start);
        blocked.insert(ip, start);
        Some(left)
    }
}
