//! Guessing payment pages: a `/pay/{id}` that names no page is a miss, counted per client
//! address in one-minute windows on the rate limiter's counter (shared where it is shared). An
//! address past `LAJAN_PAY_MISS_LIMIT` misses gets 429 on every `/pay` page until the window
//! ends, hits included, so a 200 among the 429s never tells a guesser it found one.

use crate::counters::{HitCounter, WINDOW_SECS};
use crate::error::error_chain;
use lajan_domain::Timestamp;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};

/// The addresses this process saw spend their misses, with the window they spent them in.
#[derive(Debug, Default)]
pub struct MissThrottle(Mutex<HashMap<IpAddr, i64>>);

/// The one-minute window `now` falls in, and the seconds left in it.
fn window(now: Timestamp) -> (i64, u64) {
    let secs = now.as_unix_seconds();
    let start = secs - secs.rem_euclid(WINDOW_SECS);
    (start, u64::try_from(start + WINDOW_SECS - secs).unwrap_or(1).max(1))
}

impl MissThrottle {
    /// The seconds until `ip` may open pages again, when it spent its misses in this window.
    pub fn blocked(&self, ip: IpAddr, now: Timestamp) -> Option<u64> {
        let (start, left) = window(now);
        let blocked = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        (blocked.get(&ip) == Some(&start)).then_some(left)
    }

    /// Counts one miss of `ip` on `counter`; the seconds it is now blocked for when this miss is
    /// over `limit` (0: no limit).
    pub async fn miss(&self, counter: &dyn HitCounter, limit: u64, ip: IpAddr, now: Timestamp) -> Option<u64> {
        if limit == 0 {
            return None;
        }
        let (start, left) = window(now);
        let count = match counter.hit(&format!("pay-miss:{ip}"), start, limit).await {
            Ok(count) => count,
            Err(e) => {
                tracing::error!(error = %error_chain(e.as_ref()), "payment page throttle unavailable; miss allowed");
                return None;
            }
        };
        if count <= limit {
            return None;
        }
        let mut blocked = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        blocked.retain(|_, window| *window == start);
        blocked.insert(ip, start);
        Some(left)
    }
}
