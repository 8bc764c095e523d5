//! Resolving configuration: flags and `LAJAN_*` env (via clap), then the optional TOML file,
//! then defaults. Secrets (database and Redis URLs) are wrapped so `Debug` never shows them.

use crate::cli::{Cli, LedgerArgs, NotifyArgs, ServeArgs};
use anyhow::Context;
use lajan_api::AppConfig;
use lajan_api::client_address::parse_trusted_proxies;
use lajan_api::counters::TierLimits;
use lajan_api::serve::ConnectionLimits;
use lajan_ledger::live::{LiveLedgerConfig, PUBLIC_NETWORK_PASSPHRASE};
use lajan_services::ServiceConfig;
use lajan_services::messages::receipts::SmsAccount;
use lajan_store::GroupCommit;
use lajan_worker::dispatcher::WebhookConfig;
use lajan_worker::notify::{SmsConfig, SmtpConfig, SmtpTls};
use lajan_worker::{JobIntervals, WorkerConfig};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use std::net::SocketAddr;
use std::time::Duration;

pub(crate) const DEFAULT_DATABASE_URL: &str = "sqlite://lajan.db";
pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
pub(crate) const DEFAULT_METRICS_LISTEN: &str = "127.0.0.1:9464";

/// The TOML file's keys, all optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileConfig {
    pub listen: Option<String>,
    pub metrics_listen: Option<String>,
    pub shutdown_grace_secs: Option<u64>,
    pub database_url: Option<SecretString>,
    pub sqlite_commit_units: Option<usize>,
    pub sqlite_commit_wait_ms: Option<u64>,
    pub public_url: Option<String>,
    pub rate_limit_standard: Option<u64>,
    pub rate_limit_enterprise: Option<u64>,
    pub redis_url: Option<SecretString>,
    pub overdue_interval_secs: Option<u64>,
    pub payout_lease_secs: Option<u64>,
    pub smtp_host: Option<String>,
    pub smtp_port: Option<u16>,
    pub smtp_tls: Option<String>,
    pub smtp_username: Option<String>,
    pub smtp_password: Option<SecretString>,
    pub smtp_from: Option<String>,
    pub sms_base_url: Option<String>,
    pub sms_account: Option<String>,
    pub sms_token: Option<SecretString>,
    pub sms_from: Option<String>,
    /// Accepted so old configurations still start; it has no effect (a warning says so).
    pub payout_max_attempts: Option<i64>,
    pub payout_delay_alert_secs: Option<u64>,
    pub webhook_concurrency: Option<usize>,
    pub webhook_endpoint_concurrency: Option<usize>,
    pub sandbox_webhook_retry_divisor: Option<i64>,
    pub sandbox_webhooks_private: Option<String>,
    pub webhook_lease_secs: Option<u64>,
    pub auth_cache_ms: Option<u64>,
    pub pay_miss_limit: Option<u64>,
    pub code_miss_limit: Option<u64>,
    pub deposit_limit: Option<u64>,
    pub password_hash_slots: Option<usize>,
    pub http_header_timeout_secs: Option<u64>,
    pub http_idle_timeout_secs: Option<u64>,
    pub http_body_timeout_secs: Option<u64>,
    pub max_connections: Option<usize>,
    pub max_connections_per_address: Option<usize>,
    pub http2: Option<bool>,
    pub http2_max_streams: Option<u32>,
    /// `trusted_proxies = ["10.0.0.0/8", ...]`.
    #[serde(default)]
    pub trusted_proxies: Vec<String>,
    pub sandbox_ledger_close_ms: Option<u64>,
    pub live_horizon_url: Option<String>,
    pub live_network_passphrase: Option<String>,
    pub live_distribution_secret: Option<SecretString>,
    pub sep10_signing_secret: Option<SecretString>,
    /// `live_channel_secrets = ["S...", ...]`: channel accounts' seeds.
    #[serde(default)]
    pub live_channel_secrets: Vec<SecretString>,
    pub live_receiving_account: Option<String>,
    pub live_base_fee: Option<u32>,
    pub live_max_fee: Option<u32>,
    pub live_tx_timeout_secs: Option<u64>,
    /// `[live_asset_issuers]` USDC = "G..." : issuers of credit assets on the live network.
    #[serde(default)]
    pub live_asset_issuers: std::collections::BTreeMap<String, String>,
}

impl FileConfig {
    pub(crate) fn load(cli: &Cli) -> anyhow::Result<Self> {
        let Some(path) = &cli.config else { return Ok(FileConfig::default()) };
        let text = std::fs::read_to_string(path).with_context(|| format!("reading config file {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("parsing config file {}", path.display()))
    }
}

/// The HTTP server's timeouts and connection cap.
fn connection_limits(args: &ServeArgs, file: &FileConfig) -> anyhow::Result<ConnectionLimits> {
    let defaults = ConnectionLimits::default();
    let seconds = |flag: Option<u64>, file: Option<u64>, default: Duration, name: &str| {
        let secs = flag.or(file).unwrap_or(default.as_secs());
        if !(1..=3600).contains(&secs) {
            anyhow::bail!("{name} must be between 1 and 3600 seconds");
        }
        Ok(Duration::from_secs(secs))
    };
    let max_connections = args.max_connections.or(file.max_connections).unwrap_or(defaults.max_connections);
    if !(1..=1_000_000).contains(&max_connections) {
        anyhow::bail!("LAJAN_MAX_CONNECTIONS must be between 1 and 1000000");
    }
    let http2_max_streams = args.http2_max_streams.or(file.http2_max_streams).unwrap_or(defaults.http2_max_streams);
    if !(1..=1000).contains(&http2_max_streams) {
        anyhow::bail!("LAJAN_HTTP2_MAX_STREAMS must be between 1 and 1000");
    }
    Ok(ConnectionLimits {
        header_timeout: seconds(
            args.http_header_timeout_secs,
            file.http_header_timeout_secs,
            defaults.header_timeout,
            "LAJAN_HTTP_HEADER_TIMEOUT_SECS",
        )?,
        idle_timeout: seconds(
            args.http_idle_timeout_secs,
            file.http_idle_timeout_secs,
            defaults.idle_timeout,
            "LAJAN_HTTP_IDLE_TIMEOUT_SECS",
        )?,
        body_timeout: seconds(
            args.http_body_timeout_secs,
            file.http_body_timeout_secs,
            defaults.body_timeout,
            "LAJAN_HTTP_BODY_TIMEOUT_SECS",
        )?,
        max_connections,
        per_address: args
            .max_connections_per_address
            .or(file.max_connections_per_address)
            .unwrap_or(defaults.per_address),
        http2: args.http2.or(file.http2).unwrap_or(defaults.http2),
        http2_max_streams,
    })
}

/// SQLite's group-commit bounds: at most this many units per commit, waiting at most this long
/// for the units queued behind the first.
fn group_commit(args: &ServeArgs, file: &FileConfig) -> anyhow::Result<GroupCommit> {
    let defaults = GroupCommit::default();
    let max_units = args.sqlite_commit_units.or(file.sqlite_commit_units).unwrap_or(defaults.max_units);
    if !(1..=10_000).contains(&max_units) {
        anyhow::bail!("LAJAN_SQLITE_COMMIT_UNITS must be between 1 and 10000");
    }
    let wait_ms = args.sqlite_commit_wait_ms.or(file.sqlite_commit_wait_ms);
    if wait_ms.is_some_and(|ms| ms > 1000) {
        anyhow::bail!("LAJAN_SQLITE_COMMIT_WAIT_MS must be at most 1000");
    }
    Ok(GroupCommit { max_units, max_wait: wait_ms.map_or(defaults.max_wait, Duration::from_millis) })
}

pub(crate) fn database_url(cli: &Cli, file: &FileConfig) -> SecretString {
    cli.database_url
        .clone()
        .map(SecretString::from)
        .or_else(|| file.database_url.clone())
        .unwrap_or_else(|| SecretString::from(DEFAULT_DATABASE_URL))
}

/// Everything `serve` and `worker` need: the HTTP layer's, the use cases' and the workers'
/// settings.
#[derive(Debug)]
pub(crate) struct ServeConfig {
    pub listen: SocketAddr,
    /// Where `GET /metrics` is served; `None` when turned off.
    pub metrics_listen: Option<SocketAddr>,
    /// How long a stop waits for accepted requests and workers' current steps.
    pub shutdown_grace: Duration,
    pub database_url: SecretString,
    /// SQLite's group-commit bounds.
    pub group_commit: GroupCommit,
    pub app: AppConfig,
    pub services: ServiceConfig,
    pub workers: WorkerConfig,
}

impl ServeConfig {
    pub(crate) fn resolve(cli: &Cli, args: &ServeArgs, file: FileConfig) -> anyhow::Result<Self> {
        let listen_raw = args.listen.clone().or(file.listen.clone()).unwrap_or_else(|| DEFAULT_LISTEN.into());
        let listen: SocketAddr = listen_raw
            .parse()
            .with_context(|| format!("--listen / LAJAN_LISTEN {listen_raw:?} is not an address like 127.0.0.1:8080"))?;
        let metrics_raw = args
            .metrics_listen
            .clone()
            .or(file.metrics_listen.clone())
            .unwrap_or_else(|| DEFAULT_METRICS_LISTEN.into());
        let metrics_listen = match metrics_raw.as_str() {
            "off" => None,
            raw => Some(raw.parse::<SocketAddr>().with_context(|| {
                format!("--metrics-listen / LAJAN_METRICS_LISTEN {raw:?} is not an address like 127.0.0.1:9464 or off")
            })?),
        };
        let public_url = args
            .public_url
            .clone()
            .or(file.public_url.clone())
            .unwrap_or_else(|| format!("http://{listen}"))
            .trim_end_matches('/')
            .to_owned();
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            anyhow::bail!("--public-url / LAJAN_PUBLIC_URL must start with http:// or https://, got {public_url:?}");
        }
        let defaults = TierLimits::default();
        let rate_limits = TierLimits {
            standard: args.rate_limit_standard.or(file.rate_limit_standard).unwrap_or(defaults.standard),
            enterprise: args.rate_limit_enterprise.or(file.rate_limit_enterprise).unwrap_or(defaults.enterprise),
        };
        if rate_limits.standard == 0 || rate_limits.enterprise == 0 {
            anyhow::bail!("rate limits must be at least 1 request per minute");
        }
        let redis_url = args.redis_url.clone().map(SecretString::from).or(file.redis_url.clone());
        if let Some(url) = &redis_url
            && !url.expose_secret().starts_with("redis://")
            && !url.expose_secret().starts_with("rediss://")
        {
            anyhow::bail!("LAJAN_REDIS_URL must start with redis:// or rediss://");
        }
        let overdue = args.overdue_interval_secs.or(file.overdue_interval_secs).unwrap_or(60);
        if overdue == 0 {
            anyhow::bail!("LAJAN_OVERDUE_INTERVAL_SECS must be at least 1");
        }
        let intervals = JobIntervals { overdue: Duration::from_secs(overdue), ..JobIntervals::default() };
        let lease_secs = args.payout_lease_secs.or(file.payout_lease_secs).unwrap_or(120);
        let payout_lease_ms = i64::try_from(lease_secs.max(1)).unwrap_or(120).saturating_mul(1000);
        if args.payout_max_attempts.or(file.payout_max_attempts).is_some() {
            tracing::warn!(
                "LAJAN_PAYOUT_MAX_ATTEMPTS no longer has an effect: transient errors are retried until they clear, \
                 and a payout unsent past LAJAN_PAYOUT_DELAY_ALERT_SECS raises payout.delayed"
            );
        }
        let delay_alert_secs = args.payout_delay_alert_secs.or(file.payout_delay_alert_secs).unwrap_or(900);
        if delay_alert_secs < 1 {
            anyhow::bail!("LAJAN_PAYOUT_DELAY_ALERT_SECS must be at least 1");
        }
        let payout_delay_alert_ms = i64::try_from(delay_alert_secs).unwrap_or(i64::MAX / 1000).saturating_mul(1000);
        let defaults = WebhookConfig::default();
        let webhooks = WebhookConfig {
            concurrency: args.webhook_concurrency.or(file.webhook_concurrency).unwrap_or(defaults.concurrency),
            endpoint_concurrency: args
                .webhook_endpoint_concurrency
                .or(file.webhook_endpoint_concurrency)
                .unwrap_or(defaults.endpoint_concurrency),
            sandbox_retry_divisor: args
                .sandbox_webhook_retry_divisor
                .or(file.sandbox_webhook_retry_divisor)
                .unwrap_or(defaults.sandbox_retry_divisor),
            lease_ms: args
                .webhook_lease_secs
                .or(file.webhook_lease_secs)
                .map_or(defaults.lease_ms, |secs| i64::try_from(secs.max(1)).unwrap_or(60).saturating_mul(1000)),
            ..defaults
        };
        if webhooks.concurrency == 0 || webhooks.endpoint_concurrency == 0 {
            anyhow::bail!("LAJAN_WEBHOOK_CONCURRENCY and LAJAN_WEBHOOK_ENDPOINT_CONCURRENCY must be at least 1");
        }
        if !(1..=100_000).contains(&webhooks.sandbox_retry_divisor) {
            anyhow::bail!("LAJAN_SANDBOX_WEBHOOK_RETRY_DIVISOR must be between 1 and 100000");
        }
        let auth_cache_ms = args.auth_cache_ms.or(file.auth_cache_ms).unwrap_or(1000);
        if auth_cache_ms > 60_000 {
            anyhow::bail!("LAJAN_AUTH_CACHE_MS must be at most 60000 (a revoked key works until its entry expires)");
        }
        let pay_miss_limit = args.pay_miss_limit.or(file.pay_miss_limit).unwrap_or(30);
        let code_miss_limit = args.code_miss_limit.or(file.code_miss_limit).unwrap_or(30);
        let deposit_limit = args.deposit_limit.or(file.deposit_limit).unwrap_or(20);
        let password_hash_slots = args.password_hash_slots.or(file.password_hash_slots);
        if password_hash_slots == Some(0) {
            anyhow::bail!("LAJAN_PASSWORD_HASH_SLOTS must be at least 1");
        }
        let close_ms = args.ledger.sandbox_ledger_close_ms.or(file.sandbox_ledger_close_ms).unwrap_or(1000);
        if close_ms == 0 || close_ms > 60_000 {
            anyhow::bail!("LAJAN_SANDBOX_LEDGER_CLOSE_MS must be between 1 and 60000");
        }
        let sandbox_webhooks_private =
            match args.sandbox_webhooks_private.as_deref().or(file.sandbox_webhooks_private.as_deref()) {
                None | Some("refuse") => false,
                Some("allow") => true,
                Some(other) => anyhow::bail!("LAJAN_SANDBOX_WEBHOOKS_PRIVATE must be allow or refuse, got {other:?}"),
            };
        let proxies = args.trusted_proxies.clone().unwrap_or_else(|| file.trusted_proxies.join(","));
        let trusted_proxies =
            parse_trusted_proxies(&proxies).map_err(|e| anyhow::anyhow!("LAJAN_TRUSTED_PROXIES: {e}"))?;
        let live_ledger = live_ledger_config(&args.ledger, &file)?;
        if let Some(live) = &live_ledger
            && lease_secs < live.tx_timeout_secs + 60
        {
            // A lease shorter than a submission's life would let a second executor resume a
            // payout whose first executor is still waiting on Horizon.
            anyhow::bail!(
                "LAJAN_PAYOUT_LEASE_SECS ({lease_secs}) must be at least LAJAN_LIVE_TX_TIMEOUT_SECS + 60 ({})",
                live.tx_timeout_secs + 60
            );
        }
        let smtp = smtp_config(&args.notify, &file)?;
        let sms = sms_config(&args.notify, &file)?;
        for (code, issuer) in &file.live_asset_issuers {
            lajan_domain::client::WalletAddress::parse(issuer)
                .map_err(|e| anyhow::anyhow!("live_asset_issuers.{code}: {e}"))?;
        }
        let grace = args.shutdown_grace_secs.or(file.shutdown_grace_secs).unwrap_or(20);
        let group_commit = group_commit(args, &file)?;
        Ok(ServeConfig {
            listen,
            metrics_listen,
            shutdown_grace: Duration::from_secs(grace),
            database_url: database_url(cli, &file),
            group_commit,
            app: AppConfig {
                rate_limits,
                redis_url,
                auth_cache_ms,
                pay_miss_limit,
                code_miss_limit,
                deposit_limit,
                connections: connection_limits(args, &file)?,
                trusted_proxies,
            },
            services: ServiceConfig {
                public_url,
                live_asset_issuers: file.live_asset_issuers.clone(),
                sandbox_ledger_close_ms: i64::try_from(close_ms).unwrap_or(1000),
                live_ledger,
                sandbox_webhooks_private,
                signing_secret: signing_secret(&args.ledger, &file)?,
                // The callbacks the sending account signs are the only receipts believed.
                sms_account: sms
                    .as_ref()
                    .map(|s| SmsAccount { account_sid: s.account_sid.clone(), auth_token: s.auth_token.clone() }),
                password_hash_slots,
                ..ServiceConfig::default()
            },
            workers: WorkerConfig {
                intervals,
                payout_delay_alert_ms,
                payout_lease_ms,
                smtp,
                sms,
                webhooks,
                ..WorkerConfig::default()
            },
        })
    }
}

const NOTIFY_TIMEOUT: Duration = Duration::from_secs(30);

/// 0.001 XLM per operation: a hundred times the network minimum, enough for ordinary surge
/// pricing, small against any payout worth making.
const DEFAULT_LIVE_MAX_FEE: u32 = 10_000;

fn live_ledger_config(a: &LedgerArgs, f: &FileConfig) -> anyhow::Result<Option<LiveLedgerConfig>> {
    let Some(horizon_url) = a.live_horizon_url.clone().or(f.live_horizon_url.clone()) else { return Ok(None) };
    let distribution_secret = a
        .live_distribution_secret
        .clone()
        .map(SecretString::from)
        .or(f.live_distribution_secret.clone())
        .context("LAJAN_LIVE_DISTRIBUTION_SECRET is required with LAJAN_LIVE_HORIZON_URL")?;
    let base_fee = a.live_base_fee.or(f.live_base_fee).unwrap_or(100);
    if base_fee < 100 {
        anyhow::bail!("LAJAN_LIVE_BASE_FEE must be at least 100 stroops, the network minimum");
    }
    let max_fee = a.live_max_fee.or(f.live_max_fee).unwrap_or(DEFAULT_LIVE_MAX_FEE.max(base_fee));
    if max_fee < base_fee {
        anyhow::bail!("LAJAN_LIVE_MAX_FEE ({max_fee}) must be at least LAJAN_LIVE_BASE_FEE ({base_fee})");
    }
    let tx_timeout_secs = a.live_tx_timeout_secs.or(f.live_tx_timeout_secs).unwrap_or(60);
    if !(10..=3600).contains(&tx_timeout_secs) {
        anyhow::bail!("LAJAN_LIVE_TX_TIMEOUT_SECS must be between 10 and 3600");
    }
    Ok(Some(LiveLedgerConfig {
        horizon_url,
        network_passphrase: a
            .live_network_passphrase
            .clone()
            .or(f.live_network_passphrase.clone())
            .unwrap_or_else(|| PUBLIC_NETWORK_PASSPHRASE.to_owned()),
        distribution_secret,
        channel_secrets: channel_secrets(a, f),
        receiving_account: a.live_receiving_account.clone().or(f.live_receiving_account.clone()),
        base_fee,
        max_fee,
        tx_timeout_secs,
    }))
}

/// The live SEP-10 signing seed, checked to be one (its error never repeats it).
fn signing_secret(a: &LedgerArgs, f: &FileConfig) -> anyhow::Result<Option<SecretString>> {
    let Some(secret) = a.sep10_signing_secret.clone().map(SecretString::from).or(f.sep10_signing_secret.clone()) else {
        return Ok(None);
    };
    lajan_ledger::stellar::account_of_secret(&secret)
        .map_err(|e| anyhow::anyhow!("LAJAN_SEP10_SIGNING_SECRET: {e}"))?;
    Ok(Some(secret))
}

/// The channel accounts' seeds: the flag or variable (comma-separated) over the file's list.
fn channel_secrets(a: &LedgerArgs, f: &FileConfig) -> Vec<SecretString> {
    match &a.live_channel_secrets {
        Some(list) => list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(SecretString::from).collect(),
        None => f.live_channel_secrets.clone(),
    }
}

fn smtp_config(a: &NotifyArgs, f: &FileConfig) -> anyhow::Result<Option<SmtpConfig>> {
    let Some(host) = a.smtp_host.clone().or(f.smtp_host.clone()) else { return Ok(None) };
    let tls = match a.smtp_tls.as_deref().or(f.smtp_tls.as_deref()).unwrap_or("starttls") {
        "none" => SmtpTls::None,
        "starttls" => SmtpTls::StartTls,
        "tls" => SmtpTls::Tls,
        other => anyhow::bail!("LAJAN_SMTP_TLS must be none, starttls or tls, got {other:?}"),
    };
    let default_port = match tls {
        SmtpTls::None => 25,
        SmtpTls::StartTls => 587,
        SmtpTls::Tls => 465,
    };
    let from =
        a.smtp_from.clone().or(f.smtp_from.clone()).context("LAJAN_SMTP_FROM is required with LAJAN_SMTP_HOST")?;
    Ok(Some(SmtpConfig {
        host,
        port: a.smtp_port.or(f.smtp_port).unwrap_or(default_port),
        tls,
        username: a.smtp_username.clone().or(f.smtp_username.clone()),
        password: a.smtp_password.clone().map(SecretString::from).or(f.smtp_password.clone()),
        from,
        timeout: NOTIFY_TIMEOUT,
    }))
}

fn sms_config(a: &NotifyArgs, f: &FileConfig) -> anyhow::Result<Option<SmsConfig>> {
    let Some(base_url) = a.sms_base_url.clone().or(f.sms_base_url.clone()) else { return Ok(None) };
    let need = |v: Option<String>, name: &str| v.with_context(|| format!("{name} is required with LAJAN_SMS_BASE_URL"));
    Ok(Some(SmsConfig {
        base_url,
        account_sid: need(a.sms_account.clone().or(f.sms_account.clone()), "LAJAN_SMS_ACCOUNT")?,
        auth_token: a
            .sms_token
            .clone()
            .map(SecretString::from)
            .or(f.sms_token.clone())
            .context("LAJAN_SMS_TOKEN is required with LAJAN_SMS_BASE_URL")?,
        from: need(a.sms_from.clone().or(f.sms_from.clone()), "LAJAN_SMS_FROM")?,
        timeout: NOTIFY_TIMEOUT,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn serve_args(cli: &Cli) -> &ServeArgs {
        match &cli.command {
            crate::cli::Command::Serve(a) => a,
            _ => panic!("not serve"),
        }
    }

    #[test]
    fn flags_beat_file_beat_defaults_and_secrets_stay_hidden() {
        let cli =
            Cli::parse_from(["lajan", "serve", "--listen", "127.0.0.1:9000", "--database-url", "postgres://u:pw@h/db"]);
        let file: FileConfig = toml::from_str(concat!(
            "listen = '0.0.0.0:1'\nrate_limit_standard = 5\nredis_url = 'redis://:pw@h'\n",
            "smtp_host = 'mail.example.ht'\nsmtp_from = 'billing@example.ht'\nsmtp_password = 'pw'\n",
            "sms_base_url = 'https://sms.example'\nsms_account = 'AC1'\nsms_token = 'pw'\nsms_from = '+1500'\n",
            "overdue_interval_secs = 5\n",
            "live_horizon_url = 'https://horizon.example'\nlive_distribution_secret = 'SBpw'\n"
        ))
        .unwrap();
        let cfg = ServeConfig::resolve(&cli, serve_args(&cli), file).unwrap();
        assert_eq!(cfg.listen.to_string(), "127.0.0.1:9000");
        assert_eq!(cfg.services.public_url, "http://127.0.0.1:9000");
        assert_eq!(cfg.app.rate_limits.standard, 5);
        assert_eq!(cfg.app.rate_limits.enterprise, 300);
        assert_eq!(cfg.workers.intervals.overdue, Duration::from_secs(5));
        let smtp = cfg.workers.smtp.as_ref().unwrap();
        assert_eq!((smtp.host.as_str(), smtp.port), ("mail.example.ht", 587));
        assert_eq!(cfg.workers.sms.as_ref().unwrap().account_sid, "AC1");
        assert_eq!(cfg.services.sms_account.as_ref().map(|a| a.account_sid.as_str()), Some("AC1"));
        let live = cfg.services.live_ledger.as_ref().unwrap();
        assert_eq!((live.network_passphrase.as_str(), live.base_fee), (PUBLIC_NETWORK_PASSPHRASE, 100));
        let debug = format!("{cfg:?}");
        assert!(!debug.contains("pw"), "secrets leak into Debug: {debug}");
        let defaults = Cli::parse_from(["lajan", "serve"]);
        let cfg = ServeConfig::resolve(&defaults, serve_args(&defaults), FileConfig::default()).unwrap();
        assert_eq!(cfg.listen.to_string(), DEFAULT_LISTEN);
        assert_eq!(cfg.database_url.expose_secret(), DEFAULT_DATABASE_URL);
        assert_eq!(cfg.app.auth_cache_ms, 1000);
        let no_cache = Cli::parse_from(["lajan", "serve", "--auth-cache-ms", "0"]);
        let cfg = ServeConfig::resolve(&no_cache, serve_args(&no_cache), FileConfig::default()).unwrap();
        assert_eq!(cfg.app.auth_cache_ms, 0);
    }

    #[test]
    fn channel_secrets_come_from_the_flag_over_the_file_and_stay_hidden() {
        let file =
            "live_horizon_url = 'https://h'\nlive_distribution_secret = 'Sd'\nlive_channel_secrets = ['Spw1', 'Spw2']";
        let from_file = |cli: &Cli| {
            let cfg = ServeConfig::resolve(cli, serve_args(cli), toml::from_str(file).unwrap()).unwrap();
            let live = cfg.services.live_ledger.clone().unwrap();
            assert!(!format!("{cfg:?}").contains("Spw"), "channel secrets leak into Debug");
            live.channel_secrets.iter().map(|s| s.expose_secret().to_owned()).collect::<Vec<_>>()
        };
        assert_eq!(from_file(&Cli::parse_from(["lajan", "serve"])), ["Spw1", "Spw2"]);
        let flag = Cli::parse_from(["lajan", "serve", "--live-channel-secrets", " Spw3, ,Spw4 "]);
        assert_eq!(from_file(&flag), ["Spw3", "Spw4"], "the flag wins; blanks are dropped");
    }

    #[test]
    fn bad_values_fail_with_context() {
        let cli = Cli::parse_from(["lajan", "serve", "--listen", "nowhere"]);
        assert!(ServeConfig::resolve(&cli, serve_args(&cli), FileConfig::default()).is_err());
        assert!(toml::from_str::<FileConfig>("typo = 1").is_err());
        let half: FileConfig = toml::from_str("sms_base_url = 'https://sms.example'").unwrap();
        let cli = Cli::parse_from(["lajan", "serve"]);
        let err = ServeConfig::resolve(&cli, serve_args(&cli), half).unwrap_err();
        assert!(err.to_string().contains("LAJAN_SMS_ACCOUNT"), "{err}");
        let no_secret: FileConfig = toml::from_str("live_horizon_url = 'https://horizon.example'").unwrap();
        let err = ServeConfig::resolve(&cli, serve_args(&cli), no_secret).unwrap_err();
        assert!(err.to_string().contains("LAJAN_LIVE_DISTRIBUTION_SECRET"), "{err}");
        let short_lease: FileConfig =
            toml::from_str("live_horizon_url = 'https://h'\nlive_distribution_secret = 'S'\npayout_lease_secs = 30")
                .unwrap();
        let err = ServeConfig::resolve(&cli, serve_args(&cli), short_lease).unwrap_err();
        assert!(err.to_string().contains("LAJAN_PAYOUT_LEASE_SECS"), "{err}");
        // A revoked key would keep working for as long as the cache trusts it.
        let long_cache: FileConfig = toml::from_str("auth_cache_ms = 60001").unwrap();
        let err = ServeConfig::resolve(&cli, serve_args(&cli), long_cache).unwrap_err();
        assert!(err.to_string().contains("LAJAN_AUTH_CACHE_MS"), "{err}");
    }
}
