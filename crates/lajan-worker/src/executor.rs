//! The payout executor: claims approved payouts and pays each through its environment's
//! [`Ledger`], recording every attempt, so that two transactions for one payout are never both
//! able to apply. Each claim carries a lease token that every write to the payout presents, so
//! an executor that outlived its lease cannot move the payout; the decision to resume or build is
//! made from the attempts re-read under the payout's lock; a transaction's hash and envelope are
//! stored before it is submitted, an unsettled one is resubmitted unchanged (the ledger applies
//! it at most once), and a new one is built only once every earlier one is proven dead.

use crate::Workers;
use crate::channels::{Pick, Taken};
use crate::reach::Reachable;
use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use futures::{StreamExt, TryStreamExt};
use lajan_domain::payout::{Attempt, AttemptResult, PayoutDetail, latest_per_transaction};
use lajan_domain::retry::Doubling;
use lajan_domain::{Environment, Tenant, Timestamp};
use lajan_ledger::ledger::OUTCOME_UNKNOWN;
use lajan_ledger::{Fate, Ledger, LedgerFault, Previous, Submission, Transaction, Tries, retry_delay};
use lajan_services::error::error_chain;
use lajan_services::events::payout_event;
use lajan_services::failpoint;
use lajan_store::payouts::{Claimed, FirstAttempt, NewAttempt, Outcome};
use lajan_store::{Change, StoreError, StoreResult};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The error code of a payout no transaction can be built for (e.g. an amount the network
/// cannot carry): recorded on an attempt without a transaction.
const NOT_BUILT: &str = "tx_not_built";

/// How long a live payout waits when every source account is held by an attempt no executor is
/// working on (an unknown outcome until its resubmission, a dead process's until its lease ends).
const SOURCE_WAIT_MS: i64 = 1_000;

/// What one payout's turn came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// It was paid, resumed, settled, held or failed: the executor goes on to the next.
    Taken,
    /// Every source account is being built on by an executor: the payout is due again at once,
    /// behind those already due, and this executor's step ends (the executor building goes on
    /// paying; a step that went on would only claim and put back every other payout).
    SourcesBusy,
}

impl Workers {
    /// The executor's step: pays the due sandbox payouts claim after claim (each claim's payouts
    /// side by side, several claims being paid while earlier ones wait for their ledger to
    /// close), then the live ones, each claimed just before it starts, one per channel account
    /// at once (one in all without channels: they take the distribution account's sequence in
    /// turn, so a worker that dies holds one, not all), for at most half a lease. Returns how
    /// many payouts it claimed.
    pub async fn execute_payouts_once(&self, now: Timestamp) -> StoreResult<usize> {
        let started = Instant::now();
        let budget = Duration::from_millis(u64::try_from(self.config.payout_lease_ms / 2).unwrap_or(60_000));
        let sandbox_pay = |batch: Claimed, at: Timestamp| -> BoxFuture<'_, StoreResult<bool>> {
            Box::pin(async move {
                let lease = batch.lease.clone();
                self.renewing(&lease, at, Instant::now(), self.execute_sandbox_claim(&batch)).await?;
                Ok(true)
            })
        };
        let (size, width) = (self.config.sandbox_claim_size, self.config.sandbox_claims_in_flight);
        let sandbox = self.execute_claims(Environment::Test, now, started, budget, (size, width), &sandbox_pay).await?;
        let seen = std::sync::Mutex::new(HashSet::new());
        let live_pay = |claim: Claimed, at: Timestamp| -> BoxFuture<'_, StoreResult<bool>> {
            let seen = &seen;
            Box::pin(async move {
                let Some(d) = claim.payouts.first() else { return Ok(true) };
                if !seen.lock().unwrap_or_else(|e| e.into_inner()).insert(d.payout.id.clone()) {
                    // Tried in this step already and due again: the next step takes it.
                    self.services.store.hold_payout(&d.payout.id, &claim.lease, now).await?;
                    return Ok(false);
                }
                let turn =
                    self.renewing(&claim.lease, at, Instant::now(), self.execute_claimed(&claim.lease, d)).await?;
                self.roll_up(&claim.payouts).await?;
                Ok(turn == Turn::Taken)
            })
        };
        // Without a live ledger, each live payout is held (and waits) one at a time.
        let width = self.services.ledgers.live.as_ref().map_or(1, |live| live.parallelism());
        if let Some(live) = &self.services.ledgers.live {
            self.network.recover(live.as_ref(), self.services.store.as_ref(), Environment::Live, now).await?;
        }
        let live = self.execute_claims(Environment::Live, now, started, budget, (1, width), &live_pay).await?;
        Ok(sandbox + live)
    }

    /// Claims `env`'s due payouts `size` at a time and pays each claim with `pay`, up to `width`
    /// claims at once, until a claim comes back short, `pay` says to stop (it paid nothing: that
    /// claim is not counted), or the budget is spent. Returns how many payouts it claimed.
    ///
    /// The next claim and the claims being paid are polled together, never one while the other
    /// waits: on SQLite both need the one writer, which a claim being paid may hold mid-transaction.
    async fn execute_claims<'a>(
        &'a self,
        env: Environment,
        now: Timestamp,
        started: Instant,
        budget: Duration,
        (size, width): (usize, usize),
        pay: &'a (dyn Fn(Claimed, Timestamp) -> BoxFuture<'a, StoreResult<bool>> + Send + Sync),
    ) -> StoreResult<usize> {
        enum Step {
            Claimed(Timestamp, StoreResult<Claimed>),
            Paid(usize, StoreResult<bool>),
        }
        let store = &self.services.store;
        let (size, width) = (size.max(1), width.max(1));
        let limit = i64::try_from(size).unwrap_or(i64::MAX);
        let lease_ms = self.config.payout_lease_ms;
        let claim = |at: Timestamp| -> BoxFuture<'a, Step> {
            Box::pin(async move { Step::Claimed(at, store.claim_payouts(at, lease_ms, limit, env).await) })
        };
        let mut steps: FuturesUnordered<BoxFuture<'a, Step>> = FuturesUnordered::new();
        steps.push(claim(now));
        // `more`: the last claim came back full (so more are probably due) and nothing said stop.
        let (mut claimed, mut paying, mut claiming, mut more, mut failed) = (0, 0, true, false, None);
        while let Some(step) = steps.next().await {
            match step {
                Step::Claimed(at, Ok(batch)) => {
                    claiming = false;
                    more = batch.payouts.len() == size;
                    if !batch.payouts.is_empty() {
                        claimed += batch.payouts.len();
                        paying += 1;
                        let n = batch.payouts.len();
                        steps.push(Box::pin(async move { Step::Paid(n, pay(batch, at).await) }));
                    }
                }
                Step::Claimed(_, Err(e)) => {
                    claiming = false;
                    failed.get_or_insert(e);
                }
                Step::Paid(n, result) => {
                    paying -= 1;
                    match result {
                        Ok(true) => {}
                        Ok(false) => {
                            more = false;
                            claimed -= n;
                        }
                        Err(e) => {
                            failed.get_or_insert(e);
                        }
                    }
                }
            }
            if more && !claiming && failed.is_none() && paying < width && started.elapsed() < budget {
                // Time moves on within the step (an injected `now` moves with it).
                claiming = true;
                steps.push(claim(now.plus_millis(i64::try_from(started.elapsed().as_millis()).unwrap_or(0))));
            }
        }
        failed.map_or(Ok(claimed), Err)
    }

    /// Pays one claim of sandbox payouts: first transactions together, a payout with attempts
    /// (resumed after a crash, retried) on its own from them; then rolls up their disbursements.
    async fn execute_sandbox_claim(&self, claim: &Claimed) -> StoreResult<()> {
        let lease = &claim.lease;
        let (first, resumed): (Vec<&PayoutDetail>, Vec<&PayoutDetail>) =
            claim.payouts.iter().partition(|d| d.attempts.is_empty());
        let width = self.services.ledgers.sandbox.parallelism().max(1);
        let steps: Vec<_> = resumed.into_iter().map(|d| Box::pin(self.execute_claimed(lease, d))).collect();
        let one_by_one = futures::stream::iter(steps).buffer_unordered(width).try_collect::<Vec<Turn>>();
        let (together, one_by_one) = futures::join!(self.execute_first_transactions(lease, &first), one_by_one);
        together?;
        one_by_one?;
        self.roll_up(&claim.payouts).await
    }

    /// The first transaction of each of `payouts` (held by `lease`), built, stored, submitted and
    /// recorded together: one store transaction for the attempts, one submission, one for the
    /// outcomes and their events. The exactly-once rules are those of [`Workers::execute_claimed`]:
    /// stored before submitted, and a crash in between leaves attempts it resumes.
    async fn execute_first_transactions(&self, lease: &str, payouts: &[&PayoutDetail]) -> StoreResult<()> {
        let store = &self.services.store;
        let ledger = &self.services.ledgers.sandbox;
        let mut built = Vec::with_capacity(payouts.len());
        for d in payouts {
            // One held before goes on its own, whose attempt clears the hold; a destination that
            // cannot take the payment is held (or failed) here, with nothing built.
            if d.hold.is_some() {
                self.execute_claimed(lease, d).await?;
                continue;
            }
            match self.check_reach(ledger.as_ref(), d, lease).await? {
                Reachable::Yes => {}
                Reachable::No => continue,
                Reachable::Unknown(_) => {
                    self.execute_claimed(lease, d).await?;
                    continue;
                }
            }
            match ledger.build(d, None, None).await {
                Ok(tx) => built.push((*d, tx)),
                // Nothing was signed: on its own, it is failed or held with its reason.
                Err(_) => {
                    self.execute_claimed(lease, d).await?;
                }
            }
        }
        let first: Vec<FirstAttempt> = built
            .iter()
            .map(|(d, tx)| FirstAttempt {
                payout_id: d.payout.id.clone(),
                tx_hash: tx.hash.clone(),
                envelope: tx.envelope.clone(),
            })
            .collect();
        let mut started: HashMap<String, Attempt> =
            store.start_first_attempts(lease, &first, Timestamp::now()).await?.into_iter().collect();
        let stored: Vec<(&PayoutDetail, Transaction, Attempt)> = built
            .into_iter()
            .filter_map(|(d, tx)| started.remove(&d.payout.id).map(|attempt| (d, tx, attempt)))
            .collect();
        if stored.is_empty() {
            return Ok(());
        }
        failpoint::hit("payout.after_store").await;
        let submissions: Vec<Submission<'_>> = stored
            .iter()
            .map(|(d, tx, attempt)| Submission {
                payout: d,
                tx,
                resubmission: false,
                tries: Tries { built: attempt.attempt_number - d.attempts_before_retry, sends: attempt.submissions },
            })
            .collect();
        let retry = self.config.payout_retry;
        let results = match ledger.submit_many(&submissions, &retry).await {
            Ok(results) => results,
            Err(LedgerFault::Store(e)) => return Err(e),
            Err(LedgerFault::Unavailable(reason) | LedgerFault::Invalid(reason)) => {
                let unknown = unknown_outcome(&reason, &retry, 1);
                vec![unknown; stored.len()]
            }
        };
        failpoint::hit("payout.after_submit").await;
        failpoint::hit("payout.before_record").await;
        let outcomes: Vec<Outcome> = stored
            .iter()
            .zip(results)
            .map(|((d, _, attempt), result)| Outcome {
                payout_id: d.payout.id.clone(),
                attempt_id: attempt.id.clone(),
                result,
            })
            .collect();
        let now = Timestamp::now();
        let not_held = store.finish_attempts(lease, &outcomes, now, &payout_event).await?;
        for ((d, _, _), o) in stored.iter().zip(&outcomes) {
            self.services.metrics.ledger_submission(d.tenant.env, &o.result, d.approved_at);
        }
        // A claim another executor took meanwhile: each outcome is still a fact to record.
        for o in outcomes.iter().filter(|o| not_held.contains(&o.payout_id)) {
            if let Some((d, _, _)) = stored.iter().find(|(d, _, _)| d.payout.id == o.payout_id) {
                store
                    .finish_attempt(
                        &o.payout_id,
                        &o.attempt_id,
                        lease,
                        &o.result,
                        Change::unkeyed(&d.tenant, now, &payout_event),
                    )
                    .await?;
            }
        }
        Ok(())
    }

    /// The disbursements whose payouts moved take the status those now add up to.
    async fn roll_up(&self, moved: &[PayoutDetail]) -> StoreResult<()> {
        let mut batches: Vec<(Tenant, String)> = Vec::new();
        for d in moved {
            if let Some(id) = &d.payout.disbursement_id
                && !batches.iter().any(|(_, seen)| seen == id)
            {
                batches.push((d.tenant.clone(), id.clone()));
            }
        }
        if batches.is_empty() {
            return Ok(());
        }
        self.services.roll_up_disbursements(Some(batches)).await.map(drop)
    }

    /// Pays one payout while `lease` holds it: resumes its unsettled transaction, or builds a new
    /// one once every earlier one is proven dead. Does nothing once the lease is lost.
    pub async fn execute_claimed(&self, lease: &str, claimed: &PayoutDetail) -> StoreResult<Turn> {
        let store = &self.services.store;
        let id = &claimed.payout.id;
        let Some(ledger) = self.services.ledgers.of(&claimed.tenant) else {
            // Before any attempt is recorded, so waiting leaves no trace.
            tracing::warn!(payout = %id, "live payouts wait until a live ledger is configured (LAJAN_LIVE_HORIZON_URL)");
            store.hold_payout(id, lease, Timestamp::now().plus_millis(300_000)).await?;
            return Ok(Turn::Taken);
        };
        // Another executor may have added or settled an attempt since the claim was read.
        let Some(d) = store.held_payout(&claimed.tenant, id, lease).await? else {
            tracing::info!(payout = %id, "the payout's lease was lost before it started; its new holder pays it");
            return Ok(Turn::Taken);
        };
        // An unsettled transaction is sent again within its attempt; otherwise a new one.
        let resume = d.attempts.last().filter(|a| a.unsettled());
        // A channel taken for a new transaction stays taken in this process until its outcome
        // is recorded: a pick that read the held channels before this attempt was stored must
        // not take it once the attempt is stored.
        let (tx, attempt, channel) = match resume {
            Some(last) => {
                let tx = Transaction { hash: last.tx_hash.clone(), envelope: store.attempt_envelope(&last.id).await? };
                (tx, store.resend_attempt(id, lease, &last.id).await?, None)
            }
            None => {
                let (tx, channel) = match self.new_transaction(ledger, &d, lease).await? {
                    Built::Transaction(tx, channel) => (tx, channel),
                    Built::Nothing => return Ok(Turn::Taken),
                    Built::SourcesBusy => return Ok(Turn::SourcesBusy),
                };
                let account = channel.as_ref().map(|c| c.account.as_str());
                match store
                    .start_attempt(
                        id,
                        lease,
                        NewAttempt { tx_hash: &tx.hash, envelope: &tx.envelope, channel_account: account },
                        Timestamp::now(),
                    )
                    .await
                {
                    Err(StoreError::Conflict(_)) if account.is_some() => {
                        // Another process's attempt took the channel first: nothing was stored.
                        store.hold_payout(id, lease, Timestamp::now()).await?;
                        return Ok(Turn::SourcesBusy);
                    }
                    attempt => (tx, attempt?, channel),
                }
            }
        };
        let Some(attempt) = attempt else {
            tracing::info!(payout = %id, "the payout's lease was lost before submitting; nothing was sent");
            return Ok(Turn::Taken);
        };
        failpoint::hit("payout.after_store").await;
        let retry = self.config.payout_retry;
        let tries = Tries { built: attempt.attempt_number - d.attempts_before_retry, sends: attempt.submissions };
        let result = submit(ledger, &d, &tx, resume.is_some(), tries, &retry).await?;
        failpoint::hit("payout.after_submit").await;
        failpoint::hit("payout.before_record").await;
        if result.error().is_some_and(|(code, _)| code == OUTCOME_UNKNOWN) {
            self.network.suspect();
        }
        store
            .finish_attempt(
                id,
                &attempt.id,
                lease,
                &result,
                Change::unkeyed(&d.tenant, Timestamp::now(), &payout_event),
            )
            .await?;
        if let Some(channel) = channel {
            channel.release().await;
        }
        self.services.metrics.ledger_submission(d.tenant.env, &result, d.approved_at);
        Ok(Turn::Taken)
    }

    /// A new transaction for `d`, built once each earlier one is proven dead, on the last one's
    /// sequence where that is unused, with the source account it takes (if the ledger has
    /// several or is shared across processes). Nothing when there is nothing to build: an
    /// earlier one applied (the payout is recorded as sent), may still apply (the payout waits
    /// until it cannot) or the network cannot be asked (it waits a little); or every source is
    /// held by another executor (the payout is due again at once).
    async fn new_transaction(&self, ledger: &Arc<dyn Ledger>, d: &PayoutDetail, lease: &str) -> StoreResult<Built<'_>> {
        let store = &self.services.store;
        let id = &d.payout.id;
        let unavailable = |reason: String| {
            tracing::warn!(payout = %id, %reason, "payout not submitted: the network cannot be asked");
            let wait = self.network.fault(&self.config.payout_retry);
            store.hold_payout(id, lease, Timestamp::now().plus_millis(wait))
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
                    store
                        .finish_attempt(
                            id,
                            &a.id,
                            lease,
                            &paid,
                            Change::unkeyed(&d.tenant, Timestamp::now(), &payout_event),
                        )
                        .await?;
                    return Ok(Built::Nothing);
                }
                Ok(Fate::Pending { until }) => {
                    tracing::info!(payout = %id, attempt = %a.id, "waiting until the last transaction can no longer apply");
                    store.hold_payout(id, lease, until).await?;
                    return Ok(Built::Nothing);
                }
                Err(LedgerFault::Store(e)) => return Err(e),
                Err(LedgerFault::Unavailable(reason) | LedgerFault::Invalid(reason)) => {
                    return unavailable(reason).await.map(|()| Built::Nothing);
                }
            }
        }
        match self.check_reach(ledger.as_ref(), d, lease).await? {
            Reachable::Yes => {}
            Reachable::No => return Ok(Built::Nothing),
            Reachable::Unknown(reason) => return unavailable(reason).await.map(|()| Built::Nothing),
        }
        let previous = previous.as_ref().map(|(tx, error_code)| Previous { tx, error_code: *error_code });
        let preferred = d.attempts.iter().rev().find_map(|a| a.channel_account.as_deref());
        let now = Timestamp::now();
        let reserved = (now, now.plus_millis(self.config.payout_lease_ms));
        let channel = match self.channels.pick(store, ledger.as_ref(), preferred, reserved).await? {
            Pick::NotNeeded => None,
            Pick::Channel(taken) => Some(taken),
            Pick::Held => {
                tracing::debug!(payout = %id, "every source account is held by an attempt in wait: the payout waits");
                store.hold_payout(id, lease, Timestamp::now().plus_millis(SOURCE_WAIT_MS)).await?;
                return Ok(Built::Nothing);
            }
            Pick::Busy => {
                // Due again at once, behind those already due: the executor building on the
                // source takes it next, and this one ends its step rather than claim and put
                // back every other payout.
                tracing::debug!(payout = %id, "every source account is being built on: the payout is due again after the others");
                store.hold_payout(id, lease, Timestamp::now()).await?;
                return Ok(Built::SourcesBusy);
            }
        };
        match ledger.build(d, previous, channel.as_ref().map(|c| c.account.as_str())).await {
            Ok(tx) => Ok(Built::Transaction(tx, channel)),
            Err(LedgerFault::Store(e)) => Err(e),
            Err(LedgerFault::Unavailable(reason)) => unavailable(reason).await.map(|()| Built::Nothing),
            Err(LedgerFault::Invalid(reason)) => {
                // No retry can build it: the payout fails now, its reason on an attempt that
                // built no transaction.
                tracing::warn!(payout = %id, %reason, "payout failed: no transaction can be built for it");
                let now = Timestamp::now();
                if let Some(attempt) = store.start_attempt(id, lease, NewAttempt::NOTHING_SENT, now).await? {
                    let failed = AttemptResult::Failed { code: NOT_BUILT.into(), message: reason };
                    store
                        .finish_attempt(id, &attempt.id, lease, &failed, Change::unkeyed(&d.tenant, now, &payout_event))
                        .await?;
                }
                Ok(Built::Nothing)
            }
        }
    }

    /// Runs `work` while renewing `lease` every quarter lease: a payout is never taken from an
    /// executor still working on it, however long the network takes to answer, and one whose
    /// executor died is free a lease later. The renewal is polled beside the work, never instead
    /// of it: on SQLite both need the one writer, and a renewal awaited while the work held the
    /// writer mid-transaction would wait for it forever (until the pool's acquire timeout).
    async fn renewing<T>(&self, lease: &str, now: Timestamp, started: Instant, work: impl Future<Output = T>) -> T {
        let lease_ms = self.config.payout_lease_ms;
        let every = Duration::from_millis(u64::try_from(lease_ms / 4).unwrap_or(1).max(1));
        let renew = async {
            loop {
                tokio::time::sleep(every).await;
                let elapsed = i64::try_from(started.elapsed().as_millis()).unwrap_or(lease_ms);
                let until = now.plus_millis(elapsed.saturating_add(lease_ms));
                if let Err(e) = self.services.store.renew_lease(lease, until).await {
                    tracing::warn!(error = %error_chain(&e), "a payout lease could not be renewed");
                }
            }
        };
        tokio::select! {
            done = work => done,
            never = renew => never,
        }
    }
}

/// What [`Workers::new_transaction`] came to.
enum Built<'a> {
    /// Built and signed, on the source it reserved (none: the ledger orders its own).
    Transaction(Transaction, Option<Taken<'a>>),
    /// Nothing to build now; the payout was settled or held.
    Nothing,
    /// Every source is held by another executor; the payout is due again at once.
    SourcesBusy,
}

/// Submits through the ledger. A ledger that cannot answer leaves the outcome unknown: the
/// attempt is retried with the same transaction, never failed.
async fn submit(
    ledger: &Arc<dyn Ledger>,
    d: &PayoutDetail,
    tx: &Transaction,
    resubmission: bool,
    tries: Tries,
    retry: &Doubling,
) -> StoreResult<AttemptResult> {
    match ledger.submit(d, tx, resubmission, tries, retry).await {
        Ok(result) => Ok(result),
        Err(LedgerFault::Store(e)) => Err(e),
        Err(LedgerFault::Unavailable(reason) | LedgerFault::Invalid(reason)) => {
            Ok(unknown_outcome(&reason, retry, tries.sends))
        }
    }
}

/// The answer of a ledger that could not say what happened to a submission: the same
/// transaction is resubmitted after the wait for its `sends`th submission.
fn unknown_outcome(reason: &str, retry: &Doubling, sends: i64) -> AttemptResult {
    AttemptResult::Retry {
        code: OUTCOME_UNKNOWN.into(),
        message: format!("{reason}; the same transaction will be resubmitted"),
        retry_at: Timestamp::now().plus_millis(retry_delay(retry, sends)),
    }
}
