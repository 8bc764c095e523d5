//! The webhook dispatcher: claims due deliveries and POSTs each to its endpoint, at most
//! [`WebhookConfig::concurrency`] at once and [`WebhookConfig::endpoint_concurrency`] per endpoint,
//! so one slow endpoint holds its own slots and nobody else's: a claim takes of each endpoint
//! only as many as it has slots free. A slot is freed when the receiver answers; the answers are
//! recorded by one task, as many per transaction as have come in while the last was written.
//! Each answer is kept as an attempt and moves the delivery: any 2xx delivers, 410 disables the
//! endpoint, anything else (a 3xx included: redirects are not followed) is tried again on the
//! schedule, then fails; five days of failures without a success disable the endpoint too.

use crate::Workers;
use crate::webhook_post::{Answer, post};
use lajan_domain::event::Event;
use lajan_domain::network::{is_localhost, non_public};
use lajan_domain::webhook::{DeliveryAttempt, DeliveryOutcome};
use lajan_domain::{Environment, Timestamp};
use lajan_services::Services;
use lajan_services::error::error_chain;
use lajan_services::events::webhook_endpoint_event;
use lajan_services::views::events::EventView;
use lajan_services::webhook_guard::{GuardedDns, HostResolver, SANDBOX_PRIVATE_HINT};
use lajan_store::{Answered, ClaimLimits, DueDelivery, StoreResult};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tokio::task::JoinHandle;

/// The dispatcher's settings, with defaults in code.
#[derive(Debug, Clone)]
pub struct WebhookConfig {
    /// How long a receiver has to answer, body included.
    pub timeout: Duration,
    /// Deliveries in flight at once, over all endpoints (per process).
    pub concurrency: usize,
    /// Deliveries in flight at once to one endpoint (per process).
    pub endpoint_concurrency: usize,
    /// Sandbox endpoints wait this many times less between tries (1: the live schedule).
    pub sandbox_retry_divisor: i64,
    /// How long a claimed delivery belongs to this process: past it, a process that died is
    /// presumed dead and the delivery is sent again.
    pub lease_ms: i64,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        WebhookConfig {
            timeout: Duration::from_secs(15),
            // Sockets and tasks are cheap; a receiver's round trip is not: at 100 ms a round
            // trip, 16 at once carry 160 deliveries a second to one endpoint, and a dead
            // endpoint holds an eighth of the process's slots.
            concurrency: 128,
            endpoint_concurrency: 16,
            sandbox_retry_divisor: 1,
            lease_ms: 60_000,
        }
    }
}

/// The HTTP clients and the slots of the deliveries in flight.
pub struct Dispatcher {
    /// For sandbox endpoints: guarded as live ones are, or, where the operator allows private
    /// addresses (a developer's receiver on their machine), a client that dials anything.
    http: reqwest::Client,
    /// Whether `http` dials private addresses.
    sandbox_private: bool,
    /// For live endpoints: every name it dials is resolved through the guard.
    live_http: reqwest::Client,
    config: WebhookConfig,
    slots: Arc<Semaphore>,
    per_endpoint: Arc<Mutex<HashMap<String, usize>>>,
    /// Where answers go to be recorded; its task starts with the first answer.
    recorder: OnceLock<mpsc::UnboundedSender<Recording>>,
}

/// An answer on its way to the store, and who waits for it to be written.
struct Recording {
    answer: Answered,
    recorded: oneshot::Sender<()>,
}

/// The most answers written in one transaction.
const ANSWERS_PER_TRANSACTION: usize = 512;

impl Dispatcher {
    pub fn new(config: WebhookConfig, resolver: Arc<dyn HostResolver>, sandbox_private: bool) -> anyhow::Result<Self> {
        let builder = || {
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(config.timeout)
                .user_agent(concat!("Lajan-Webhooks/", env!("CARGO_PKG_VERSION")))
        };
        let live_http = builder().dns_resolver(Arc::new(GuardedDns(resolver))).build()?;
        let http = if sandbox_private { builder().build()? } else { live_http.clone() };
        let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));
        Ok(Dispatcher {
            http,
            sandbox_private,
            live_http,
            config,
            slots,
            per_endpoint: Arc::default(),
            recorder: OnceLock::new(),
        })
    }

    fn counts(&self) -> MutexGuard<'_, HashMap<String, usize>> {
        self.per_endpoint.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// What a claim may take now: the free slots, and of each endpoint its own free slots.
    fn claim_limits(&self) -> ClaimLimits {
        ClaimLimits {
            total: self.slots.available_permits(),
            per_endpoint: self.config.endpoint_concurrency.max(1),
            in_flight: self.counts().clone(),
        }
    }

    /// Hands `answer` to the recording task (started on first use) and waits until it is
    /// written, or could not be (then the lease runs out and the delivery is sent again).
    async fn record(&self, services: &Arc<Services>, answer: Answered) {
        let recorder = self.recorder.get_or_init(|| {
            let (sender, answers) = mpsc::unbounded_channel();
            tokio::spawn(record_answers(services.clone(), answers));
            sender
        });
        let (recorded, written) = oneshot::channel();
        if recorder.send(Recording { answer, recorded }).is_ok() {
            let _ = written.await;
        }
    }

    /// A slot for one delivery to `endpoint_id`, when both it and the process have one free.
    fn reserve(&self, endpoint_id: &str) -> Option<Slot> {
        let mut counts = self.counts();
        let taken = counts.get(endpoint_id).copied().unwrap_or(0);
        if taken >= self.config.endpoint_concurrency.max(1) {
            return None;
        }
        let permit = self.slots.clone().try_acquire_owned().ok()?;
        counts.insert(endpoint_id.to_owned(), taken + 1);
        Some(Slot { _permit: permit, endpoint_id: endpoint_id.to_owned(), per_endpoint: self.per_endpoint.clone() })
    }
}

/// Why a guarded delivery may not be sent to `url` before any name is resolved: a live one must
/// be https, and a host written as an address (which no resolver sees) must be public.
fn refusal(url: &str, live: bool) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    if live && parsed.scheme() != "https" {
        return Some("refused: a live endpoint must use https".into());
    }
    let why = match parsed.host()? {
        url::Host::Domain(name) if !is_localhost(name) => None,
        url::Host::Domain(name) => Some(format!("refused: {name} names this machine")),
        url::Host::Ipv4(ip) => non_public(ip.into()).map(|why| format!("refused: {ip} is {why}")),
        url::Host::Ipv6(ip) => non_public(ip.into()).map(|why| format!("refused: {ip} is {why}")),
    };
    if live { why } else { why.map(|why| format!("{why} ({SANDBOX_PRIVATE_HINT})")) }
}

/// A delivery's place among those in flight; freed when dropped.
struct Slot {
    _permit: OwnedSemaphorePermit,
    endpoint_id: String,
    per_endpoint: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.per_endpoint.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = counts.get_mut(&self.endpoint_id) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.endpoint_id);
            }
        }
    }
}

impl Workers {
    /// The dispatcher's step: claims due deliveries for the free slots (of each endpoint, only
    /// as many as it has free) and starts sending each. Answers the sends: the loop lets them
    /// run, tests await them.
    pub async fn start_deliveries(&self, now: Timestamp) -> StoreResult<Vec<JoinHandle<()>>> {
        let dispatcher = &self.dispatcher;
        let limits = dispatcher.claim_limits();
        if limits.total == 0 {
            return Ok(Vec::new());
        }
        let store = &self.services.store;
        let claimed = store.claim_deliveries(now, dispatcher.config.lease_ms, &limits).await?;
        let Some(lease) = claimed.first().map(|due| due.lease.clone()) else { return Ok(Vec::new()) };
        let mut sends = Vec::with_capacity(claimed.len());
        let mut give_back = Vec::new();
        for due in claimed {
            // Only this step takes slots, so each claimed delivery has one; a step run beside
            // another (a test's) may find one gone, and gives that delivery back.
            match dispatcher.reserve(&due.delivery.endpoint_id) {
                Some(slot) => {
                    sends.push(tokio::spawn(deliver(self.services.clone(), dispatcher.clone(), due, slot, now)))
                }
                None => give_back.push(due.delivery.id),
            }
        }
        if !give_back.is_empty() {
            store.release_deliveries(&lease, &give_back, now).await?;
        }
        Ok(sends)
    }

    /// Claims what is due and sends it all, returning once every answer is recorded: for tests.
    pub async fn deliver_webhooks_once(&self, now: Timestamp) -> StoreResult<usize> {
        let sends = self.start_deliveries(now).await?;
        let started = sends.len();
        futures::future::join_all(sends).await;
        Ok(started)
    }
}

/// Sends one claimed delivery and records what came of it.
/// `at` is the step's clock (tests move it): the attempt's time, from which its retry is counted.
async fn deliver(services: Arc<Services>, dispatcher: Arc<Dispatcher>, due: DueDelivery, slot: Slot, at: Timestamp) {
    let config = &dispatcher.config;
    let (http, refused) = match due.tenant.env {
        Environment::Live => (&dispatcher.live_http, refusal(&due.url, true)),
        Environment::Test if dispatcher.sandbox_private => (&dispatcher.http, None),
        Environment::Test => (&dispatcher.http, refusal(&due.url, false)),
    };
    let (attempt, outcome) = match body_of(&due) {
        Ok(body) => {
            let answer = match refused {
                Some(why) => Answer::refused(why),
                None => post(http, &due.url, &due.secrets, &due.delivery.event_id, body, config.timeout).await,
            };
            let attempt = DeliveryAttempt {
                attempt_number: 0,
                at,
                http_status: answer.status.map(i64::from),
                error: answer.error,
                duration_ms: answer.duration_ms,
                response_body: answer.body,
            };
            let outcome = match answer.status {
                Some(200..=299) => DeliveryOutcome::Delivered,
                Some(410) => DeliveryOutcome::Gone,
                status => {
                    let retry_after = answer.retry_after_ms.filter(|_| matches!(status, Some(429 | 503)));
                    let divisor = match due.tenant.env {
                        Environment::Test => config.sandbox_retry_divisor,
                        Environment::Live => 1,
                    };
                    let jitter = rand::random_range(-200..=200);
                    let tries = due.delivery.attempts + 1;
                    DeliveryOutcome::after_failure(tries, at, jitter, retry_after, divisor)
                }
            };
            (attempt, outcome)
        }
        Err(e) => {
            let attempt = DeliveryAttempt {
                attempt_number: 0,
                at,
                http_status: None,
                error: Some(format!("the stored event could not be read: {e}")),
                duration_ms: 0,
                response_body: None,
            };
            (attempt, DeliveryOutcome::Failed)
        }
    };
    // The receiver is done with it: the slot can carry the next delivery while this answer is
    // written (the delivery stays leased until then, so it is not claimed again).
    drop(slot);
    services.metrics.webhook_attempt(&outcome);
    services.nudges.deliveries_due();
    let answer = Answered { delivery_id: due.delivery.id, lease: due.lease, attempt, outcome };
    dispatcher.record(&services, answer).await;
}

/// The recording task: writes the answers that have come in, all in one transaction, then
/// tells their senders; runs until the dispatcher is gone.
async fn record_answers(services: Arc<Services>, mut answers: mpsc::UnboundedReceiver<Recording>) {
    let disabled = webhook_endpoint_event("webhook_endpoint.disabled");
    let mut batch = Vec::with_capacity(ANSWERS_PER_TRANSACTION);
    while answers.recv_many(&mut batch, ANSWERS_PER_TRANSACTION).await > 0 {
        let (written, waiting): (Vec<Answered>, Vec<oneshot::Sender<()>>) =
            batch.drain(..).map(|r| (r.answer, r.recorded)).unzip();
        if let Err(e) = services.store.finish_deliveries(&written, &disabled).await {
            // The leases run out and the deliveries are sent again: at least once, never lost.
            tracing::warn!(answers = written.len(), error = %error_chain(&e), "webhook attempts could not be recorded");
        }
        for sender in waiting {
            let _ = sender.send(());
        }
    }
}

/// The event as `GET /v1/events/{id}` shows it: the body of every delivery of it.
fn body_of(due: &DueDelivery) -> serde_json::Result<Vec<u8>> {
    let event = Event {
        id: due.delivery.event_id.clone(),
        org_id: due.tenant.org_id.clone(),
        env: due.tenant.env,
        event_type: due.delivery.event_type.clone(),
        created_at: due.event_created_at,
        data: due.event_data.clone(),
        actor: due.event_actor.clone(),
    };
    serde_json::to_vec(&EventView::from_event(event)?)
}

#[cfg(test)]
mod tests {
    use super::refusal;

    #[test]
    fn deliveries_to_written_out_addresses_are_refused_before_dialling() {
        assert_eq!(refusal("https://hooks.example.com/h", true), None, "names go through the guarded resolver");
        assert_eq!(refusal("https://93.184.216.34/h", true), None);
        assert_eq!(refusal("http://93.184.216.34/h", false), None, "the sandbox may use http");
        for (url, says) in [
            ("http://hooks.example.com/h", "https"),
            ("https://10.0.0.1/h", "private"),
            ("https://[::ffff:127.0.0.1]/h", "loopback"),
            ("https://localhost/h", "this machine"),
        ] {
            let refused = refusal(url, true).unwrap_or_default();
            assert!(refused.contains(says), "{url}: {refused:?}");
        }
        let sandbox = refusal("http://127.0.0.1:8080/h", false).unwrap_or_default();
        assert!(sandbox.contains("loopback") && sandbox.contains("LAJAN_SANDBOX_WEBHOOKS_PRIVATE=allow"), "{sandbox}");
    }
}
