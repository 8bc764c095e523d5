//! Lajan's storage: one `Store` trait, implemented for SQLite (the embedded default) and PostgreSQL.
//!
//! Every method is one unit of work: it runs in one transaction, and a change and the event it
//! causes commit together or not at all. Queries are always scoped by a
//! [`Tenant`](lajan_domain::Tenant), so one organization or environment can never read another's
//! rows.
//!
//! Each area (organizations, settings changes, clients, events, idempotency, invoices, payment
//! links, incoming payments, messages, payouts, the sandbox ledger, disbursements, webhooks,
//! deliveries, console users and sessions, the dashboard, operations, wallet authentication, wallet deposits) has a folder: its trait
//! and types in `mod.rs`, its SQL in `sql.rs` (and, for a large area, more `*_sql.rs` beside it),
//! which both backends include through the one list in [`areas_sql!`]: the SQL is written once
//! and compiled against each backend's driver.

use async_trait::async_trait;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Every area's SQL, the same for both backends: each backend module (`postgres.rs`,
/// `sqlite.rs`) invokes this once, after defining what the SQL names (`ThisStore`, `Tx`, `Conn`,
/// `DbRow` and the dialect's macros). The one list of areas: adding an area adds its `sql.rs`
/// here. Macros are in scope only after the file that defines them, so `shared.rs` comes first,
/// `incoming_payments` (its `intent_columns!` and `payment_columns!`) before the areas that
/// join an intent, `payouts/sql.rs` (its `payout_select!`) before the bulk and disbursement
/// files, and `deliveries/sql.rs` before `webhooks/sql.rs`.
macro_rules! areas_sql {
    () => {
        include!("shared.rs");
        include!("search_sql.rs");
        include!("idempotency/sql.rs");
        include!("orgs/sql.rs");
        include!("home_domains/sql.rs");
        include!("settings_changes/sql.rs");
        include!("clients/sql.rs");
        include!("events/sql.rs");
        include!("incoming_payments/sql.rs");
        include!("invoices/sql.rs");
        include!("payment_links/sql.rs");
        include!("messages/sql.rs");
        include!("invitations/sql.rs");
        include!("invitations/registration_sql.rs");
        include!("payouts/sql.rs");
        include!("payouts/sources_sql.rs");
        include!("payouts/batches_sql.rs");
        include!("payouts/alerts_sql.rs");
        include!("payouts/registration_sql.rs");
        include!("payouts/list_sql.rs");
        include!("sandbox/sql.rs");
        include!("disbursements/items_sql.rs");
        include!("disbursements/sql.rs");
        include!("deliveries/answers_sql.rs");
        include!("deliveries/sql.rs");
        include!("webhooks/sql.rs");
        include!("orgs/access_sql.rs");
        include!("users/sql.rs");
        include!("sessions/sql.rs");
        include!("dashboard/sql.rs");
        include!("operations/sql.rs");
        include!("wallet_auth/sql.rs");
        include!("wallet_deposits/sql.rs");
        include!("credit_balances/sql.rs");
        include!("invoice_payments/sql.rs");
        include!("credit_notes/sql.rs");
        include!("reminders/sql.rs");
        include!("reminders/receipts_sql.rs");
    };
}

mod change;
pub mod clients;
pub mod credit_balances;
pub mod credit_notes;
pub mod dashboard;
pub mod deliveries;
pub mod disbursements;
mod error;
pub mod events;
pub mod home_domains;
pub mod idempotency;
pub mod incoming_payments;
pub mod invitations;
pub mod invoice_payments;
pub mod invoices;
pub mod messages;
mod migrations;
pub mod operations;
pub mod orgs;
pub mod payment_links;
pub mod payouts;
pub mod postgres;
mod redact;
pub mod reminders;
pub mod sandbox;
pub mod sessions;
pub mod settings_changes;
pub mod sqlite;
pub mod users;
pub mod wallet_auth;
pub mod wallet_deposits;
pub mod webhooks;

pub use change::{Change, ChangeOf};
pub use clients::{ClientQuery, ClientStore, ClientWallet, WaitingPayouts};
pub use credit_balances::CreditBalanceStore;
pub use credit_notes::CreditNoteStore;
pub use dashboard::{AssetTotal, DashboardStore};
pub use deliveries::{Answered, ClaimLimits, DeliveryStore, DueDelivery};
pub use disbursements::DisbursementStore;
pub use error::{StoreError, watch_contention};
pub use events::{EventFor, EventQuery, EventStore, NewEvent};
pub use home_domains::{HomeDomainProof, HomeDomainStore};
pub use idempotency::{IdempotencyClaim, IdempotencyState, IdempotencyStore, IdempotentResponse, ResponseFor};
pub use incoming_payments::IncomingPaymentStore;
pub use invitations::{
    DueInvitation, InvitationSend, InvitationStore, RegistrationChange, RegistrationProof, RegistrationStore,
};
pub use invoice_payments::InvoicePaymentStore;
pub use invoices::InvoiceStore;
pub use messages::MessageStore;
pub use operations::OperationsStore;
pub use orgs::{HomeDomainOrg, NewApiKey, OrgStore};
pub use payment_links::PaymentLinkStore;
pub use payouts::PayoutStore;
pub use redact::redact_url;
pub use reminders::ReminderStore;
pub use sandbox::SandboxStore;
pub use sessions::{NewSession, SessionStore};
pub use settings_changes::{ChangeDecision, SettingsChangeStore, SettingsDecision, SettingsRule};
pub use sqlite::GroupCommit;
pub use users::UserStore;
pub use wallet_auth::WalletAuthStore;
pub use wallet_deposits::{
    CodeSend, DepositChange, DepositCode, DepositQuery, LinkedDeposit, PageChange, WalletDepositStore,
};
pub use webhooks::WebhookStore;

pub type StoreResult<T> = Result<T, StoreError>;

/// Which database a store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The persistence interface every backend implements: one trait per area, joined here so
/// callers hold one `Arc<dyn Store>` (a supertrait's methods need no import on it). See the
/// crate docs for the guarantees every method keeps.
#[async_trait]
pub trait Store:
    OrgStore
    + ClientStore
    + EventStore
    + IdempotencyStore
    + InvoiceStore
    + PaymentLinkStore
    + IncomingPaymentStore
    + MessageStore
    + InvitationStore
    + RegistrationStore
    + PayoutStore
    + DisbursementStore
    + SandboxStore
    + WebhookStore
    + SettingsChangeStore
    + DeliveryStore
    + UserStore
    + SessionStore
    + DashboardStore
    + OperationsStore
    + WalletAuthStore
    + HomeDomainStore
    + WalletDepositStore
    + InvoicePaymentStore
    + CreditBalanceStore
    + CreditNoteStore
    + ReminderStore
    + Send
    + Sync
    + 'static
{
    fn backend(&self) -> Backend;

    /// Applies pending migrations.
    async fn migrate(&self) -> StoreResult<()>;

    /// A trivial round trip, for readiness checks.
    async fn ping(&self) -> StoreResult<()>;

    /// Copies the whole database, consistent as of one instant, into a new file at `to` while
    /// writers carry on (SQLite's `VACUUM INTO`, on a read connection). `to` must not exist.
    /// PostgreSQL answers `Config`: it is backed up with its own tools (docs/operations.md).
    async fn backup_to(&self, to: &std::path::Path) -> StoreResult<()>;

    /// The migrations this binary carries that the database has not applied (their versions and
    /// descriptions, oldest first): empty when the schema is current.
    async fn pending_migrations(&self) -> StoreResult<Vec<(i64, String)>>;

    /// Closes connections, waiting for writes in flight.
    async fn close(&self);

    /// Fault injection for tests (with the `testing` feature only, as the two hooks below: a
    /// release build has none): the next change to a resource fails just before it commits,
    /// with the `Idempotency-Key` it claimed. Bookkeeping (key usage, answers recorded without a
    /// change, rate-limit windows) is never the one to fail.
    #[cfg(feature = "testing")]
    fn fail_next_commit(&self);

    /// How far a list's total is counted when no count table keeps it (default
    /// [`COUNT_BOUND`](lajan_domain::pagination::COUNT_BOUND)); tests lower it to see a bounded
    /// total without writing ten thousand rows.
    #[cfg(feature = "testing")]
    fn bound_counts_at(&self, bound: u64);

    /// How PostgreSQL tells a common search term (walked newest first) from a rare one (found
    /// through its trigram index): `hits` matches among the list's newest `rows` (default 20 of
    /// 2,000); tests set it to take either way with a few rows. SQLite asks its FTS5 index.
    #[cfg(feature = "testing")]
    fn sample_searches_at(&self, rows: u64, hits: u64);
}

/// The file a `sqlite:` URL names; `None` for any other URL (or one that does not parse, which
/// [`open`] refuses with its reason).
pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    use std::str::FromStr;
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok().filter(|_| url.starts_with("sqlite:"))?;
    Some(options.get_filename().to_path_buf())
}

/// Opens the store a database URL names: `postgres://` or `postgresql://` selects PostgreSQL,
/// `sqlite:` the embedded SQLite file (created when missing).
pub async fn open(url: &str) -> StoreResult<Arc<dyn Store>> {
    open_with(url, GroupCommit::default()).await
}

/// [`open`], with SQLite's group commit bounded by `group_commit` (PostgreSQL ignores it).
pub async fn open_with(url: &str, group_commit: GroupCommit) -> StoreResult<Arc<dyn Store>> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(postgres::PgStore::connect(url).await?))
    } else if url.starts_with("sqlite:") {
        Ok(Arc::new(sqlite::SqliteStore::connect_with(url, group_commit).await?))
    } else {
        Err(StoreError::Config(format!(
            "unsupported database URL {:?}: use sqlite://FILE or postgres://...",
            redact_url(url)
        )))
    }
}

/// A one-shot switch that makes the next commit fail (see [`Store::fail_next_commit`]).
#[derive(Debug, Default)]
pub(crate) struct FailPoint(AtomicBool);

impl FailPoint {
    #[cfg(feature = "testing")]
    pub(crate) fn arm(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub(crate) fn check(&self) -> StoreResult<()> {
        if self.0.swap(false, Ordering::SeqCst) { Err(StoreError::Injected) } else { Ok(()) }
    }
}

/// How far a total no count table keeps is counted (see [`Store::bound_counts_at`]), and how
/// PostgreSQL judges a search term common (see [`Store::sample_searches_at`]).
#[derive(Debug)]
pub(crate) struct ListBounds {
    count: std::sync::atomic::AtomicU64,
    sample_rows: std::sync::atomic::AtomicU64,
    sample_hits: std::sync::atomic::AtomicU64,
}

impl Default for ListBounds {
    fn default() -> Self {
        use std::sync::atomic::AtomicU64;
        ListBounds {
            count: AtomicU64::new(lajan_domain::pagination::COUNT_BOUND),
            // One row in a hundred of the newest two thousand: a walk then meets a page of
            // matches within a few thousand rows.
            sample_rows: AtomicU64::new(2_000),
            sample_hits: AtomicU64::new(20),
        }
    }
}

impl ListBounds {
    pub(crate) fn get(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    #[cfg(feature = "testing")]
    pub(crate) fn set(&self, bound: u64) {
        self.count.store(bound, Ordering::Relaxed);
    }

    /// (rows, hits): a term that `hits` of the list's newest `rows` match is common.
    pub(crate) fn sample(&self) -> (u64, u64) {
        (self.sample_rows.load(Ordering::Relaxed), self.sample_hits.load(Ordering::Relaxed))
    }

    #[cfg(feature = "testing")]
    pub(crate) fn set_sample(&self, rows: u64, hits: u64) {
        self.sample_rows.store(rows, Ordering::Relaxed);
        self.sample_hits.store(hits, Ordering::Relaxed);
    }
}

#[cfg(feature = "testing")]
pub mod testing;
