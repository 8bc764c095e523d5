//! Command-line flags. Each flag has a `LAJAN_*` environment twin; a TOML file (`--config`)
//! fills what neither gives; defaults are in `config.rs`.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(name = "lajan", version, about = "Lajan: invoices and Stellar payouts for organizations")]
pub(crate) struct Cli {
    /// Optional TOML configuration file.
    #[arg(long, env = "LAJAN_CONFIG", global = true)]
    pub config: Option<PathBuf>,

    /// Database URL: sqlite://FILE (default sqlite://lajan.db) or postgres://...
    #[arg(long, env = "LAJAN_DATABASE_URL", global = true, hide_env_values = true)]
    pub database_url: Option<String>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the API and the workers (applies migrations; on an empty database creates
    /// organization "Default" and prints a sandbox key once). With --no-workers, the API only.
    Serve(Box<ServeArgs>),
    /// Run the workers only: payout executor, payment watchers, overdue job, notification sender
    /// and housekeeping. Takes the same settings as serve; it binds nothing, but give it the same
    /// --public-url as the API processes (payment pages in events). On PostgreSQL any number of
    /// API and worker processes can share one database.
    Worker(Box<ServeArgs>),
    /// Apply database migrations and exit.
    Migrate,
    /// Copy a SQLite database into a new file, consistently, while servers keep writing to it
    /// (restoring is copying the file back with every process stopped). PostgreSQL: pg_dump.
    Backup {
        /// The copy's path; it must not exist yet.
        #[arg(long)]
        to: std::path::PathBuf,
    },
    /// Check the configuration `serve` would run with.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Manage organizations.
    #[command(subcommand)]
    Orgs(OrgsCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Manage console users (finance staff who sign in to /console).
    #[command(subcommand)]
    Users(UsersCommand),
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Serve HTTP only, leaving background work to `lajan worker` processes.
    #[arg(long, env = "LAJAN_NO_WORKERS")]
    pub no_workers: bool,

    /// Address to listen on (default 127.0.0.1:8080).
    #[arg(long, env = "LAJAN_LISTEN")]
    pub listen: Option<String>,

    /// Address of the Prometheus metrics listener, `GET /metrics` (default 127.0.0.1:9464;
    /// `off` serves none). Each process on a host needs its own.
    #[arg(long, env = "LAJAN_METRICS_LISTEN")]
    pub metrics_listen: Option<String>,

    /// Base URL of payment-page links (default http://<listen>).
    #[arg(long, env = "LAJAN_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Requests per minute per organization and environment, Standard tier (default 60).
    #[arg(long, env = "LAJAN_RATE_LIMIT_STANDARD")]
    pub rate_limit_standard: Option<u64>,

    /// Requests per minute per organization and environment, Enterprise tier (default 300).
    #[arg(long, env = "LAJAN_RATE_LIMIT_ENTERPRISE")]
    pub rate_limit_enterprise: Option<u64>,

    /// Redis URL for rate-limit counters shared by several processes (redis://...).
    #[arg(long, env = "LAJAN_REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,

    /// Seconds between runs of the job that marks past-due invoices overdue (default 60).
    #[arg(long, env = "LAJAN_OVERDUE_INTERVAL_SECS")]
    pub overdue_interval_secs: Option<u64>,

    /// Seconds a stopping process (SIGTERM or SIGINT) gives the requests it accepted and its
    /// workers' current steps before it exits anyway (default 20).
    #[arg(long, env = "LAJAN_SHUTDOWN_GRACE_SECS")]
    pub shutdown_grace_secs: Option<u64>,

    /// SQLite: units of work committed together at most, one fsync for all of them (default
    /// 256; 1 commits each alone).
    #[arg(long, env = "LAJAN_SQLITE_COMMIT_UNITS")]
    pub sqlite_commit_units: Option<usize>,

    /// SQLite: milliseconds a group commit waits at most for the units queued behind its first
    /// (default 5). Nothing waits when nothing is queued.
    #[arg(long, env = "LAJAN_SQLITE_COMMIT_WAIT_MS")]
    pub sqlite_commit_wait_ms: Option<u64>,

    /// Seconds a claimed payout stays with its executor; a crashed executor's payouts resume
    /// after this (default 120).
    #[arg(long, env = "LAJAN_PAYOUT_LEASE_SECS")]
    pub payout_lease_secs: Option<u64>,

    /// Milliseconds a resolved API key is trusted before the database is asked again; a revoked
    /// key stops working on a running server within this (default 1000; 0 asks every time).
    #[arg(long, env = "LAJAN_AUTH_CACHE_MS")]
    pub auth_cache_ms: Option<u64>,

    /// Payment pages that do not exist a client address may ask for per minute before every
    /// `/pay` page answers it 429 until the minute ends (default 30; 0 turns the limit off).
    #[arg(long, env = "LAJAN_PAY_MISS_LIMIT")]
    pub pay_miss_limit: Option<u64>,

    /// Wrong registration codes a client address may give per hour, on every registration and
    /// deposit page together, before those pages answer it 429 (default 30; 0 turns it off).
    #[arg(long, env = "LAJAN_CODE_MISS_LIMIT")]
    pub code_miss_limit: Option<u64>,

    /// SEP-24 deposits (wallet registrations) one client address may start per hour, whatever
    /// its accounts, before the next answers 429 (default 20; 0 turns it off).
    #[arg(long, env = "LAJAN_DEPOSIT_LIMIT")]
    pub deposit_limit: Option<u64>,

    /// Argon2 password hashes run at once (default: one per CPU); four times as many wait, and
    /// a sign-in or a receiver's answer past those answers 429.
    #[arg(long, env = "LAJAN_PASSWORD_HASH_SLOTS")]
    pub password_hash_slots: Option<usize>,

    /// Connections one client address may hold open at once (default 64; 0: no limit); past it
    /// a new one is answered 429 and closed. Behind `LAJAN_TRUSTED_PROXIES`, each forwarded
    /// address's requests in flight are capped instead.
    #[arg(long, env = "LAJAN_MAX_CONNECTIONS_PER_ADDRESS")]
    pub max_connections_per_address: Option<usize>,

    /// Serve HTTP/2 (cleartext, prior knowledge) beside HTTP/1.1 (default off).
    #[arg(long, env = "LAJAN_HTTP2")]
    pub http2: Option<bool>,

    /// Streams one HTTP/2 connection may have open at once (default 32).
    #[arg(long, env = "LAJAN_HTTP2_MAX_STREAMS")]
    pub http2_max_streams: Option<u32>,

    /// Seconds a client has from a request's first byte to its last header, and a new
    /// connection before its first request (default 10).
    #[arg(long, env = "LAJAN_HTTP_HEADER_TIMEOUT_SECS")]
    pub http_header_timeout_secs: Option<u64>,

    /// Seconds an answered connection may wait, silent, for its next request (default 60).
    #[arg(long, env = "LAJAN_HTTP_IDLE_TIMEOUT_SECS")]
    pub http_idle_timeout_secs: Option<u64>,

    /// Seconds a client has to send a request's whole body once its headers arrived (default 30;
    /// 408 after).
    #[arg(long, env = "LAJAN_HTTP_BODY_TIMEOUT_SECS")]
    pub http_body_timeout_secs: Option<u64>,

    /// Connections open at once (default 4096); the next waits until one closes. Keep it below
    /// the process's open-file limit (`ulimit -n`).
    #[arg(long, env = "LAJAN_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,

    /// `allow` lets sandbox webhook endpoints reach private and local addresses (a receiver on
    /// a developer's machine); default `refuse`, as live. Never on a server others can reach.
    #[arg(long, env = "LAJAN_SANDBOX_WEBHOOKS_PRIVATE")]
    pub sandbox_webhooks_private: Option<String>,

    /// Reverse proxies (addresses or CIDRs, comma-separated) whose `X-Forwarded-For` or
    /// `Forwarded` names the client for per-address limits and the log (default none).
    #[arg(long, env = "LAJAN_TRUSTED_PROXIES")]
    pub trusted_proxies: Option<String>,

    /// No longer has an effect (transient errors never fail a payout); accepted so that old
    /// configurations still start, with a warning.
    #[arg(long, env = "LAJAN_PAYOUT_MAX_ATTEMPTS", hide = true)]
    pub payout_max_attempts: Option<i64>,

    /// Seconds an approved payout may stay unsent (after its approval or manual retry) before it
    /// raises `payout.delayed`, once (default 900).
    #[arg(long, env = "LAJAN_PAYOUT_DELAY_ALERT_SECS")]
    pub payout_delay_alert_secs: Option<u64>,

    /// Webhook deliveries in flight at once in this process (default 64).
    #[arg(long, env = "LAJAN_WEBHOOK_CONCURRENCY")]
    pub webhook_concurrency: Option<usize>,

    /// Webhook deliveries in flight at once to one endpoint, per process (default 4).
    #[arg(long, env = "LAJAN_WEBHOOK_ENDPOINT_CONCURRENCY")]
    pub webhook_endpoint_concurrency: Option<usize>,

    /// How long a claimed webhook delivery stays with its process (default 60); a crashed
    /// process's deliveries are sent again after this. Keep it above the 15 s answer timeout.
    #[arg(long, env = "LAJAN_WEBHOOK_LEASE_SECS")]
    pub webhook_lease_secs: Option<u64>,

    /// Sandbox webhook retries wait this many times less than the live schedule (default 1).
    #[arg(long, env = "LAJAN_SANDBOX_WEBHOOK_RETRY_DIVISOR")]
    pub sandbox_webhook_retry_divisor: Option<i64>,

    #[command(flatten)]
    pub notify: NotifyArgs,

    #[command(flatten)]
    pub ledger: LedgerArgs,
}

/// The sandbox network's clock, and the live Stellar network payouts and payments use.
#[derive(Debug, Args, Default)]
pub(crate) struct LedgerArgs {
    /// Milliseconds between sandbox ledger closes (default 1000).
    #[arg(long, env = "LAJAN_SANDBOX_LEDGER_CLOSE_MS")]
    pub sandbox_ledger_close_ms: Option<u64>,
    /// Horizon server for live payouts and payments, e.g. https://horizon.stellar.org. Without it
    /// live payouts wait and live payment pages show no payment instructions.
    #[arg(long, env = "LAJAN_LIVE_HORIZON_URL")]
    pub live_horizon_url: Option<String>,
    /// Network passphrase signed into live transactions (default: the public network's).
    #[arg(long, env = "LAJAN_LIVE_NETWORK_PASSPHRASE")]
    pub live_network_passphrase: Option<String>,
    /// Secret seed (S...) of the account live payouts are paid from. Prefer the environment
    /// variable or the config file to a flag, which other users of the machine can see.
    #[arg(long, env = "LAJAN_LIVE_DISTRIBUTION_SECRET", hide_env_values = true)]
    pub live_distribution_secret: Option<String>,
    /// Secret seed (S...) of the key Lajan signs SEP-10 challenges with on the live network, the
    /// SIGNING_KEY of its stellar.toml (the sandbox makes its own). A key of its own, not the
    /// distribution account's: it only ever signs challenges.
    #[arg(long, env = "LAJAN_SEP10_SIGNING_SECRET", hide_env_values = true)]
    pub sep10_signing_secret: Option<String>,
    /// Secret seeds (S...) of channel accounts, comma-separated: each live payout in flight takes
    /// one as its transaction's source, so payouts are not paid one per ledger (see
    /// docs/payouts.md). Without them every transaction's source is the distribution account.
    #[arg(long, env = "LAJAN_LIVE_CHANNEL_SECRETS", hide_env_values = true)]
    pub live_channel_secrets: Option<String>,
    /// Account (G...) customers pay live invoices into (default: the distribution account).
    #[arg(long, env = "LAJAN_LIVE_RECEIVING_ACCOUNT")]
    pub live_receiving_account: Option<String>,
    /// Fee per operation in stroops (default 100, the network minimum).
    #[arg(long, env = "LAJAN_LIVE_BASE_FEE")]
    pub live_base_fee: Option<u32>,
    /// Most a rebuilt transaction offers per operation after a fee refusal, in stroops
    /// (default 10000; the fee doubles per rebuild up to this).
    #[arg(long, env = "LAJAN_LIVE_MAX_FEE")]
    pub live_max_fee: Option<u32>,
    /// Seconds a live transaction stays valid (its max_time; default 60).
    #[arg(long, env = "LAJAN_LIVE_TX_TIMEOUT_SECS")]
    pub live_tx_timeout_secs: Option<u64>,
}

/// Where live invoice email and SMS go. Sandbox messages never leave the machine.
#[derive(Debug, Args, Default)]
pub(crate) struct NotifyArgs {
    /// SMTP server for live invoice email; without it live email fails as "not configured".
    #[arg(long, env = "LAJAN_SMTP_HOST")]
    pub smtp_host: Option<String>,
    /// SMTP port (default 587, or 465 with --smtp-tls tls, or 25 with none).
    #[arg(long, env = "LAJAN_SMTP_PORT")]
    pub smtp_port: Option<u16>,
    /// none, starttls (default) or tls.
    #[arg(long, env = "LAJAN_SMTP_TLS")]
    pub smtp_tls: Option<String>,
    #[arg(long, env = "LAJAN_SMTP_USERNAME")]
    pub smtp_username: Option<String>,
    #[arg(long, env = "LAJAN_SMTP_PASSWORD", hide_env_values = true)]
    pub smtp_password: Option<String>,
    /// The From address, e.g. "Fonkoze <billing@fonkoze.ht>".
    #[arg(long, env = "LAJAN_SMTP_FROM")]
    pub smtp_from: Option<String>,
    /// Base URL of a Twilio-compatible SMS API, e.g. https://api.twilio.com.
    #[arg(long, env = "LAJAN_SMS_BASE_URL")]
    pub sms_base_url: Option<String>,
    #[arg(long, env = "LAJAN_SMS_ACCOUNT")]
    pub sms_account: Option<String>,
    #[arg(long, env = "LAJAN_SMS_TOKEN", hide_env_values = true)]
    pub sms_token: Option<String>,
    /// The sender number or id, e.g. +15005550006.
    #[arg(long, env = "LAJAN_SMS_FROM")]
    pub sms_from: Option<String>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum OrgsCommand {
    /// Create an organization; prints only its id on stdout.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "standard", value_parser = ["standard", "enterprise"])]
        tier: String,
    },
    /// List organizations.
    List,
    /// Change the name payers see on the payment page, in emails and in SMS.
    Rename {
        /// Organization id; may be left out when there is exactly one organization.
        #[arg(long)]
        org: Option<String>,
        #[arg(long)]
        name: String,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Resolve the configuration from flags, environment and file as `serve` does; print it
    /// with secrets redacted and exit 0, or exit non-zero saying what is wrong. Opens nothing.
    Check(Box<ServeArgs>),
}

#[derive(Debug, Subcommand)]
pub(crate) enum KeysCommand {
    /// Create a key; prints only the secret on stdout (details on stderr). Shown once.
    Create {
        #[arg(long, value_parser = ["test", "live"])]
        env: String,
        /// Organization id; may be left out when there is exactly one organization.
        #[arg(long)]
        org: Option<String>,
        /// A scope: *, <area>:read, <area>:write or payouts:approve. Repeatable. Default *.
        #[arg(long = "scope")]
        scopes: Vec<String>,
        /// What the key is for, as lists show it.
        #[arg(long, default_value = "created with the CLI")]
        name: String,
    },
    /// List keys (never their secrets).
    List {
        #[arg(long)]
        org: Option<String>,
    },
    /// Revoke a key by id (key_...).
    Revoke { key_id: String },
}

#[derive(Debug, Subcommand)]
pub(crate) enum UsersCommand {
    /// Create a console user. Without --password-stdin a password is generated and printed once
    /// on stdout (details on stderr).
    Create {
        /// The address they sign in with; one user per address.
        #[arg(long)]
        email: String,
        #[arg(long, value_parser = ["viewer", "maker", "approver", "admin"])]
        role: String,
        /// Organization id; may be left out when there is exactly one organization.
        #[arg(long)]
        org: Option<String>,
        #[arg(long)]
        name: Option<String>,
        /// Read the password from stdin (at least 12 characters; one trailing newline is dropped).
        #[arg(long)]
        password_stdin: bool,
    },
    /// List console users (never their passwords).
    List {
        #[arg(long)]
        org: Option<String>,
    },
    /// Disable a user: they can no longer sign in.
    Disable {
        #[arg(long)]
        email: String,
    },
}
