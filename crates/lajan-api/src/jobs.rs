//! Background work, run in the serving process: the payment watcher (matches incoming ledger
//! payments to payment intents), the overdue job, and the notification sender. Each has a
//! `*_once` step that tests call directly; `spawn` runs them on intervals until shutdown.
//!
//! They live beside the API because the events they write carry the API's view of the
//! resource, which is defined here.

use crate::config::AppConfig;
use crate::error::error_chain;
use crate::failpoint;
use crate::invoicing::{invoice_event, link_event};
use crate::ledger::{self, RetryPolicy, live::LiveLedger};
use futures::{StreamExt, TryStreamExt};
use lajan_domain::Timestamp;
use lajan_domain::id::IdKind;
use lajan_domain::invoice::InvoiceAction;
use lajan_domain::payment::IncomingPayment;
use lajan_ledger::horizon::PaymentRecord;
use lajan_store::invoices::{Channel, DeliveryOutcome, Message, PaidEvents, PaymentApplied};
use lajan_store::payouts::PayoutDetail;
use lajan_store::{Store, StoreError, StoreResult};
use lajan_worker::notify::{Email, EmailSender, NotifyError, Sms, SmsSender};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// Delays before the 2nd, 3rd, ... delivery attempts; after the last, a message fails.
const RETRY_DELAYS_SECS: [i64; 5] = [30, 120, 600, 3600, 6 * 3600];
/// How long a claimed message is reserved for the worker that claimed it.
const DELIVERY_LEASE_MS: i64 = 120_000;
const BATCH: i64 = 100;
/// Payouts claimed per executor step. Sandbox ones are all in flight at once (they share the
/// open ledger and wait for its close together), so this bounds sandbox payouts per ledger.
const PAYOUT_BATCH: i64 = 500;
const PAYOUT_BATCH_USIZE: usize = PAYOUT_BATCH as usize;
/// Payments read from Horizon per request (its maximum).
const LIVE_PAGE: u32 = 200;

/// Delays before resubmitting a payout after a transient failure (timeout, network).
const PAYOUT_RETRY_SECS: [i64; 5] = [5, 30, 120, 600, 3600];

/// How often each job runs when nothing wakes it.
#[derive(Debug, Clone, Copy)]
pub struct JobIntervals {
    pub payments: Duration,
    pub overdue: Duration,
    pub notifications: Duration,
    pub payouts: Duration,
    /// How often Horizon is asked for new payments to the live receiving account.
    pub live_payments: Duration,
}

impl Default for JobIntervals {
    fn default() -> Self {
        JobIntervals {
            payments: Duration::from_secs(1),
            overdue: Duration::from_secs(60),
            notifications: Duration::from_secs(5),
            payouts: Duration::from_secs(1),
            live_payments: Duration::from_secs(5),
        }
    }
}

pub struct Jobs {
    store: Arc<dyn Store>,
    public_url: String,
    email: Arc<dyn EmailSender>,
    sms: Arc<dyn SmsSender>,
    payout_max_attempts: i64,
    payout_lease_ms: i64,
    sandbox_close_ms: i64,
    live: Option<LiveLedger>,
    live_issuers: BTreeMap<String, String>,
    wake_notifications: Notify,
    wake_payouts: Notify,
}

impl Jobs {
    /// Fails when the live ledger's configuration is unusable (e.g. a malformed secret).
    pub fn new(
        store: Arc<dyn Store>,
        config: &AppConfig,
        email: Arc<dyn EmailSender>,
        sms: Arc<dyn SmsSender>,
    ) -> anyhow::Result<Self> {
        let live = config.live_ledger.as_ref().map(LiveLedger::new).transpose()?;
        Ok(Jobs {
            store,
            public_url: config.public_url.clone(),
            email,
            sms,
            payout_max_attempts: config.payout_max_attempts,
            payout_lease_ms: config.payout_lease_ms,
            sandbox_close_ms: config.sandbox_ledger_close_ms,
            live,
            live_issuers: config.live_asset_issuers.clone(),
            wake_notifications: Notify::new(),
            wake_payouts: Notify::new(),
        })
    }

    /// The live network, when configured.
    pub fn live_ledger(&self) -> Option<&LiveLedger> {
        self.live.as_ref()
    }

    /// Asks the payout executor to look for work now (after an approval).
    pub fn wake_payouts(&self) {
        self.wake_payouts.notify_one();
    }

    /// The payout executor's step: claims approved payouts, submits each through its ledger
    /// (the sandbox network, or Stellar through Horizon) and records every attempt. The
    /// transaction's hash and envelope are stored before it is submitted; a payout whose last
    /// attempt never finished (a crash) or ended with an unknown outcome is resubmitted with the
    /// identical envelope, which the ledger applies at most once.
    ///
    /// Sandbox payouts are submitted side by side (they share a ledger and wait for its close
    /// together); live ones one at a time, since each takes the distribution account's next
    /// sequence number.
    pub async fn execute_payouts_once(&self, now: Timestamp) -> StoreResult<usize> {
        let claimed = self.store.claim_payouts(now, self.payout_lease_ms, PAYOUT_BATCH).await?;
        let (live, sandbox): (Vec<_>, Vec<_>) = claimed.iter().partition(|d| d.tenant.env.is_live());
        let steps: Vec<_> = sandbox.into_iter().map(|d| Box::pin(self.execute_payout(d))).collect();
        futures::stream::iter(steps).buffer_unordered(PAYOUT_BATCH_USIZE).try_collect::<Vec<()>>().await?;
        let started = std::time::Instant::now();
        let budget = Duration::from_millis(u64::try_from(self.payout_lease_ms / 2).unwrap_or(60_000));
        for d in live {
            if started.elapsed() > budget {
                // Hand the rest back before the lease runs out, rather than race another executor.
                self.store.hold_payout(&d.payout.id, Timestamp::now()).await?;
            } else {
                self.execute_payout(d).await?;
            }
        }
        Ok(claimed.len())
    }

    async fn execute_payout(&self, d: &PayoutDetail) -> StoreResult<()> {
        let retry = RetryPolicy { max_attempts: self.payout_max_attempts, delays_secs: &PAYOUT_RETRY_SECS };
        let resume = d
            .attempts
            .last()
            .filter(|a| a.ledger_seq.is_none() && ledger::resubmits_same_transaction(a.error_code.as_deref()));
        // Which ledger: `Some` for live payouts, which wait while no live ledger is configured
        // (before any attempt is recorded, so waiting leaves no trace).
        let live = match (d.tenant.env.is_live(), &self.live) {
            (false, _) => None,
            (true, Some(live)) => Some(live),
            (true, None) => {
                tracing::warn!(payout = %d.payout.id, "live payouts wait until a live ledger is configured (LAJAN_LIVE_HORIZON_URL)");
                return self.store.hold_payout(&d.payout.id, Timestamp::now().plus_millis(300_000)).await;
            }
        };
        let (hash, envelope) = match (resume, live) {
            (Some(last), _) => (last.tx_hash.clone(), self.store.attempt_envelope(&last.id).await?),
            (None, None) => ledger::sandbox::envelope(d),
            (None, Some(live)) => match live.build(d).await {
                Ok(built) => built,
                Err(reason) => {
                    // Nothing was signed or sent; try again later.
                    tracing::warn!(payout = %d.payout.id, %reason, "live payout not submitted");
                    return self.store.hold_payout(&d.payout.id, Timestamp::now().plus_millis(30_000)).await;
                }
            },
        };
        let attempt = self.store.start_attempt(&d.payout.id, &hash, &envelope, Timestamp::now()).await?;
        failpoint::hit("payout.after_store").await;
        let result = match live {
            Some(live) => live.submit(&hash, &envelope, resume.is_some(), attempt.attempt_number, &retry).await,
            None => {
                let close_ms = self.sandbox_close_ms;
                ledger::sandbox::submit(self.store.as_ref(), d, &hash, attempt.attempt_number, &retry, close_ms).await?
            }
        };
        failpoint::hit("payout.after_submit").await;
        let event = |p: &_| crate::routes::payouts::payout_event(p);
        failpoint::hit("payout.before_record").await;
        self.store.finish_attempt(&d.tenant, &d.payout.id, &attempt.id, &result, Timestamp::now(), &event).await?;
        Ok(())
    }

    /// Asks the notification sender to look for work now (after a send queued messages).
    pub fn wake_notifications(&self) {
        self.wake_notifications.notify_one();
    }

    /// The payment watcher's step: applies every payment recorded on a ledger and not yet
    /// processed. Returns how many it processed.
    pub async fn apply_payments_once(&self) -> StoreResult<usize> {
        let public_url = self.public_url.as_str();
        let on_invoice = |d: &_| invoice_event("invoice.paid", d, public_url);
        let on_link = |l: &_| link_event("payment_link.paid", l, public_url);
        let events = PaidEvents { invoice: &on_invoice, link: &on_link };
        let mut processed = 0;
        loop {
            let pending = self.store.pending_incoming_payments(BATCH).await?;
            if pending.is_empty() {
                return Ok(processed);
            }
            for payment in &pending {
                let outcome = self.store.apply_incoming_payment(&payment.id, Timestamp::now(), &events).await?;
                match outcome {
                    PaymentApplied::Unmatched => {
                        tracing::warn!(payment = %payment.id, tx_hash = %payment.tx_hash, "incoming payment matches no payment intent");
                    }
                    PaymentApplied::TooLarge { intent_id } => {
                        tracing::error!(payment = %payment.id, tx_hash = %payment.tx_hash, intent = %intent_id, "incoming payment would take the intent's received total past the largest amount: kept unmatched for reconciliation");
                    }
                    PaymentApplied::Matched { .. } | PaymentApplied::AlreadyProcessed => {}
                }
                processed += 1;
            }
        }
    }

    /// The live payment watcher's step: reads the payments to the live receiving account that
    /// Horizon lists after the saved cursor, records each that pays a live payment intent (by its
    /// text memo, in the intent's currency from its configured issuer), applies them through the
    /// same matcher as sandbox payments, and saves the cursor. Recording is idempotent by
    /// transaction hash, so a crash before the cursor is saved records nothing twice. Returns how
    /// many payments it recorded; Horizon being unreachable is logged and retried next time.
    pub async fn watch_live_payments_once(&self) -> StoreResult<usize> {
        let Some(live) = &self.live else { return Ok(0) };
        let account = live.receiving_account();
        let name = format!("live:payments:{account}");
        let mut cursor = self.store.ledger_cursor(&name).await?;
        let mut recorded = 0;
        loop {
            let page = match live.horizon.payments(account, cursor.as_deref(), LIVE_PAGE).await {
                Ok(page) => page,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read live payments from Horizon");
                    break;
                }
            };
            for record in &page {
                if let Some(payment) = self.live_incoming(account, record).await?
                    && self.store.record_incoming_payment(&payment).await?
                {
                    recorded += 1;
                }
            }
            let Some(last) = page.last() else { break };
            self.store.save_ledger_cursor(&name, &last.paging_token, Timestamp::now()).await?;
            cursor = Some(last.paging_token.clone());
            if page.len() < LIVE_PAGE as usize {
                break;
            }
        }
        if recorded > 0 {
            self.apply_payments_once().await?;
        }
        Ok(recorded)
    }

    /// The incoming payment a Horizon record stands for, when it pays one of our live intents.
    async fn live_incoming(&self, account: &str, r: &PaymentRecord) -> StoreResult<Option<IncomingPayment>> {
        const RECEIVED: [&str; 3] = ["payment", "path_payment_strict_receive", "path_payment_strict_send"];
        if !RECEIVED.contains(&r.kind.as_str()) || !r.transaction_successful || r.to != account {
            return Ok(None);
        }
        let text_memo = r.transaction.as_ref().filter(|t| t.memo_type == "text");
        let Some((ledger_seq, memo)) = text_memo.and_then(|t| t.memo.clone().map(|m| (t.ledger, m))) else {
            tracing::info!(tx_hash = %r.transaction_hash, "live payment without a text memo: not matched");
            return Ok(None);
        };
        let asset_code = match (r.asset_type.as_str(), &r.asset_code) {
            ("native", _) => "XLM".to_owned(),
            (_, Some(code)) => code.clone(),
            _ => return Ok(None),
        };
        // Anyone can issue a token called USDC; only the configured issuer's counts.
        if asset_code != "XLM" && self.live_issuers.get(&asset_code) != r.asset_issuer.as_ref() {
            tracing::warn!(tx_hash = %r.transaction_hash, %asset_code, issuer = ?r.asset_issuer, "live payment in an asset from an unconfigured issuer: not matched");
            return Ok(None);
        }
        // Seven decimal places on the network, cents here: a fraction of a cent is not credited.
        let Ok(stroops) = lajan_domain::money::parse_scaled(&r.amount, 7) else {
            tracing::warn!(tx_hash = %r.transaction_hash, amount = %r.amount, "live payment amount does not parse");
            return Ok(None);
        };
        let Some(tenant) = self.store.tenant_of_reference(&memo).await?.filter(|t| t.env.is_live()) else {
            tracing::info!(tx_hash = %r.transaction_hash, %memo, "live payment whose memo is no live payment intent's");
            return Ok(None);
        };
        Ok(Some(IncomingPayment {
            id: IdKind::LedgerPayment.generate(),
            org_id: tenant.org_id,
            env: tenant.env,
            ledger_seq,
            tx_hash: r.transaction_hash.clone(),
            source_account: r.from.clone(),
            destination_account: r.to.clone(),
            asset_code,
            amount: stroops / 100_000,
            memo: Some(memo),
            created_at: Timestamp::now(),
            payment_intent_id: None,
            processed_at: None,
        }))
    }

    /// The overdue job's step: sent and viewed invoices whose due date has passed in their
    /// organization's timezone become overdue. Safe to run in several processes at once: the
    /// transition re-checks the status under a row lock, so each invoice moves (and emits) once.
    pub async fn mark_overdue_once(&self, now: Timestamp) -> StoreResult<usize> {
        // A date that has passed anywhere on Earth is at most today's UTC date.
        let today_utc = jiff::Timestamp::from_millisecond(now.as_millis())
            .map(|t| t.to_zoned(jiff::tz::TimeZone::UTC).date().to_string())
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let public_url = self.public_url.as_str();
        let event = |d: &_| invoice_event("invoice.overdue", d, public_url);
        let mut moved = 0;
        for (tenant, id, due, tz) in self.store.overdue_candidates(&today_utc, 1000).await? {
            if !due.has_passed(now, &tz) {
                continue;
            }
            match self.store.invoice_action(&tenant, &id, InvoiceAction::MarkOverdue, now, None, &event, None).await {
                Ok((_, true)) => moved += 1,
                Ok((_, false)) | Err(StoreError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(moved)
    }

    /// The notification sender's step: delivers due live messages, recording each outcome.
    pub async fn deliver_messages_once(&self, now: Timestamp) -> StoreResult<usize> {
        let claimed = self.store.claim_messages(now, DELIVERY_LEASE_MS, BATCH).await?;
        for message in &claimed {
            let outcome = self.deliver(message).await;
            if let DeliveryOutcome::Failed { error } | DeliveryOutcome::Retry { error, .. } = &outcome {
                tracing::warn!(message = %message.id, channel = message.channel.as_str(), attempt = message.attempts, %error, "delivery failed");
            }
            self.store.finish_message(&message.id, Timestamp::now(), &outcome).await?;
        }
        Ok(claimed.len())
    }

    async fn deliver(&self, m: &Message) -> DeliveryOutcome {
        let result = match m.channel {
            Channel::Email => {
                let email = Email {
                    to: m.recipient.clone(),
                    subject: m.subject.clone().unwrap_or_default(),
                    text: m.body_text.clone(),
                    html: m.body_html.clone().unwrap_or_default(),
                };
                self.email.send(&email).await
            }
            Channel::Sms => self.sms.send(&Sms { to: m.recipient.clone(), body: m.body_text.clone() }).await,
        };
        match result {
            Ok(delivery) => DeliveryOutcome::Sent { provider_id: Some(delivery.provider_id().to_owned()) },
            Err(NotifyError::Transient(error)) => {
                let done = usize::try_from(m.attempts).unwrap_or(usize::MAX);
                match RETRY_DELAYS_SECS.get(done.saturating_sub(1)) {
                    Some(delay) => {
                        DeliveryOutcome::Retry { error, retry_at: Timestamp::now().plus_millis(delay * 1000) }
                    }
                    None => DeliveryOutcome::Failed { error: format!("gave up after {done} attempts: {error}") },
                }
            }
            Err(e) => DeliveryOutcome::Failed { error: e.to_string() },
        }
    }

    /// Runs every job on its interval until `stop` flips.
    pub fn spawn(
        self: Arc<Self>,
        intervals: JobIntervals,
        stop: watch::Receiver<bool>,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        let payments = {
            let jobs = self.clone();
            every(intervals.payments, stop.clone(), None, move || {
                let jobs = jobs.clone();
                async move { jobs.apply_payments_once().await.map(|_| ()) }
            })
        };
        let overdue = {
            let jobs = self.clone();
            every(intervals.overdue, stop.clone(), None, move || {
                let jobs = jobs.clone();
                async move { jobs.mark_overdue_once(Timestamp::now()).await.map(|_| ()) }
            })
        };
        let notifications = {
            let jobs = self.clone();
            let woken = self.clone();
            every(intervals.notifications, stop.clone(), Some((woken, Wake::Notifications)), move || {
                let jobs = jobs.clone();
                async move { jobs.deliver_messages_once(Timestamp::now()).await.map(|_| ()) }
            })
        };
        let payouts = {
            let jobs = self.clone();
            every(intervals.payouts, stop.clone(), Some((self.clone(), Wake::Payouts)), move || {
                let jobs = jobs.clone();
                async move {
                    let claimed = jobs.execute_payouts_once(Timestamp::now()).await?;
                    if claimed == PAYOUT_BATCH_USIZE {
                        // A full batch: there is probably more, so go again at once.
                        jobs.wake_payouts();
                    }
                    Ok(())
                }
            })
        };
        let mut handles =
            vec![tokio::spawn(payments), tokio::spawn(overdue), tokio::spawn(notifications), tokio::spawn(payouts)];
        if self.live.is_some() {
            let jobs = self.clone();
            handles.push(tokio::spawn(every(intervals.live_payments, stop, None, move || {
                let jobs = jobs.clone();
                async move { jobs.watch_live_payments_once().await.map(|_| ()) }
            })));
        }
        handles
    }
}

/// Which notification wakes a job early.
#[derive(Clone, Copy)]
enum Wake {
    Notifications,
    Payouts,
}

/// Runs `step` every `interval` (or sooner when `wake` is notified) until `stop` flips.
async fn every<F, Fut>(interval: Duration, mut stop: watch::Receiver<bool>, wake: Option<(Arc<Jobs>, Wake)>, step: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = StoreResult<()>>,
{
    loop {
        if let Err(e) = step().await {
            tracing::warn!(error = %error_chain(&e), "background job step failed");
        }
        let woken = async {
            match &wake {
                Some((jobs, Wake::Notifications)) => jobs.wake_notifications.notified().await,
                Some((jobs, Wake::Payouts)) => jobs.wake_payouts.notified().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(interval) => {}
            _ = woken => {}
            _ = stop.changed() => return,
        }
    }
}
