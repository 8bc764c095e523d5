//! The payout executor: claims approved payouts and pays each through its environment's
//! [`Ledger`], recording every attempt. The transaction's hash and envelope are stored before it
//! is submitted; a payout whose last attempt never finished (a crash) or ended with an unknown
//! outcome is resubmitted with the identical envelope, which the ledger applies at most once.

use crate::Workers;
use futures::{StreamExt, TryStreamExt};
use lajan_domain::payout::{AttemptResult, PayoutDetail};
use lajan_domain::{Tenant, Timestamp};
use lajan_ledger::ledger::{OUTCOME_UNKNOWN, resubmits_same_transaction};
use lajan_ledger::{Ledger, LedgerFault, RetryPolicy, Transaction};
use lajan_services::events::payout_event;
use lajan_services::failpoint;
use lajan_store::StoreResult;
use std::sync::Arc;
use std::time::Duration;

/// Payouts claimed per executor step. Sandbox ones are all in flight at once (they share the
/// open ledger and wait for its close together), so this bounds sandbox payouts per ledger.
pub const PAYOUT_BATCH: usize = 500;

/// Delays before resubmitting a payout after a transient failure (timeout, network).
const PAYOUT_RETRY_SECS: [i64; 5] = [5, 30, 120, 600, 3600];

impl Workers {
    /// The executor's step: claims due payouts and submits them, as many side by side as their
    /// ledger allows, those of a one-at-a-time ledger within half the lease (the rest are handed
    /// back rather than raced by another executor). Returns how many it claimed.
    pub async fn execute_payouts_once(&self, now: Timestamp) -> StoreResult<usize> {
        let store = &self.services.store;
        let batch = i64::try_from(PAYOUT_BATCH).unwrap_or(i64::MAX);
        let claimed = store.claim_payouts(now, self.config.payout_lease_ms, batch).await?;
        // Payouts of a ledger that takes several at once go side by side, up to its bound; the
        // others (and those waiting for a ledger) one at a time.
        let width = |d: &PayoutDetail| self.services.ledgers.of(&d.tenant).map_or(1, |l| l.parallelism());
        let (parallel, serial): (Vec<_>, Vec<_>) = claimed.iter().partition(|d| width(d) > 1);
        let bound = parallel.iter().map(|d| width(d)).min().unwrap_or(1);
        let steps: Vec<_> = parallel.into_iter().map(|d| Box::pin(self.execute_payout(d))).collect();
        futures::stream::iter(steps).buffer_unordered(bound).try_collect::<Vec<()>>().await?;
        let started = std::time::Instant::now();
        let budget = Duration::from_millis(u64::try_from(self.config.payout_lease_ms / 2).unwrap_or(60_000));
        for d in serial {
            if started.elapsed() > budget {
                store.hold_payout(&d.payout.id, Timestamp::now()).await?;
            } else {
                self.execute_payout(d).await?;
            }
        }
        // The disbursements whose payouts moved take the status those now add up to.
        let mut batches: Vec<(Tenant, String)> = Vec::new();
        for d in &claimed {
            if let Some(id) = &d.payout.disbursement_id
                && !batches.iter().any(|(_, seen)| seen == id)
            {
                batches.push((d.tenant.clone(), id.clone()));
            }
        }
        if !batches.is_empty() {
            self.services.roll_up_disbursements(Some(batches)).await?;
        }
        Ok(claimed.len())
    }

    async fn execute_payout(&self, d: &PayoutDetail) -> StoreResult<()> {
        let store = &self.services.store;
        let Some(ledger) = self.services.ledgers.of(&d.tenant) else {
            // Before any attempt is recorded, so waiting leaves no trace.
            tracing::warn!(payout = %d.payout.id, "live payouts wait until a live ledger is configured (LAJAN_LIVE_HORIZON_URL)");
            return store.hold_payout(&d.payout.id, Timestamp::now().plus_millis(300_000)).await;
        };
        let retry = RetryPolicy { max_attempts: self.config.payout_max_attempts, delays_secs: &PAYOUT_RETRY_SECS };
        let resume =
            d.attempts.last().filter(|a| a.ledger_seq.is_none() && resubmits_same_transaction(a.error_code.as_deref()));
        let tx = match resume {
            Some(last) => Transaction { hash: last.tx_hash.clone(), envelope: store.attempt_envelope(&last.id).await? },
            None => match ledger.build(d).await {
                Ok(tx) => tx,
                Err(LedgerFault::Store(e)) => return Err(e),
                Err(LedgerFault::Unavailable(reason)) => {
                    // Nothing was signed or sent; try again later.
                    tracing::warn!(payout = %d.payout.id, %reason, "payout not submitted");
                    return store.hold_payout(&d.payout.id, Timestamp::now().plus_millis(30_000)).await;
                }
            },
        };
        let attempt = store.start_attempt(&d.payout.id, &tx.hash, &tx.envelope, Timestamp::now()).await?;
        failpoint::hit("payout.after_store").await;
        let result = submit(ledger, d, &tx, resume.is_some(), attempt.attempt_number, &retry).await?;
        failpoint::hit("payout.after_submit").await;
        failpoint::hit("payout.before_record").await;
        store.finish_attempt(&d.tenant, &d.payout.id, &attempt.id, &result, Timestamp::now(), &payout_event).await?;
        Ok(())
    }
}

/// Submits through the ledger. A ledger that cannot answer leaves the outcome unknown: the
/// attempt is retried with the same transaction, never failed.
async fn submit(
    ledger: &Arc<dyn Ledger>,
    d: &PayoutDetail,
    tx: &Transaction,
    resubmission: bool,
    attempt_number: i64,
    retry: &RetryPolicy<'_>,
) -> StoreResult<AttemptResult> {
    match ledger.submit(d, tx, resubmission, attempt_number, retry).await {
        Ok(result) => Ok(result),
        Err(LedgerFault::Store(e)) => Err(e),
        Err(LedgerFault::Unavailable(reason)) => Ok(AttemptResult::Retry {
            code: OUTCOME_UNKNOWN.into(),
            message: format!("{reason}; the same transaction will be resubmitted"),
            retry_at: Timestamp::now().plus_millis(retry.delay_after(attempt_number) * 1000),
        }),
    }
}
