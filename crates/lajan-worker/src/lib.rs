//! Lajan's background work, each worker in its own file: the payout executor ([`executor`]),
//! the payment watchers ([`live_payments`]; sandbox payments are applied by the same use case),
//! the payout delay alert, the overdue job, the notification sender ([`notifier`] over the [`notify`] transports), the
//! disbursement roll-up, the webhook [`dispatcher`] and housekeeping. Each has a `*_once` step that tests call directly; [`Workers::spawn`] runs them
//! on intervals until shutdown. Any number of worker processes can share one PostgreSQL
//! database: every claim skips rows another holds.

pub mod channels;
pub mod dispatcher;
pub mod executor;
pub mod live_payments;
pub mod network;
pub mod notifier;
pub mod notify;
mod reach;
pub mod webhook_post;

use dispatcher::{Dispatcher, WebhookConfig};
use lajan_domain::Timestamp;
use lajan_services::Services;
use lajan_services::error::error_chain;
use lajan_store::StoreResult;
use notify::{EmailSender, HttpSmsSender, SmsConfig, SmsSender, SmtpConfig, SmtpSender, Unconfigured};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How often each worker runs when nothing wakes it.
#[derive(Debug, Clone, Copy)]
pub struct JobIntervals {
    pub payments: Duration,
    pub overdue: Duration,
    pub notifications: Duration,
    pub payouts: Duration,
    /// How often Horizon is asked for new payments to the live receiving account.
    pub live_payments: Duration,
    /// How often expired idempotency keys and rate-limit windows are purged.
    pub purge: Duration,
    /// How often per-tenant count deltas are folded (PostgreSQL).
    pub compact_counts: Duration,
    /// How often the dispatcher looks for due webhook deliveries when nothing nudged it (a
    /// read of one index entry), so a delivery committed by another process goes out in time.
    pub webhooks: Duration,
    /// How often payouts unsent past the delay alert are looked for.
    pub payout_delays: Duration,
    /// How often every running disbursement is rolled up, for those whose last payouts settled
    /// in an executor that stopped before rolling them up (the executor rolls up the rest).
    pub disbursements: Duration,
}

impl Default for JobIntervals {
    fn default() -> Self {
        JobIntervals {
            payments: Duration::from_secs(1),
            overdue: Duration::from_secs(60),
            notifications: Duration::from_secs(5),
            payouts: Duration::from_secs(1),
            live_payments: Duration::from_secs(5),
            purge: Duration::from_secs(300),
            compact_counts: Duration::from_secs(1),
            disbursements: Duration::from_secs(10),
            payout_delays: Duration::from_secs(15),
            webhooks: Duration::from_millis(250),
        }
    }
}

/// The workers' settings, with defaults in code.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    pub intervals: JobIntervals,
    /// How long a payout waits after a transient outcome, growing with each in a row. Transient
    /// outcomes never fail a payout.
    pub payout_retry: lajan_domain::retry::Doubling,
    /// An approved payout still unsent this long after its approval (or manual retry) raises
    /// `payout.delayed`, once.
    pub payout_delay_alert_ms: i64,
    /// How long a claimed payout belongs to the executor that claimed it; the executor renews
    /// it every quarter lease while it works. A payout whose executor died is resumed (its
    /// stored transaction resubmitted) once this has passed.
    pub payout_lease_ms: i64,
    /// Outgoing email for live invoices; without it live email fails with "not configured".
    pub smtp: Option<SmtpConfig>,
    /// Outgoing SMS for live invoices (Twilio-compatible); without it live SMS fail likewise.
    pub sms: Option<SmsConfig>,
    /// The webhook dispatcher.
    pub webhooks: WebhookConfig,
    /// Sandbox payouts one claim takes; their first transactions are stored, submitted and
    /// recorded together, a few statements each.
    pub sandbox_claim_size: usize,
    /// Sandbox claims paid at once: while some wait for their ledger to close, the next are
    /// claimed and submitted.
    pub sandbox_claims_in_flight: usize,
    /// How often a payout held because its destination cannot take it (no account, no
    /// trustline) is checked again: it is sent at the first check after the receiver fixes it.
    pub unreachable_recheck_ms: i64,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        WorkerConfig {
            intervals: JobIntervals::default(),
            payout_retry: lajan_domain::retry::Doubling::PAYOUTS,
            payout_delay_alert_ms: 15 * 60 * 1000,
            payout_lease_ms: 120_000,
            smtp: None,
            sms: None,
            webhooks: WebhookConfig::default(),
            sandbox_claim_size: 500,
            sandbox_claims_in_flight: 32,
            unreachable_recheck_ms: 5 * 60 * 1000,
        }
    }
}

/// Every worker, over the use cases of one process.
pub struct Workers {
    services: Arc<Services>,
    config: WorkerConfig,
    email: Arc<dyn EmailSender>,
    sms: Arc<dyn SmsSender>,
    dispatcher: Arc<Dispatcher>,
    channels: channels::Channels,
    network: network::NetworkWatch,
}

impl Workers {
    /// Fails when a notification transport's configuration is unusable.
    pub fn new(services: Arc<Services>, config: WorkerConfig) -> anyhow::Result<Self> {
        use anyhow::Context;
        let email: Arc<dyn EmailSender> = match &config.smtp {
            Some(smtp) => Arc::new(SmtpSender::new(smtp.clone()).context("SMTP configuration")?),
            None => Arc::new(Unconfigured("email (set LAJAN_SMTP_HOST)")),
        };
        let sms: Arc<dyn SmsSender> = match &config.sms {
            Some(sms) => Arc::new(HttpSmsSender::new(sms.clone()).context("SMS configuration")?),
            None => Arc::new(Unconfigured("SMS (set LAJAN_SMS_BASE_URL)")),
        };
        let (resolver, private) = (services.config.resolver.clone(), services.config.sandbox_webhooks_private);
        let dispatcher =
            Arc::new(Dispatcher::new(config.webhooks.clone(), resolver, private).context("webhook dispatcher")?);
        Ok(Workers {
            services,
            config,
            email,
            sms,
            dispatcher,
            channels: channels::Channels::default(),
            network: network::NetworkWatch::default(),
        })
    }

    pub fn services(&self) -> &Arc<Services> {
        &self.services
    }

    /// The payment watcher's step for ledgers recorded in the store (the sandbox's).
    pub async fn apply_payments_once(&self) -> StoreResult<usize> {
        self.services.apply_pending_payments().await
    }

    /// The overdue job's step.
    pub async fn mark_overdue_once(&self, now: Timestamp) -> StoreResult<usize> {
        self.services.mark_overdue(now).await
    }

    /// The delay alert's step: `payout.delayed` for payouts unsent too long; how many.
    pub async fn alert_delayed_payouts_once(&self, now: Timestamp) -> StoreResult<usize> {
        self.services.alert_delayed_payouts(now, self.config.payout_delay_alert_ms).await
    }

    /// The registration window's step: cancels approved payouts whose client did not register a
    /// wallet in time (`payout.canceled`); how many.
    pub async fn cancel_unregistered_once(&self, now: Timestamp) -> StoreResult<usize> {
        self.services.cancel_unregistered_payouts(now).await
    }

    /// The invitations' step: sends every invitation to register a wallet that is due (first
    /// sends and resends); how many.
    pub async fn send_invitations_once(&self, now: Timestamp) -> StoreResult<usize> {
        self.services.send_due_invitations(now).await
    }

    /// The reminders' step: sends every payment reminder due by `now`; how many.
    pub async fn send_reminders_once(&self, now: Timestamp) -> StoreResult<usize> {
        self.services.send_due_reminders(now).await
    }

    /// The receipts' step: sends every payment receipt due by `now`; how many messages.
    pub async fn send_receipts_once(&self, now: Timestamp) -> StoreResult<usize> {
        self.services.send_due_receipts(now).await
    }

    /// Runs every worker on its interval until `stop` flips.
    pub fn spawn(self: Arc<Self>, stop: watch::Receiver<bool>) -> Vec<JoinHandle<()>> {
        let i = self.config.intervals;
        let mut handles = vec![
            self.run(i.payments, &stop, Wake::Never, |w| async move { w.apply_payments_once().await.map(drop) }),
            self.run(i.overdue, &stop, Wake::Never, |w| async move {
                w.mark_overdue_once(Timestamp::now()).await.map(drop)
            }),
            // Invitations, reminders and receipts due first, so the messages they queue go out in the same step.
            self.run(i.notifications, &stop, Wake::Messages, |w| async move {
                w.send_invitations_once(Timestamp::now()).await?;
                w.send_reminders_once(Timestamp::now()).await?;
                w.send_receipts_once(Timestamp::now()).await?;
                w.deliver_messages_once(Timestamp::now()).await.map(drop)
            }),
            self.run(i.payouts, &stop, Wake::Payouts, |w| async move {
                if w.execute_payouts_once(Timestamp::now()).await? >= w.config.sandbox_claim_size {
                    // A full claim or more: there is probably more, so go again at once.
                    w.services.nudges.payouts_due();
                }
                Ok(())
            }),
            self.run(i.purge, &stop, Wake::Never, |w| async move {
                let purged = w.services.store.purge_expired(Timestamp::now()).await?;
                if purged > 0 {
                    tracing::debug!(rows = purged, "purged expired rows");
                }
                Ok(())
            }),
            self.run(i.compact_counts, &stop, Wake::Never, |w| async move {
                w.services.store.compact_counts().await.map(drop)
            }),
            // Both look for payouts waiting too long: unsent, or unclaimed by their receiver.
            self.run(i.payout_delays, &stop, Wake::Never, |w| async move {
                w.alert_delayed_payouts_once(Timestamp::now()).await?;
                w.cancel_unregistered_once(Timestamp::now()).await.map(drop)
            }),
            self.run(i.disbursements, &stop, Wake::Never, |w| async move {
                w.services.roll_up_disbursements(None).await.map(drop)
            }),
            self.run(i.webhooks, &stop, Wake::Deliveries, |w| async move {
                w.start_deliveries(Timestamp::now()).await.map(drop)
            }),
        ];
        if self.services.live_ledger().is_some() {
            handles.push(self.run(i.live_payments, &stop, Wake::Never, |w| async move {
                w.watch_live_payments_once().await.map(drop)
            }));
        }
        handles
    }

    /// Spawns `step` to run every `interval` (or sooner when `wake` is nudged) until `stop` flips.
    fn run<F, Fut>(
        self: &Arc<Self>,
        interval: Duration,
        stop: &watch::Receiver<bool>,
        wake: Wake,
        step: F,
    ) -> JoinHandle<()>
    where
        F: Fn(Arc<Workers>) -> Fut + Send + 'static,
        Fut: Future<Output = StoreResult<()>> + Send + 'static,
    {
        let workers = self.clone();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = step(workers.clone()).await {
                    tracing::warn!(error = %error_chain(&e), "background job step failed");
                }
                let nudges = &workers.services.nudges;
                let woken = async {
                    match wake {
                        Wake::Messages => nudges.messages_nudged().await,
                        Wake::Payouts => nudges.payouts_nudged().await,
                        Wake::Deliveries => nudges.deliveries_nudged().await,
                        Wake::Never => std::future::pending().await,
                    }
                };
                tokio::select! {
                    _ = tokio::time::sleep(interval) => {}
                    _ = woken => {}
                    _ = stop.changed() => return,
                }
            }
        })
    }
}

/// Which nudge wakes a worker early.
#[derive(Clone, Copy)]
enum Wake {
    Never,
    Messages,
    Payouts,
    Deliveries,
}

#[cfg(feature = "testing")]
pub mod testing;
