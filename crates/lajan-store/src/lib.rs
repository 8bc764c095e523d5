//! Lajan's storage: one `Store` trait, implemented for SQLite (the embedded default) and PostgreSQL.
//!
//! Every method is one unit of work: it runs in one transaction, and a change and the event it
//! causes commit together or not at all. Queries are always scoped by a [`Tenant`], so one
//! organization or environment can never read another's rows.

use async_trait::async_trait;
use lajan_domain::apikey::ApiKey;
use lajan_domain::client::{Client, ClientPatch};
use lajan_domain::event::Event;
use lajan_domain::org::Organization;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::settings::Settings;
use lajan_domain::{Tenant, Timestamp};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

mod error;
pub mod invoices;
pub mod payouts;
pub mod postgres;
pub mod sqlite;

pub use error::StoreError;
pub use invoices::{InvoiceStore, MessageStore};
pub use payouts::PayoutStore;

pub type StoreResult<T> = Result<T, StoreError>;

/// Which database a store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// An event to record alongside a change: its type and the resource as the API shows it.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub event_type: &'static str,
    pub object: serde_json::Value,
}

/// Builds the event for a change from the changed resource, inside the change's transaction.
pub type EventFor<'a, T> = &'a (dyn Fn(&T) -> NewEvent + Send + Sync);

/// Builds the response body an idempotent request will replay, from the result of its
/// transaction, so the key is recorded in that same transaction.
pub type ResponseFor<'a, T> = &'a (dyn Fn(&T) -> Vec<u8> + Send + Sync);

/// An `Idempotency-Key` a request carries: it is claimed by the transaction that makes the
/// request's change, never before, so a request that dies leaves the key free and one that
/// commits leaves its response behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyClaim {
    pub key: String,
    /// Digest of the request (method, path, body): the same key with another request is refused.
    pub request_hash: String,
    pub at: Timestamp,
    /// How long the recorded response is replayed.
    pub ttl_ms: i64,
}

/// What to record under a claimed key with the change: the status and how to render the body.
pub struct IdempotentResponse<'a, T> {
    pub claim: &'a IdempotencyClaim,
    pub status: u16,
    pub body: ResponseFor<'a, T>,
}

/// Filters for the clients list.
#[derive(Debug, Clone, Default)]
pub struct ClientQuery {
    /// Matches name, email, phone number or wallet address, case-insensitively.
    pub search: Option<String>,
    pub page: PageRequest,
}

/// Filters for the events list.
#[derive(Debug, Clone, Default)]
pub struct EventQuery {
    pub event_type: Option<String>,
    pub page: PageRequest,
}

/// What an `Idempotency-Key` holds for a new request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdempotencyState {
    /// Unused or expired: the request runs and records its response with its change.
    Free,
    /// A request with this key committed: replay its response.
    Replay { status: u16, body: Vec<u8> },
    /// The key was used with a different request.
    Mismatch,
}

/// A fresh API key to store: the record and the SHA-256 hex digest of its secret.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    pub key: ApiKey,
    pub secret_hash: String,
}

/// The persistence interface every backend implements. See the crate docs for its guarantees.
#[async_trait]
pub trait Store: InvoiceStore + MessageStore + PayoutStore + Send + Sync + 'static {
    fn backend(&self) -> Backend;

    /// Applies pending migrations.
    async fn migrate(&self) -> StoreResult<()>;

    /// A trivial round trip, for readiness checks.
    async fn ping(&self) -> StoreResult<()>;

    /// Closes connections, waiting for writes in flight.
    async fn close(&self);

    // Organizations and keys.

    async fn create_organization(&self, org: &Organization) -> StoreResult<()>;
    async fn list_organizations(&self) -> StoreResult<Vec<Organization>>;
    async fn get_organization(&self, id: &str) -> StoreResult<Option<Organization>>;
    /// On an empty database, creates `org` and `key` and returns true; otherwise does nothing.
    async fn bootstrap(&self, org: &Organization, key: &NewApiKey) -> StoreResult<bool>;
    /// `NotFound` when the key's organization does not exist.
    async fn create_api_key(&self, key: &NewApiKey) -> StoreResult<()>;
    async fn list_api_keys(&self, org_id: Option<&str>) -> StoreResult<Vec<ApiKey>>;
    /// `NotFound` for an unknown id; revoking twice keeps the first time.
    async fn revoke_api_key(&self, key_id: &str, at: Timestamp) -> StoreResult<ApiKey>;
    /// The live (unrevoked) key with this secret digest, and its organization.
    async fn authenticate(&self, secret_hash: &str) -> StoreResult<Option<(ApiKey, Organization)>>;
    async fn touch_api_key(&self, key_id: &str, at: Timestamp) -> StoreResult<()>;

    // Settings.

    /// The tenant's settings, or the defaults when never set.
    async fn get_settings(&self, tenant: &Tenant) -> StoreResult<Settings>;
    async fn put_settings(&self, tenant: &Tenant, settings: &Settings, at: Timestamp) -> StoreResult<()>;

    // Clients.

    async fn create_client(
        &self,
        tenant: &Tenant,
        client: &Client,
        event: &NewEvent,
        idempotency: Option<IdempotentResponse<'_, Client>>,
    ) -> StoreResult<()>;
    /// A client that is not archived.
    async fn get_client(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>>;
    /// A client even when archived, for the resources that reference it.
    async fn get_client_including_archived(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>>;
    async fn list_clients(&self, tenant: &Tenant, query: &ClientQuery) -> StoreResult<Page<Client>>;
    /// Applies `patch`; writes the event only when something changed. `NotFound` if archived or absent.
    async fn update_client(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: &ClientPatch,
        at: Timestamp,
        event: EventFor<'_, Client>,
    ) -> StoreResult<Client>;
    /// Archives the client. `NotFound` if archived or absent.
    async fn archive_client(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, Client>,
    ) -> StoreResult<Client>;

    // Events.

    async fn list_events(&self, tenant: &Tenant, query: &EventQuery) -> StoreResult<Page<Event>>;
    async fn get_event(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Event>>;

    // Idempotency keys. A change claims its key inside its own transaction (see
    // `IdempotentResponse`); these two serve requests before and without one.

    /// What `key` holds for a request with digest `request_hash` at `now`.
    async fn idempotency_lookup(
        &self,
        tenant: &Tenant,
        key: &str,
        request_hash: &str,
        now: Timestamp,
    ) -> StoreResult<IdempotencyState>;
    /// Records the response of a request that changed nothing (a 4xx, or an answer the request
    /// reaches again by itself), unless the key is already taken; says whether it recorded it.
    async fn idempotency_record(
        &self,
        tenant: &Tenant,
        claim: &IdempotencyClaim,
        status: u16,
        body: &[u8],
    ) -> StoreResult<bool>;

    // Shared counters.

    /// Adds `hits` (at least 1) to `bucket` in the window starting at `window_start` and
    /// returns the window's count including them.
    async fn rate_limit_hit(&self, bucket: &str, window_start: i64, expires_at: i64, hits: u64) -> StoreResult<u64>;

    /// Deletes expired idempotency keys and rate-limit windows. Returns how many rows went.
    async fn purge_expired(&self, now: Timestamp) -> StoreResult<u64>;

    /// Folds the per-tenant count deltas concurrent writers appended (PostgreSQL) so totals stay
    /// a lookup of a few rows. Returns how many delta rows it folded; always 0 on SQLite.
    async fn compact_counts(&self) -> StoreResult<u64>;

    /// Fault injection for tests: the next change to a resource fails just before it commits,
    /// with the `Idempotency-Key` it claimed. Bookkeeping (key usage, answers recorded without a
    /// change, rate-limit windows) is never the one to fail.
    fn fail_next_commit(&self);
}

/// Opens the store a database URL names: `postgres://` or `postgresql://` selects PostgreSQL,
/// `sqlite:` the embedded SQLite file (created when missing).
pub async fn open(url: &str) -> StoreResult<Arc<dyn Store>> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(postgres::PgStore::connect(url).await?))
    } else if url.starts_with("sqlite:") {
        Ok(Arc::new(sqlite::SqliteStore::connect(url).await?))
    } else {
        Err(StoreError::Config(format!(
            "unsupported database URL {:?}: use sqlite://FILE or postgres://...",
            redact_url(url)
        )))
    }
}

/// The URL with any password replaced, for messages and logs.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

/// A one-shot switch that makes the next commit fail (see [`Store::fail_next_commit`]).
#[derive(Debug, Default)]
pub(crate) struct FailPoint(AtomicBool);

impl FailPoint {
    pub(crate) fn arm(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub(crate) fn check(&self) -> StoreResult<()> {
        if self.0.swap(false, Ordering::SeqCst) { Err(StoreError::Injected) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn redacts_passwords_only() {
        assert_eq!(super::redact_url("postgres://u:secret@h:5432/db"), "postgres://u:***@h:5432/db");
        assert_eq!(super::redact_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(super::redact_url("sqlite://lajan.db"), "sqlite://lajan.db");
    }
}

#[cfg(feature = "testing")]
pub mod testing;
