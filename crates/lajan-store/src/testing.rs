//! Fresh stores for tests: a SQLite file in a temporary directory, or a PostgreSQL schema of its
//! own inside the server `LAJAN_TEST_DATABASE_URL` names.
//!
//! Without that variable the PostgreSQL cases skip with a printed reason, except under CI
//! (`CI` set), where a missing or unreachable PostgreSQL fails the test loudly.

use crate::{Store, postgres::PgStore, sqlite::SqliteStore};
use lajan_domain::id::IdKind;
use lajan_domain::org::{Organization, Tier};
use lajan_domain::{Environment, Tenant, Timestamp};
use std::sync::Arc;

pub const DATABASE_URL_VAR: &str = "LAJAN_TEST_DATABASE_URL";

/// A new Standard-tier organization called `name`, stored.
pub async fn organization(store: &Arc<dyn Store>, name: &str) -> Organization {
    let org = Organization {
        id: IdKind::Organization.generate(),
        name: name.into(),
        tier: Tier::Standard,
        created_at: Timestamp::now(),
    };
    store.create_organization(&org).await.expect("create the test organization");
    org
}

/// The test environment of a new organization ("Acme").
pub async fn test_tenant(store: &Arc<dyn Store>) -> Tenant {
    Tenant::new(organization(store, "Acme").await.id, Environment::Test)
}

/// A migrated store that is cleaned up by [`TestStore::cleanup`] (or left behind if a test panics).
pub struct TestStore {
    pub store: Arc<dyn Store>,
    /// The URL a second process would use to open this same database.
    pub url: String,
    guard: Guard,
}

enum Guard {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { url: String, schema: String },
}

pub async fn sqlite() -> TestStore {
    let dir = tempfile::tempdir().expect("temporary directory");
    let url = format!("sqlite://{}", dir.path().join("lajan.db").display());
    let store = SqliteStore::connect(&url).await.expect("open SQLite");
    store.migrate().await.expect("migrate SQLite");
    TestStore { store: Arc::new(store), url, guard: Guard::Sqlite(dir) }
}

/// A store in a fresh schema, or `None` (after printing why) when PostgreSQL is not configured.
pub async fn postgres(test: &str) -> Option<TestStore> {
    let Ok(url) = std::env::var(DATABASE_URL_VAR) else {
        if std::env::var_os("CI").is_some() {
            panic!("{DATABASE_URL_VAR} is not set under CI: the PostgreSQL suite must run");
        }
        eprintln!(
            "skipping PostgreSQL case {test}: set {DATABASE_URL_VAR} (e.g. postgres://postgres@127.0.0.1:5432/test) to run it"
        );
        return None;
    };
    let schema = format!("lajan_t_{}", uuid::Uuid::now_v7().simple());
    let store = PgStore::connect_in_schema(&url, &schema)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to PostgreSQL at {DATABASE_URL_VAR}: {e:?}"));
    store.migrate().await.expect("migrate PostgreSQL");
    let schema_url = with_search_path(&url, &schema);
    Some(TestStore { store: Arc::new(store), url: schema_url, guard: Guard::Postgres { url, schema } })
}

fn with_search_path(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-c%20search_path%3D{schema}")
}

/// A lock held on the database from outside the store, so a test can line requests up behind
/// it: reads go on, the writes it covers wait until [`WriteHold::release`].
pub struct WriteHold(HeldConnection);

enum HeldConnection {
    Sqlite(sqlx::SqliteConnection),
    Postgres(sqlx::PgConnection),
}

impl WriteHold {
    /// Also takes the row lock on the row `id` of `table` (PostgreSQL), waiting for it: with a
    /// writer that holds it and waits for this hold's first lock, a deadlock the writer's side
    /// detects (this side waits ten seconds before looking, the server's default is one).
    pub async fn lock_also(&mut self, table: &str, id: &str) {
        let HeldConnection::Postgres(c) = &mut self.0 else { return };
        sqlx::query("SET LOCAL deadlock_timeout = '10s'").execute(&mut *c).await.expect("set the deadlock timeout");
        let lock = format!("SELECT id FROM {table} WHERE id = $1 FOR UPDATE");
        sqlx::query(&lock).bind(id).fetch_optional(&mut *c).await.expect("lock the second row");
    }

    pub async fn release(self) {
        let rolled_back = match self.0 {
            HeldConnection::Sqlite(mut c) => sqlx::query("ROLLBACK").execute(&mut c).await.map(drop),
            HeldConnection::Postgres(mut c) => sqlx::query("ROLLBACK").execute(&mut c).await.map(drop),
        };
        rolled_back.expect("release the held lock");
    }
}

impl TestStore {
    /// Holds up every writer that claims an `Idempotency-Key`: on SQLite the database's write
    /// lock (every writer), on PostgreSQL a lock on the keys' table that lets reads through.
    pub async fn hold_key_claims(&self) -> WriteHold {
        use sqlx::Connection;
        match &self.guard {
            Guard::Sqlite(_) => {
                let mut c = sqlx::SqliteConnection::connect(&self.url).await.expect("open SQLite");
                sqlx::query("BEGIN IMMEDIATE").execute(&mut c).await.expect("take the write lock");
                WriteHold(HeldConnection::Sqlite(c))
            }
            Guard::Postgres { .. } => {
                let mut c = sqlx::PgConnection::connect(&self.url).await.expect("connect to PostgreSQL");
                sqlx::query("BEGIN").execute(&mut c).await.expect("begin");
                sqlx::query("LOCK TABLE idempotency_keys IN SHARE MODE").execute(&mut c).await.expect("lock the keys");
                WriteHold(HeldConnection::Postgres(c))
            }
        }
    }

    /// Holds the row lock on the row `id` of `table` from a second connection, so a writer that
    /// locks it waits (and commits after writers that came later) until [`WriteHold::release`].
    /// `None` on SQLite: its one writer at a time never lets a later writer commit first.
    pub async fn hold_row(&self, table: &str, id: &str) -> Option<WriteHold> {
        use sqlx::Connection;
        let Guard::Postgres { .. } = &self.guard else { return None };
        let mut c = sqlx::PgConnection::connect(&self.url).await.expect("connect to PostgreSQL");
        sqlx::query("BEGIN").execute(&mut c).await.expect("begin");
        let lock = format!("SELECT id FROM {table} WHERE id = $1 FOR UPDATE");
        let held = sqlx::query(&lock).bind(id).fetch_optional(&mut c).await.expect("lock the row");
        assert!(held.is_some(), "no {table} row {id} to hold");
        Some(WriteHold(HeldConnection::Postgres(c)))
    }

    /// Whether no transaction holds the row lock on the row `id` of `table` (PostgreSQL; always
    /// true on SQLite, which has no row locks): tries to take it without waiting, and gives it
    /// back.
    pub async fn row_is_free(&self, table: &str, id: &str) -> bool {
        use sqlx::Connection;
        let Guard::Postgres { .. } = &self.guard else { return true };
        let mut c = sqlx::PgConnection::connect(&self.url).await.expect("connect to PostgreSQL");
        sqlx::query("BEGIN").execute(&mut c).await.expect("begin");
        let lock = format!("SELECT id FROM {table} WHERE id = $1 FOR UPDATE NOWAIT");
        let free = match sqlx::query(&lock).bind(id).fetch_optional(&mut c).await {
            Ok(_) => true,
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("55P03") => false,
            Err(e) => panic!("try the lock: {e}"),
        };
        sqlx::query("ROLLBACK").execute(&mut c).await.expect("roll back");
        free
    }

    /// Moves every payout hold's start `ms` into the past, as if the payouts had been held that
    /// long (the registration window's end).
    pub async fn age_payout_holds(&self, ms: i64) {
        use sqlx::Connection;
        let sql = "UPDATE payouts SET held_since = held_since - $1 WHERE held_since IS NOT NULL";
        let aged = match &self.guard {
            Guard::Sqlite(_) => {
                let mut c = sqlx::SqliteConnection::connect(&self.url).await.expect("open SQLite");
                sqlx::query(sql).bind(ms).execute(&mut c).await.map(drop)
            }
            Guard::Postgres { .. } => {
                let mut c = sqlx::PgConnection::connect(&self.url).await.expect("connect to PostgreSQL");
                sqlx::query(sql).bind(ms).execute(&mut c).await.map(drop)
            }
        };
        aged.expect("age the payout holds");
    }

    /// Moves every console session's start and last use `ms` into the past, as if that much
    /// time had gone by (the expiry tests).
    pub async fn age_console_sessions(&self, created_ms: i64, last_seen_ms: i64) {
        use sqlx::Connection;
        let sql = "UPDATE console_sessions SET created_at = created_at - $1, last_seen_at = last_seen_at - $2";
        let aged = match &self.guard {
            Guard::Sqlite(_) => {
                let mut c = sqlx::SqliteConnection::connect(&self.url).await.expect("open SQLite");
                sqlx::query(sql).bind(created_ms).bind(last_seen_ms).execute(&mut c).await.map(drop)
            }
            Guard::Postgres { .. } => {
                let mut c = sqlx::PgConnection::connect(&self.url).await.expect("connect to PostgreSQL");
                sqlx::query(sql).bind(created_ms).bind(last_seen_ms).execute(&mut c).await.map(drop)
            }
        };
        aged.expect("age the console sessions");
    }

    /// Sets the tenant's last invoice number, as if that many invoices had been made.
    pub async fn set_invoice_counter(&self, tenant: &Tenant, last: i64) {
        use sqlx::Connection;
        let sql = "UPDATE invoice_counters SET last_number = $1 WHERE org_id = $2 AND env = $3";
        let set = match &self.guard {
            Guard::Sqlite(_) => {
                let mut c = sqlx::SqliteConnection::connect(&self.url).await.expect("open SQLite");
                let done =
                    sqlx::query(sql).bind(last).bind(&tenant.org_id).bind(tenant.env.as_str()).execute(&mut c).await;
                done.map(|d| d.rows_affected())
            }
            Guard::Postgres { .. } => {
                let mut c = sqlx::PgConnection::connect(&self.url).await.expect("connect to PostgreSQL");
                let done =
                    sqlx::query(sql).bind(last).bind(&tenant.org_id).bind(tenant.env.as_str()).execute(&mut c).await;
                done.map(|d| d.rows_affected())
            }
        };
        assert_eq!(set.expect("set the invoice counter"), 1, "the tenant has a counter");
    }

    /// Forgets that the newest migration was applied, as a database an older binary migrated
    /// looks to a newer one (the readiness tests).
    pub async fn forget_newest_migration(&self) {
        use sqlx::Connection;
        let sql = "DELETE FROM _sqlx_migrations WHERE version = (SELECT MAX(version) FROM _sqlx_migrations)";
        let forgot = match &self.guard {
            Guard::Sqlite(_) => {
                let mut c = sqlx::SqliteConnection::connect(&self.url).await.expect("open SQLite");
                sqlx::query(sql).execute(&mut c).await.map(drop)
            }
            Guard::Postgres { .. } => {
                let mut c = sqlx::PgConnection::connect(&self.url).await.expect("connect to PostgreSQL");
                sqlx::query(sql).execute(&mut c).await.map(drop)
            }
        };
        forgot.expect("forget the newest migration");
    }

    /// Closes the store and drops what it created.
    pub async fn cleanup(self) {
        self.store.close().await;
        if let Guard::Postgres { url, schema } = &self.guard
            && let Ok(admin) = PgStore::connect(url).await
        {
            let _ = sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE")).execute(&admin.pool).await;
            admin.pool.close().await;
        }
    }
}

/// Generates `<name>::sqlite` and `<name>::postgres` tests from one async body taking
/// `Arc<dyn Store>`, so every contract case runs on both backends.
#[macro_export]
macro_rules! contract {
    ($name:ident, |$store:ident| $body:block) => {
        mod $name {
            use super::*;
            async fn case($store: std::sync::Arc<dyn $crate::Store>) $body

            #[tokio::test]
            async fn sqlite() {
                let t = $crate::testing::sqlite().await;
                case(t.store.clone()).await;
                t.cleanup().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(t) = $crate::testing::postgres(stringify!($name)).await else { return };
                case(t.store.clone()).await;
                t.cleanup().await;
            }
        }
    };
}
