//! What this process's executor knows of the live network's health: a payout the network could
//! not be asked about waits a growing, jittered while; after such a fault the next executor
//! step asks the network whether it answers, and the step in which it answers again after it
//! did not makes every held payout due at once, instead of each waiting out its own wait.

use lajan_domain::retry::Doubling;
use lajan_domain::{Environment, Timestamp};
use lajan_ledger::{Ledger, LedgerFault, retry_delay};
use lajan_store::{Store, StoreResult};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

#[derive(Debug, Default)]
pub struct NetworkWatch {
    /// Faults since the network last answered a probe: each one's wait grows with them.
    faults: AtomicI64,
    /// The last probe found the network not answering.
    down: AtomicBool,
}

impl NetworkWatch {
    /// Records that the network could not be asked; answers how long the payout waits (less
    /// if the network answers again sooner).
    pub fn fault(&self, retry: &Doubling) -> i64 {
        let n = self.faults.fetch_add(1, Ordering::Relaxed).saturating_add(1);
        retry_delay(retry, n)
    }

    /// Records a submission whose outcome the network did not give: the next step asks
    /// whether the network answers at all.
    pub fn suspect(&self) {
        self.faults.fetch_add(1, Ordering::Relaxed);
    }

    /// At the start of an executor step, after a fault: asks `ledger` whether it answers. When
    /// it does after a probe found it down, every held payout of `env` is due at `now`.
    /// Answers how many were woken.
    pub async fn recover(
        &self,
        ledger: &dyn Ledger,
        store: &dyn Store,
        env: Environment,
        now: Timestamp,
    ) -> StoreResult<u64> {
        if self.faults.load(Ordering::Relaxed) == 0 && !self.down.load(Ordering::Relaxed) {
            return Ok(0);
        }
        match ledger.answers().await {
            Ok(()) => {
                self.faults.store(0, Ordering::Relaxed);
                if !self.down.swap(false, Ordering::Relaxed) {
                    return Ok(0);
                }
                let woken = store.wake_held_payouts(env, now).await?;
                tracing::info!(woken, "the network answers again: every held payout is due now");
                Ok(woken)
            }
            Err(LedgerFault::Store(e)) => Err(e),
            Err(LedgerFault::Unavailable(reason) | LedgerFault::Invalid(reason)) => {
                if !self.down.swap(true, Ordering::Relaxed) {
                    tracing::warn!(%reason, "the network does not answer: payouts wait until it does");
                }
                Ok(0)
            }
        }
    }
}
