//! The one way into Argon2: a few hashes at a time, a short queue behind them, and "busy" (429)
//! past it. Each hash takes 19 MiB and tens of milliseconds of a CPU, and sign-ins and receivers'
//! answers come from anyone: unbounded, a burst of them takes the process's memory and its
//! blocking threads (8 addresses x 20 sign-ins at once took 55 MiB to 1.1 GiB).

use crate::{ServiceError, ServiceResult};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Semaphore;

/// Callers that may wait for a slot, per slot: at 50 ms a hash, about a fifth of a second's wait.
const QUEUED_PER_SLOT: usize = 4;
/// What a caller refused for want of a place is told, and how long to wait.
pub const BUSY: &str = "Too many passwords are being checked at once: try again in a moment";
pub const BUSY_RETRY_SECONDS: u64 = 2;

/// Who asks for a hash: anyone (a sign-in, a receiver's answer), who is refused when the queue
/// is full; or an organization's own work (a client's answer sealed, a user's new password),
/// which waits its turn, and counts in the queue while it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    Anonymous,
    Organization,
}

#[derive(Debug)]
pub struct PasswordGate {
    slots: Arc<Semaphore>,
    /// Callers hashing or waiting to.
    inside: AtomicUsize,
    capacity: usize,
}

impl PasswordGate {
    /// `slots` hashes at a time (at least one), `QUEUED_PER_SLOT` times as many waiting.
    pub fn new(slots: usize) -> Self {
        let slots = slots.max(1);
        PasswordGate {
            slots: Arc::new(Semaphore::new(slots)),
            inside: AtomicUsize::new(0),
            capacity: slots * (1 + QUEUED_PER_SLOT),
        }
    }

    /// One slot per CPU: more would only make each hash wait for a core.
    pub fn per_cpu() -> Self {
        PasswordGate::new(std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get))
    }

    /// Runs `work` (an Argon2 hash or check) on the blocking pool once a slot is free; see
    /// [`PasswordGate::enter`] for who is refused.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        caller: Caller,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> ServiceResult<T> {
        self.enter(caller)?.run(work).await
    }

    /// A place in the queue, taken before anything is recorded (a sign-in attempt is written
    /// only once it will be checked); for an anonymous caller, refused with
    /// [`ServiceError::TooSoon`] when the queue is full.
    pub(crate) fn enter(&self, caller: Caller) -> ServiceResult<Place<'_>> {
        let capacity = match caller {
            Caller::Anonymous => self.capacity,
            Caller::Organization => usize::MAX,
        };
        let inside = Inside::join(&self.inside, capacity)
            .ok_or(ServiceError::TooSoon { message: BUSY, retry_after_seconds: BUSY_RETRY_SECONDS })?;
        Ok(Place { gate: self, _inside: inside })
    }
}

/// A caller's place in the gate's queue.
pub(crate) struct Place<'a> {
    gate: &'a PasswordGate,
    _inside: Inside<'a>,
}

impl Place<'_> {
    /// Runs `work` once a slot is free. The slot is held until the work ends, even if the caller
    /// stops waiting, so no more than the gate's slots ever run.
    pub(crate) async fn run<T: Send + 'static>(self, work: impl FnOnce() -> T + Send + 'static) -> ServiceResult<T> {
        let slot = self
            .gate
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ServiceError::Unavailable("password checks have stopped".into()))?;
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            work()
        })
        .await
        .map_err(|e| ServiceError::Unavailable(format!("a password check stopped: {e}")))
    }
}

/// A caller counted inside the gate until dropped.
struct Inside<'a>(&'a AtomicUsize);

impl<'a> Inside<'a> {
    /// Counts a caller in; `None` (and not counted) when `capacity` are already inside.
    fn join(count: &'a AtomicUsize, capacity: usize) -> Option<Self> {
        let before = count.fetch_add(1, Ordering::AcqRel);
        let inside = Inside(count);
        (before < capacity).then_some(inside)
    }
}

impl Drop for Inside<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[tokio::test]
    async fn no_more_than_its_slots_run_and_a_full_queue_is_refused() {
        let gate = Arc::new(PasswordGate::new(2));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let calls: Vec<_> = (0..30)
            .map(|_| {
                let (gate, running, most) = (gate.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    gate.run(Caller::Anonymous, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        let (mut done, mut busy) = (0, 0);
        for call in calls {
            match call.await.unwrap() {
                Ok(()) => done += 1,
                Err(ServiceError::TooSoon { .. }) => busy += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert!(most.load(Ordering::SeqCst) <= 2, "two slots: never three hashes at once");
        assert!(done >= 10 && busy >= 1, "ten places ({done} done), the rest refused ({busy})");
        assert_eq!(gate.inside.load(Ordering::SeqCst), 0, "everyone left");
    }
}
