//! The payout executor: claims approved payouts and pays each through its environment's
//! [`Ledger`], recording every attempt, so that two transactions for one payout are never both
//! able to apply. Each claim carries a lease token that every write to the payout presents, so
//! an executor that outlived its lease cannot move the payout; the decision to resume or build is
//! made from the attempts re-read under the payout's lock; a transaction's hash and envelope are
//! stored before it is submitted, an unsettled one is resubmitted unchanged (the ledger applies
//! it at most once), and a new one is built only once every earlier one is proven dead.

use crate::Workers;
use futures::{StreamExt, TryStreamExt};
use lajan_domain::payout::{AttemptResult, PayoutDetail, latest_per_transaction};
use lajan_domain::{Environment, Tenant, Timestamp};
use lajan_ledger::ledger::OUTCOME_UNKNOWN;
use lajan_ledger::{Fate, Ledger, LedgerFault, Previous, RetryPolicy, Transaction, Tries};
use lajan_services::error::error_chain;
use lajan_services::events::payout_event;
use lajan_services::failpoint;
use lajan_store::StoreResult;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Sandbox payouts claimed per executor step. They are all in flight at once (they share the
/// open ledger and wait for its close together), so this bounds sandbox payouts per ledger.
pub const PAYOUT_BATCH: usize = 500;

/// Delays before resubmitting a payout after a transient failure (timeout, network).
const PAYOUT_RETRY_SECS: [i64; 5] = [5, 30, 120, 600, 3600];

/// The error code of a payout no transaction can be built for (e.g. an amount the network
/// cannot carry): recorded on an attempt without a transaction.
const NOT_BUILT: &str = "tx_not_built";

/// How long a payout waits when the network cannot be asked to build or settle its transaction.
const UNAVAILABLE_RETRY_MS: i64 = 30_000;

impl Workers {
    /// The executor's step: claims the due sandbox payouts and pays them side by side, then the
    /// live ones one at a time, each claimed just before it starts (they take the distribution
    /// account's sequence in turn, so a worker that dies holds one, not all), for at most half a
    /// lease. Returns how many payouts it claimed.
    pub async fn execute_payouts_once(&self, now: Timestamp) -> StoreResult<usize> {
        let store = &self.services.store;
        let started = Instant::now();
        let lease_ms = self.config.payout_lease_ms;
        let batch = i64::try_from(PAYOUT_BATCH).unwrap_or(i64::MAX);
        let sandbox = store.claim_payouts(now, lease_ms, batch, Environment::Test).await?;
        let width = self.services.ledgers.sandbox.parallelism().max(1);
        let steps: Vec<_> = sandbox.payouts.iter().map(|d| Box::pin(self.execute_claimed(&sandbox.lease, d))).collect();
        let all = futures::stream::iter(steps).buffer_unordered(width).try_collect::<Vec<()>>();
        self.renewing(&sandbox.lease, now, started, all).await?;
        let mut moved = sandbox.payouts;
        let budget = Duration::from_millis(u64::try_from(lease_ms / 2).unwrap_or(60_000));
        while started.elapsed() < budget {
            let claim = store.claim_payouts(now, lease_ms, 1, Environment::Live).await?;
            let Some(d) = claim.payouts.into_iter().next() else { break };
            if moved.iter().any(|m| m.payout.id == d.payout.id) {
                // Tried in this step already and due again: the next step takes it.
                store.hold_payout(&d.payout.id, &claim.lease, now).await?;
                break;
            }
            self.renewing(&claim.lease, now, started, self.execute_claimed(&claim.lease, &d)).await?;
            moved.push(d);
        }
        // The disbursements whose payouts moved take the status those now add up to.
        let mut batches: Vec<(Tenant, String)> = Vec::new();
        for d in &moved {
            if let Some(id) = &d.payout.disbursement_id
                && !batches.iter().any(|(_, seen)| seen == id)
            {
                batches.push((d.tenant.clone(), id.clone()));
            }
        }
        if !batches.is_empty() {
            self.services.roll_up_disbursements(Some(batches)).await?;
        }
        Ok(moved.len())
    }

    /// Pays one payout while `lease` holds it: resumes its unsettled transaction, or builds a new
    /// one once every earlier one is proven dead. Does nothing once the lease is lost.
    pub async fn execute_claimed(&self, lease: &str, claimed: &PayoutDetail) -> StoreResult<()> {
        let store = &self.services.store;
        let id = &claimed.payout.id;
        let Some(ledger) = self.services.ledgers.of(&claimed.tenant) else {
            // Before any attempt is recorded, so waiting leaves no trace.
            tracing::warn!(payout = %id, "live payouts wait until a live ledger is configured (LAJAN_LIVE_HORIZON_URL)");
            return store.hold_payout(id, lease, Timestamp::now().plus_millis(300_000)).await;
        };
        // Another executor may have added or settled an attempt since the claim was read.
        let Some(d) = store.held_payout(&claimed.tenant, id, lease).await? else {
            tracing::info!(payout = %id, "the payout's lease was lost before it started; its new holder pays it");
            return Ok(());
        };
        // An unsettled transaction is sent again within its attempt; otherwise a new one.
        let resume = d.attempts.last().filter(|a| a.unsettled());
        let (tx, attempt) = match resume {
            Some(last) => {
                let tx = Transaction { hash: last.tx_hash.clone(), envelope: store.attempt_envelope(&last.id).await? };
                (tx, store.resend_attempt(id, lease, &last.id).await?)
            }
            None => {
                let Some(tx) = self.new_transaction(ledger, &d, lease).await? else { return Ok(()) };
                let attempt = store.start_attempt(id, lease, &tx.hash, &tx.envelope, Timestamp::now()).await?;
                (tx, attempt)
            }
        };
        let Some(attempt) = attempt else {
            tracing::info!(payout = %id, "the payout's lease was lost before submitting; nothing was sent");
            return Ok(());
        };
        failpoint::hit("payout.after_store").await;
        let retry = RetryPolicy { max_attempts: self.config.payout_max_attempts, delays_secs: &PAYOUT_RETRY_SECS };
        let tries = Tries { built: attempt.attempt_number - d.attempts_before_retry, sends: attempt.submissions };
        let result = submit(ledger, &d, &tx, resume.is_some(), tries, &retry).await?;
        failpoint::hit("payout.after_submit").await;
        failpoint::hit("payout.before_record").await;
        store.finish_attempt(&d.tenant, id, &attempt.id, lease, &result, Timestamp::now(), &payout_event).await?;
        Ok(())
    }

    /// A new transaction for `d`, built once each earlier one is proven dead, on the last one's
    /// sequence where that is unused. `None` when there is nothing to build: an earlier one
    /// applied (the payout is recorded as sent), may still apply (the payout waits until it
    /// cannot), or the network cannot be asked (it waits a little).
    async fn new_transaction(
        &self,
        ledger: &Arc<dyn Ledger>,
        d: &PayoutDetail,
        lease: &str,
    ) -> StoreResult<Option<Transaction>> {
        let store = &self.services.store;
        let id = &d.payout.id;
        let unavailable = |reason: String| {
            tracing::warn!(payout = %id, %reason, "payout not submitted: the network cannot be asked");
            store.hold_payout(id, lease, Timestamp::now().plus_millis(UNAVAILABLE_RETRY_MS))
        };
        let mut previous: Option<(Transaction, Option<&str>)> = None;
        // An attempt without a hash built no transaction.
        for a in latest_per_transaction(&d.attempts).filter(|a| !a.tx_hash.is_empty()) {
            let tx = Transaction { hash: a.tx_hash.clone(), envelope: store.attempt_envelope(&a.id).await? };
            match ledger.fate(&tx, a.created_at).await {
                Ok(Fate::Dead) => previous = Some((tx, a.error_code.as_deref())),
                Ok(Fate::Applied { ledger_seq }) => {
                    tracing::warn!(payout = %id, attempt = %a.id, "an earlier transaction of this payout applied: recorded as sent");
                    let paid = AttemptResult::Sent { ledger_seq };
                    store.finish_attempt(&d.tenant, id, &a.id, lease, &paid, Timestamp::now(), &payout_event).await?;
                    return Ok(None);
                }
                Ok(Fate::Pending { until }) => {
                    tracing::info!(payout = %id, attempt = %a.id, "waiting until the last transaction can no longer apply");
                    store.hold_payout(id, lease, until).await?;
                    return Ok(None);
                }
                Err(LedgerFault::Store(e)) => return Err(e),
                Err(LedgerFault::Unavailable(reason) | LedgerFault::Invalid(reason)) => {
                    return unavailable(reason).await.map(|()| None);
                }
            }
        }
        let previous = previous.as_ref().map(|(tx, error_code)| Previous { tx, error_code: *error_code });
        match ledger.build(d, previous).await {
            Ok(tx) => Ok(Some(tx)),
            Err(LedgerFault::Store(e)) => Err(e),
            Err(LedgerFault::Unavailable(reason)) => unavailable(reason).await.map(|()| None),
            Err(LedgerFault::Invalid(reason)) => {
                // No retry can build it: the payout fails now, its reason on an attempt that
                // built no transaction.
                tracing::warn!(payout = %id, %reason, "payout failed: no transaction can be built for it");
                let now = Timestamp::now();
                if let Some(attempt) = store.start_attempt(id, lease, "", "", now).await? {
                    let failed = AttemptResult::Failed { code: NOT_BUILT.into(), message: reason };
                    store.finish_attempt(&d.tenant, id, &attempt.id, lease, &failed, now, &payout_event).await?;
                }
                Ok(None)
            }
        }
    }

    /// Runs `work` while renewing `lease` every quarter lease: a payout is never taken from an
    /// executor still working on it, however long the network takes to answer, and one whose
    /// executor died is free a lease later.
    async fn renewing<T>(&self, lease: &str, now: Timestamp, started: Instant, work: impl Future<Output = T>) -> T {
        let lease_ms = self.config.payout_lease_ms;
        let every = Duration::from_millis(u64::try_from(lease_ms / 4).unwrap_or(1).max(1));
        let mut work = std::pin::pin!(work);
        loop {
            tokio::select! {
                done = &mut work => return done,
                () = tokio::time::sleep(every) => {
                    let elapsed = i64::try_from(started.elapsed().as_millis()).unwrap_or(lease_ms);
                    let until = now.plus_millis(elapsed.saturating_add(lease_ms));
                    if let Err(e) = self.services.store.renew_lease(lease, until).await {
                        tracing::warn!(error = %error_chain(&e), "a payout lease could not be renewed");
                    }
                }
            }
        }
    }
}

/// Submits through the ledger. A ledger that cannot answer leaves the outcome unknown: the
/// attempt is retried with the same transaction, never failed.
async fn submit(
    ledger: &Arc<dyn Ledger>,
    d: &PayoutDetail,
    tx: &Transaction,
    resubmission: bool,
    tries: Tries,
    retry: &RetryPolicy<'_>,
) -> StoreResult<AttemptResult> {
    match ledger.submit(d, tx, resubmission, tries, retry).await {
        Ok(result) => Ok(result),
        Err(LedgerFault::Store(e)) => Err(e),
        Err(LedgerFault::Unavailable(reason) | LedgerFault::Invalid(reason)) => Ok(AttemptResult::Retry {
            code: OUTCOME_UNKNOWN.into(),
            message: format!("{reason}; the same transaction will be resubmitted"),
            retry_at: Timestamp::now().plus_millis(retry.delay_after(tries.sends) * 1000),
        }),
    }
}
