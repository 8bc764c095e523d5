//! Resolving configuration: flags and `LAJAN_*` env (via clap), then the optional TOML file,
//! then defaults. Secrets (database and Redis URLs) are wrapped so `Debug` never shows them.

use crate::cli::{Cli, ServeArgs};
use anyhow::Context;
use lajan_api::AppConfig;
use lajan_api::ratelimit::TierLimits;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use std::net::SocketAddr;

pub const DEFAULT_DATABASE_URL: &str = "sqlite://lajan.db";
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// The TOML file's keys, all optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub listen: Option<String>,
    pub database_url: Option<SecretString>,
    pub public_url: Option<String>,
    pub rate_limit_standard: Option<u64>,
    pub rate_limit_enterprise: Option<u64>,
    pub redis_url: Option<SecretString>,
}

impl FileConfig {
    pub fn load(cli: &Cli) -> anyhow::Result<Self> {
        let Some(path) = &cli.config else { return Ok(FileConfig::default()) };
        let text = std::fs::read_to_string(path).with_context(|| format!("reading config file {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("parsing config file {}", path.display()))
    }
}

pub fn database_url(cli: &Cli, file: &FileConfig) -> SecretString {
    cli.database_url
        .clone()
        .map(SecretString::from)
        .or_else(|| file.database_url.clone())
        .unwrap_or_else(|| SecretString::from(DEFAULT_DATABASE_URL))
}

/// Everything `serve` needs.
#[derive(Debug)]
pub struct ServeConfig {
    pub listen: SocketAddr,
    pub database_url: SecretString,
    pub app: AppConfig,
}

impl ServeConfig {
    pub fn resolve(cli: &Cli, args: &ServeArgs, file: FileConfig) -> anyhow::Result<Self> {
        let listen_raw = args.listen.clone().or(file.listen.clone()).unwrap_or_else(|| DEFAULT_LISTEN.into());
        let listen: SocketAddr = listen_raw
            .parse()
            .with_context(|| format!("--listen / LAJAN_LISTEN {listen_raw:?} is not an address like 127.0.0.1:8080"))?;
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
        Ok(ServeConfig {
            listen,
            database_url: database_url(cli, &file),
            app: AppConfig { public_url, rate_limits, redis_url, ..AppConfig::default() },
        })
    }
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
        let file: FileConfig =
            toml::from_str("listen = '0.0.0.0:1'\nrate_limit_standard = 5\nredis_url = 'redis://:pw@h'").unwrap();
        let cfg = ServeConfig::resolve(&cli, serve_args(&cli), file).unwrap();
        assert_eq!(cfg.listen.to_string(), "127.0.0.1:9000");
        assert_eq!(cfg.app.public_url, "http://127.0.0.1:9000");
        assert_eq!(cfg.app.rate_limits.standard, 5);
        assert_eq!(cfg.app.rate_limits.enterprise, 300);
        let debug = format!("{cfg:?}");
        assert!(!debug.contains("pw"), "secrets leak into Debug: {debug}");
        let defaults = Cli::parse_from(["lajan", "serve"]);
        let cfg = ServeConfig::resolve(&defaults, serve_args(&defaults), FileConfig::default()).unwrap();
        assert_eq!(cfg.listen.to_string(), DEFAULT_LISTEN);
        assert_eq!(cfg.database_url.expose_secret(), DEFAULT_DATABASE_URL);
    }

    #[test]
    fn bad_values_fail_with_context() {
        let cli = Cli::parse_from(["lajan", "serve", "--listen", "nowhere"]);
        assert!(ServeConfig::resolve(&cli, serve_args(&cli), FileConfig::default()).is_err());
        assert!(toml::from_str::<FileConfig>("typo = 1").is_err());
    }
}
