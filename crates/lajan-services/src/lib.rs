//! Lajan's use cases, between the routes and workers above and the store and ledgers below.
//!
//! Each change is one method of [`Services`], in the file of its area: it validates, applies the
//! domain rule and commits through one store unit of work, with its event. The views the API answers with are the
//! events' objects ([`views`]), so a route and a worker describe a resource with the same bytes.

pub mod approvals;
pub mod assets;
mod client_domain;
pub mod client_statement;
pub mod clients;
pub mod console;
pub mod credit_balances;
pub mod credit_notes;
pub mod dashboard;
pub mod disbursement_csv;
mod disbursement_receivers;
pub mod disbursements;
pub mod error;
pub mod events;
pub mod failpoint;
pub mod home_domains;
pub mod invitations;
pub mod invoice_payments;
pub mod invoices;
pub mod keys;
pub mod messages;
pub mod metrics;
pub mod nudge;
pub mod orgs;
pub mod password_gate;
pub mod payment_links;
pub mod payments;
pub mod payouts;
pub mod registration;
pub mod reminders;
pub mod report;
pub mod sandbox;
pub mod settings;
pub mod stellar_service;
pub mod users;
pub mod views;
pub mod wallet_auth;
pub mod wallet_deposits;
pub mod wallet_links;
pub mod wallet_registration;
pub mod webhook_guard;
pub mod webhooks;

pub use error::{ServiceError, ServiceResult};
pub use metrics::Metrics;
pub use nudge::Nudges;

use lajan_ledger::live::{ConfigError, LiveLedgerConfig, StellarLedger};
use lajan_ledger::sandbox::SandboxLedger;
use lajan_ledger::{Ledger, Ledgers};
use lajan_store::Store;
use secrecy::SecretString;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use webhook_guard::{HostResolver, SystemResolver};

/// What the use cases need to know about the deployment.
#[derive(Debug, Clone)]
pub struct ServiceConfig {
    /// Base of payment-page links, e.g. `https://pay.example.com`.
    pub public_url: String,
    /// Issuers of credit assets on the live network, by asset code (sandbox issuers are shipped).
    pub live_asset_issuers: BTreeMap<String, String>,
    /// How often the sandbox network closes a ledger.
    pub sandbox_ledger_close_ms: i64,
    /// The live Stellar network; without it live payouts wait and live payments are not watched.
    pub live_ledger: Option<LiveLedgerConfig>,
    /// Resolves live webhook hosts, for the guard at create time and the dispatcher at connect
    /// time (tests give names the answers they need).
    pub resolver: Arc<dyn HostResolver>,
    /// Whether sandbox webhook endpoints may reach private and local addresses (a developer's
    /// receiver on their own machine). Off, the sandbox is guarded as live is, but for https.
    pub sandbox_webhooks_private: bool,
    /// The secret seed of the key Lajan signs SEP-10 challenges with on the live network (the
    /// sandbox's is made and stored at first use). Never logged.
    pub signing_secret: Option<SecretString>,
    /// The SMS provider account whose delivery receipts `/callbacks/sms` accepts (the worker's
    /// sending account); without it the callback answers 404.
    pub sms_account: Option<messages::receipts::SmsAccount>,
    /// Argon2 hashes run at once (`None`: one per CPU); four times as many wait, and a sign-in or
    /// receiver's answer past those is answered 429.
    pub password_hash_slots: Option<usize>,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            public_url: "http://127.0.0.1:8080".into(),
            live_asset_issuers: BTreeMap::new(),
            sandbox_ledger_close_ms: 1000,
            live_ledger: None,
            resolver: Arc::new(SystemResolver::default()),
            sandbox_webhooks_private: false,
            signing_secret: None,
            sms_account: None,
            password_hash_slots: None,
        }
    }
}

/// The use cases, over one store and the ledger of each environment.
pub struct Services {
    pub store: Arc<dyn Store>,
    pub config: ServiceConfig,
    pub ledgers: Ledgers,
    live: Option<Arc<StellarLedger>>,
    sandbox: Arc<SandboxLedger>,
    pub nudges: Nudges,
    pub metrics: Arc<Metrics>,
    /// Keys revoked by this process so far: caches of resolved keys drop what they kept before.
    keys_revoked: AtomicU64,
    /// The sandbox's SEP-10 signing seed, once read from the store.
    sandbox_signing_seed: tokio::sync::OnceCell<SecretString>,
    /// How wallets' `stellar.toml` files are read (SEP-10 `client_domain`).
    wallet_domains: client_domain::WalletDomains,
    /// Every Argon2 hash and check goes through it: a bound on their memory and CPU.
    pub(crate) password_gate: Arc<password_gate::PasswordGate>,
}

impl Services {
    /// `path` (starting with `/`) on Lajan's public address: the links receivers and wallets
    /// are given.
    pub(crate) fn public_link(&self, path: &str) -> String {
        format!("{}{path}", self.config.public_url.trim_end_matches('/'))
    }

    /// Fails when the live ledger's configuration is unusable (e.g. a malformed secret).
    pub fn new(store: Arc<dyn Store>, config: ServiceConfig) -> Result<Self, ConfigError> {
        let live = config.live_ledger.as_ref().map(StellarLedger::new).transpose()?.map(Arc::new);
        let sandbox = Arc::new(SandboxLedger::new(store.clone(), config.sandbox_ledger_close_ms));
        let wallet_domains = client_domain::WalletDomains::new(config.resolver.clone())
            .map_err(|e| ConfigError { setting: "the HTTP client for wallet domains", problem: e.to_string() })?;
        let ledgers =
            Ledgers { sandbox: sandbox.clone() as Arc<dyn Ledger>, live: live.clone().map(|l| l as Arc<dyn Ledger>) };
        let password_gate = Arc::new(match config.password_hash_slots {
            Some(slots) => password_gate::PasswordGate::new(slots),
            None => password_gate::PasswordGate::per_cpu(),
        });
        Ok(Services {
            password_gate,
            store,
            config,
            ledgers,
            live,
            sandbox,
            nudges: Nudges::default(),
            metrics: Arc::default(),
            keys_revoked: AtomicU64::new(0),
            sandbox_signing_seed: tokio::sync::OnceCell::new(),
            wallet_domains,
        })
    }

    /// The live Stellar network, when configured: its receiving account and Horizon.
    pub fn live_ledger(&self) -> Option<&StellarLedger> {
        self.live.as_deref()
    }

    pub fn sandbox_ledger(&self) -> &SandboxLedger {
        &self.sandbox
    }

    /// How many keys this process has revoked; a key resolved before the latest revocation is
    /// looked up again (other processes' revocations reach it within the cache's lifetime).
    pub fn keys_revoked(&self) -> u64 {
        self.keys_revoked.load(Ordering::Acquire)
    }

    fn key_was_revoked(&self) {
        self.keys_revoked.fetch_add(1, Ordering::AcqRel);
    }
}
