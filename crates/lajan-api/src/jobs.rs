//! Background work, run in the serving process: the payment watcher (matches incoming ledger
//! payments to payment intents), the overdue job, and the notification sender. Each has a
//! `*_once` step that tests call directly; `spawn` runs them on intervals until shutdown.
//!
//! They live beside the API because the events they write carry the API's view of the
//! resource, which is defined here.

use crate::error::error_chain;
use crate::failpoint;
use crate::invoicing::{invoice_event, link_event};
use lajan_domain::Timestamp;
use lajan_domain::invoice::InvoiceAction;
use lajan_store::invoices::{Channel, DeliveryOutcome, Message, PaidEvents, PaymentApplied};
use lajan_store::payouts::AttemptResult;
use lajan_store::{Store, StoreError, StoreResult};
use lajan_worker::notify::{Email, EmailSender, NotifyError, Sms, SmsSender};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, watch};

/// Delays before the 2nd, 3rd, ... delivery attempts; after the last, a message fails.
const RETRY_DELAYS_SECS: [i64; 5] = [30, 120, 600, 3600, 6 * 3600];
/// How long a claimed message is reserved for the worker that claimed it.
const DELIVERY_LEASE_MS: i64 = 120_000;
const BATCH: i64 = 100;

/// Delays before resubmitting a payout after a transient failure (timeout, network).
const PAYOUT_RETRY_SECS: [i64; 5] = [5, 30, 120, 600, 3600];

/// How often each job runs when nothing wakes it.
#[derive(Debug, Clone, Copy)]
pub struct JobIntervals {
    pub payments: Duration,
    pub overdue: Duration,
    pub notifications: Duration,
    pub payouts: Duration,
}

impl Default for JobIntervals {
    fn default() -> Self {
        JobIntervals {
            payments: Duration::from_secs(1),
            overdue: Duration::from_secs(60),
            notifications: Duration::from_secs(5),
            payouts: Duration::from_secs(1),
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
    wake_notifications: Notify,
    wake_payouts: Notify,
}

impl Jobs {
    pub fn new(
        store: Arc<dyn Store>,
        public_url: String,
        email: Arc<dyn EmailSender>,
        sms: Arc<dyn SmsSender>,
        payout_max_attempts: i64,
        payout_lease_ms: i64,
    ) -> Self {
        Jobs {
            store,
            public_url,
            email,
            sms,
            payout_max_attempts,
            payout_lease_ms,
            wake_notifications: Notify::new(),
            wake_payouts: Notify::new(),
        }
    }

    /// Asks the payout executor to look for work now (after an approval).
    pub fn wake_payouts(&self) {
        self.wake_payouts.notify_one();
    }

    /// The payout executor's step: claims approved payouts, submits each through the ledger
    /// (the sandbox network here; Horizon for live payouts comes with the live ledger), and
    /// records every attempt. The transaction's hash and envelope are stored before it is
    /// submitted; a payout whose last attempt never finished (a crash) or timed out is
    /// resubmitted with the identical envelope, which the ledger applies at most once.
    pub async fn execute_payouts_once(&self, now: Timestamp) -> StoreResult<usize> {
        let claimed = self.store.claim_payouts(now, self.payout_lease_ms, BATCH).await?;
        for d in &claimed {
            let resubmit = d
                .attempts
                .last()
                .filter(|a| a.ledger_seq.is_none() && a.error_code.as_deref().is_none_or(is_transient));
            let (hash, envelope) = match resubmit {
                Some(last) => (last.tx_hash.clone(), self.store.attempt_envelope(&last.id).await?),
                None => crate::ledger::sandbox_envelope(d),
            };
            let attempt = self.store.start_attempt(&d.payout.id, &hash, &envelope, Timestamp::now()).await?;
            failpoint::hit("payout.after_store").await;
            let result = if d.tenant.env.is_live() {
                AttemptResult::Failed {
                    code: "live_ledger_unavailable".into(),
                    message: "live Stellar payouts are not enabled on this server yet".into(),
                }
            } else {
                let retry = crate::ledger::RetryPolicy {
                    max_attempts: self.payout_max_attempts,
                    delays_secs: &PAYOUT_RETRY_SECS,
                };
                crate::ledger::submit_sandbox(self.store.as_ref(), d, &hash, attempt.attempt_number, &retry).await?
            };
            failpoint::hit("payout.after_submit").await;
            let event = |p: &_| crate::routes::payouts::payout_event(p);
            failpoint::hit("payout.before_record").await;
            self.store.finish_attempt(&d.tenant, &d.payout.id, &attempt.id, &result, Timestamp::now(), &event).await?;
        }
        Ok(claimed.len())
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
                if outcome == PaymentApplied::Unmatched {
                    tracing::warn!(payment = %payment.id, tx_hash = %payment.tx_hash, "incoming payment matches no payment intent");
                }
                processed += 1;
            }
        }
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
            match self.store.invoice_action(&tenant, &id, InvoiceAction::MarkOverdue, now, None, &event).await {
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
            every(intervals.payouts, stop, Some((self.clone(), Wake::Payouts)), move || {
                let jobs = jobs.clone();
                async move { jobs.execute_payouts_once(Timestamp::now()).await.map(|_| ()) }
            })
        };
        vec![tokio::spawn(payments), tokio::spawn(overdue), tokio::spawn(notifications), tokio::spawn(payouts)]
    }
}

/// Which notification wakes a job early.
#[derive(Clone, Copy)]
enum Wake {
    Notifications,
    Payouts,
}

/// Whether a payout attempt's error is worth resubmitting the same transaction for.
fn is_transient(code: &str) -> bool {
    matches!(code, "tx_timeout" | "tx_too_late" | "network_error")
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
