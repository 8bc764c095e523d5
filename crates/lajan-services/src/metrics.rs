//! What this process counts for Prometheus, in a registry of its own: HTTP requests, ledger
//! submissions, webhook attempts and payouts' time from approval to sent as they happen; the
//! queues and the database pools read from the store on each scrape.

use crate::Services;
use lajan_domain::payout::AttemptResult;
use lajan_domain::webhook::DeliveryOutcome;
use lajan_domain::{Environment, Timestamp};
use lajan_store::StoreResult;
use lajan_store::operations::{Backlog, PoolUse};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The Prometheus text format (0.0.4), what a scraper gets unless it asks for OpenMetrics.
pub const PROMETHEUS_TEXT: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;
pub const OPENMETRICS_TEXT: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Request {
    method: String,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Route {
    method: String,
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Submission {
    environment: &'static str,
    result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Env {
    environment: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// Seconds, from a millisecond to ten: what an API answer may take.
fn request_buckets() -> Histogram {
    Histogram::new([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0])
}

/// Seconds, from a second to a day: a payout waits for its executor, retries and the network.
fn payout_buckets() -> Histogram {
    Histogram::new([1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0, 7200.0, 21600.0, 86400.0])
}

#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<Request, Counter>,
    durations: Histograms<Route>,
    submissions: Family<Submission, Counter>,
    approval_to_sent: Histograms<Env>,
    webhook_attempts: Family<Outcome, Counter>,
    scraped: Arc<Scraped>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("lajan");
        let build = Family::<[(&'static str, &'static str); 1], Gauge>::default();
        build.get_or_create(&[("version", env!("CARGO_PKG_VERSION"))]).set(1);
        registry.register("build_info", "The running version (always 1)", build);
        let requests = Family::default();
        registry.register("http_requests", "HTTP requests answered, by route template and status", requests.clone());
        let durations: Histograms<Route> = Family::new_with_constructor(request_buckets);
        registry.register_with_unit(
            "http_request_duration",
            "Time to answer an HTTP request, by route template",
            Unit::Seconds,
            durations.clone(),
        );
        let submissions = Family::default();
        registry.register(
            "ledger_submissions",
            "Payout transactions submitted, by result: sent, failed (final), retry (transient or unknown)",
            submissions.clone(),
        );
        let approval_to_sent: Histograms<Env> = Family::new_with_constructor(payout_buckets);
        registry.register_with_unit(
            "payout_approval_to_sent",
            "Time from a payout's approval to the ledger's confirmation, per payout sent by this process",
            Unit::Seconds,
            approval_to_sent.clone(),
        );
        let webhook_attempts = Family::default();
        registry.register(
            "webhook_attempts",
            "Webhook delivery attempts, by outcome: delivered, retry, failed (given up), gone (410)",
            webhook_attempts.clone(),
        );
        let scraped = Arc::new(Scraped::default());
        registry.register_collector(Box::new(scraped.clone()));
        Metrics { registry, requests, durations, submissions, approval_to_sent, webhook_attempts, scraped }
    }

    /// One answered request; `route` is the path template (`/v1/invoices/{id}`), never a raw path.
    pub fn http_request(&self, method: &str, route: &str, status: u16, took: Duration) {
        let (method, route) = (method.to_owned(), route.to_owned());
        self.durations
            .get_or_create(&Route { method: method.clone(), route: route.clone() })
            .observe(took.as_secs_f64());
        self.requests.get_or_create(&Request { method, route, status }).inc();
    }

    /// A submission's result; a payout it sent also counts its time since approval.
    pub fn ledger_submission(&self, env: Environment, result: &AttemptResult, approved_at: Option<Timestamp>) {
        let result_name = match result {
            AttemptResult::Sent { .. } => "sent",
            AttemptResult::Failed { .. } => "failed",
            AttemptResult::Retry { .. } => "retry",
        };
        let environment = env.as_str();
        self.submissions.get_or_create(&Submission { environment, result: result_name }).inc();
        if let (AttemptResult::Sent { .. }, Some(approved)) = (result, approved_at) {
            let waited = Timestamp::now().as_millis().saturating_sub(approved.as_millis()).max(0);
            #[allow(clippy::cast_precision_loss)] // milliseconds of a payout's wait fit f64 exactly
            self.approval_to_sent.get_or_create(&Env { environment }).observe(waited as f64 / 1000.0);
        }
    }

    pub fn webhook_attempt(&self, outcome: &DeliveryOutcome) {
        let outcome = match outcome {
            DeliveryOutcome::Delivered => "delivered",
            DeliveryOutcome::Retry { .. } => "retry",
            DeliveryOutcome::Failed => "failed",
            DeliveryOutcome::Gone => "gone",
        };
        self.webhook_attempts.get_or_create(&Outcome { outcome }).inc();
    }

    /// Everything, with `backlog` and `pools` as just read, in OpenMetrics or else the
    /// Prometheus text format.
    fn encode(&self, readings: Readings, openmetrics: bool) -> String {
        *self.scraped.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(readings);
        let mut text = String::new();
        let written = if openmetrics {
            prometheus_client::encoding::text::encode(&mut text, &self.registry)
        } else {
            prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry)
        };
        // Writing into a String cannot fail: an error here is a metric that cannot encode, a bug.
        if let Err(e) = written {
            tracing::error!(error = %e, "metrics could not be encoded");
        }
        text
    }
}

impl Services {
    /// What `GET /metrics` answers: the store's queues and pools read now, with every count.
    pub async fn scrape_metrics(&self, openmetrics: bool) -> StoreResult<String> {
        let backlog = self.store.backlog().await?;
        let readings = Readings { backlog, pools: self.store.pool_use(), now: Timestamp::now() };
        Ok(self.metrics.encode(readings, openmetrics))
    }
}

#[derive(Debug)]
struct Readings {
    backlog: Backlog,
    pools: Vec<PoolUse>,
    now: Timestamp,
}

/// The readings of the scrape under way, written out with the registry's own metrics.
#[derive(Debug, Default)]
struct Scraped(Mutex<Option<Readings>>);

fn seconds_since(then: Option<Timestamp>, now: Timestamp) -> f64 {
    let millis = then.map_or(0, |t| now.as_millis().saturating_sub(t.as_millis()).max(0));
    #[allow(clippy::cast_precision_loss)] // an age in milliseconds fits f64 exactly
    let seconds = millis as f64 / 1000.0;
    seconds
}

/// Writes one gauge (or counter) family: `name`, its help, and a value per label set.
fn family<L: EncodeLabelSet, M: EncodeMetric>(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    unit: Option<&Unit>,
    values: impl IntoIterator<Item = (L, M)>,
) -> Result<(), std::fmt::Error> {
    let mut values = values.into_iter().peekable();
    let Some((_, first)) = values.peek() else { return Ok(()) };
    let mut metric = encoder.encode_descriptor(name, help, unit, first.metric_type())?;
    for (labels, value) in values {
        value.encode(metric.encode_family(&labels)?)?;
    }
    Ok(())
}

/// Writes one value without labels.
fn single(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    unit: Option<&Unit>,
    value: impl EncodeMetric,
) -> Result<(), std::fmt::Error> {
    value.encode(encoder.encode_descriptor(name, help, unit, value.metric_type())?)
}

impl Collector for Scraped {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let readings = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(Readings { backlog, pools, now }) = readings.as_ref() else { return Ok(()) };
        let payouts = backlog.payouts.iter().map(|c| {
            let labels = [
                ("environment", c.env.as_str().to_owned()),
                ("approval_status", c.approval_status.clone()),
                ("exec_status", c.exec_status.clone()),
            ];
            (labels, ConstGauge::new(c.count))
        });
        family(&mut encoder, "payouts", "Payouts of every organization, by environment and status.", None, payouts)?;
        let delayed = [Environment::Test, Environment::Live].map(|env| {
            let n = backlog.payouts_delayed.iter().find(|(e, _)| *e == env).map_or(0, |(_, n)| *n);
            ([("environment", env.as_str())], ConstGauge::new(n))
        });
        family(
            &mut encoder,
            "payouts_delayed",
            "Approved payouts still unsent past LAJAN_PAYOUT_DELAY_ALERT_SECS (each raised payout.delayed).",
            None,
            delayed,
        )?;
        single(
            &mut encoder,
            "webhook_deliveries_pending",
            "Webhook deliveries not yet delivered nor given up.",
            None,
            ConstGauge::new(backlog.deliveries_pending),
        )?;
        single(
            &mut encoder,
            "webhook_oldest_pending_age",
            "Age of the oldest pending webhook delivery (0 when none).",
            Some(&Unit::Seconds),
            ConstGauge::new(seconds_since(backlog.oldest_pending_delivery, *now)),
        )?;
        single(
            &mut encoder,
            "notifications_pending",
            "Live emails and SMS waiting to be sent.",
            None,
            ConstGauge::new(backlog.messages_queued),
        )?;
        single(
            &mut encoder,
            "notifications_oldest_pending_age",
            "Age of the oldest email or SMS waiting to be sent (0 when none).",
            Some(&Unit::Seconds),
            ConstGauge::new(seconds_since(backlog.oldest_queued_message, *now)),
        )?;
        let connections = pools.iter().flat_map(|p| {
            let busy = p.open.saturating_sub(p.idle);
            [("idle", p.idle), ("busy", busy)]
                .map(|(state, n)| ([("pool", p.pool), ("state", state)], ConstGauge::new(i64::from(n))))
        });
        family(&mut encoder, "db_pool_connections", "Open database connections, idle or busy.", None, connections)?;
        let max = pools.iter().map(|p| ([("pool", p.pool)], ConstGauge::new(i64::from(p.max))));
        family(&mut encoder, "db_pool_max_connections", "The most connections the pool opens.", None, max)?;
        let counted = || pools.iter().filter_map(|p| Some((p.pool, p.waits?)));
        let waits = counted().map(|(pool, (waits, _))| ([("pool", pool)], ConstCounter::new(waits)));
        family(
            &mut encoder,
            "db_pool_waits",
            "Write transactions that found no idle connection and waited.",
            None,
            waits,
        )?;
        let waited = counted().map(|(pool, (_, waited))| ([("pool", pool)], ConstCounter::new(waited.as_secs_f64())));
        family(
            &mut encoder,
            "db_pool_wait",
            "Time write transactions spent waiting for a connection.",
            Some(&Unit::Seconds),
            waited,
        )?;
        let committing = || pools.iter().filter_map(|p| Some((p.pool, p.commits?)));
        let commits = committing().map(|(pool, (commits, _))| ([("pool", pool)], ConstCounter::new(commits)));
        family(&mut encoder, "db_commits", "Transactions committed (each one fsync).", None, commits)?;
        let units = committing().map(|(pool, (_, units))| ([("pool", pool)], ConstCounter::new(units)));
        family(
            &mut encoder,
            "db_committed_units",
            "Units of work those commits carried: several per commit where the writer commits in groups.",
            None,
            units,
        )
    }
}
