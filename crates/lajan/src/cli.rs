//! Command-line flags. Each flag has a `LAJAN_*` environment twin; a TOML file (`--config`)
//! fills what neither gives; defaults are in `config.rs`.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(name = "lajan", version, about = "Lajan: invoices and Stellar payouts for organizations")]
pub struct Cli {
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
pub enum Command {
    /// Run the API (applies migrations; on an empty database creates organization "Default" and
    /// prints a sandbox key once).
    Serve(ServeArgs),
    /// Apply database migrations and exit.
    Migrate,
    /// Manage organizations.
    #[command(subcommand)]
    Orgs(OrgsCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (default 127.0.0.1:8080).
    #[arg(long, env = "LAJAN_LISTEN")]
    pub listen: Option<String>,

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
}

#[derive(Debug, Subcommand)]
pub enum OrgsCommand {
    /// Create an organization; prints only its id on stdout.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "standard", value_parser = ["standard", "enterprise"])]
        tier: String,
    },
    /// List organizations.
    List,
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
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
        #[arg(long, default_value = "")]
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
