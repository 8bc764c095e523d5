//! Fresh stores for tests: a SQLite file in a temporary directory, or a PostgreSQL database of
//! its own inside the server `LAJAN_TEST_DATABASE_URL` names, each a copy of a template migrated
//! once.
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
    /// The server's own database (to drop this one from) and this test's.
    Postgres {
        url: String,
        database: String,
    },
}

/// A store in a copy of the migrated template (see [`sqlite_template`]).
pub async fn sqlite() -> TestStore {
    let template = sqlite_template().await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("lajan.db");
    std::fs::copy(&template, &path).expect("copy the migrated SQLite template");
    let url = format!("sqlite://{}", path.display());
    let store = SqliteStore::connect(&url).await.expect("open SQLite");
    // Nothing is pending: this only checks the copy against the migrations, as `serve` does.
    store.migrate().await.expect("migrate SQLite");
    TestStore { store: Arc::new(store), url, guard: Guard::Sqlite(dir) }
}

/// Running the seventy-odd migrations took most of a short test's time (about 0.2 s on SQLite,
/// 0.5 s on PostgreSQL), so each test gets a copy of a database migrated once: one per set of
/// migrations (named by their fingerprint), shared by every test process and kept between runs.
fn migrations_fingerprint(migrations: &[(i64, &str, &str)]) -> String {
    use std::hash::{Hash, Hasher};
    // SipHash with fixed keys: the same name in every process of the same build.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    migrations.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The migrated SQLite template in the temporary directory, made by whichever test needs it
/// first (written beside and renamed into place, so a reader never sees half a file).
async fn sqlite_template() -> std::path::PathBuf {
    let name = format!("lajan-test-template-{}.db", migrations_fingerprint(crate::migrations::SQLITE));
    let template = std::env::temp_dir().join(name);
    if template.exists() {
        return template;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = SqliteStore::connect(&format!("sqlite://{}", dir.path().join("lajan.db").display()))
        .await
        .expect("open SQLite");
    store.migrate().await.expect("migrate the SQLite template");
    let staged = template.with_extension(format!("{}.part", uuid::Uuid::now_v7().simple()));
    store.backup_to(&staged).await.expect("copy the migrated template");
    store.close().await;
    std::fs::rename(&staged, &template).expect("put the SQLite template in place");
    template
}

/// A store in a database of its own, copied from the migrated template (see
/// [`postgres_template`]) inside the server `LAJAN_TEST_DATABASE_URL` names, or `None` (after
/// printing why) when PostgreSQL is not configured.
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
    let admin = PgStore::connect(&url)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to PostgreSQL at {DATABASE_URL_VAR}: {e:?}"));
    let template = postgres_template(&admin, &url).await;
    let database = format!("lajan_t_{}", uuid::Uuid::now_v7().simple());
    // FILE_COPY (PostgreSQL 15): a copy of the files after one checkpoint, where the default
    // copies every page through the WAL and leaves the next DROP DATABASE a long checkpoint.
    let strategy = if server_version(&admin).await >= 150_000 { " STRATEGY FILE_COPY" } else { "" };
    sqlx::query(&format!("CREATE DATABASE {database} TEMPLATE {template}{strategy}"))
        .execute(&admin.pool)
        .await
        .expect("copy the PostgreSQL template");
    admin.close().await;
    let database_url = with_database(&url, &database);
    let store = PgStore::connect(&database_url).await.expect("connect to the test database");
    store.migrate().await.expect("migrate PostgreSQL");
    Some(TestStore { store: Arc::new(store), url: database_url, guard: Guard::Postgres { url, database } })
}

async fn server_version(admin: &PgStore) -> i64 {
    let version: String =
        sqlx::query_scalar("SHOW server_version_num").fetch_one(&admin.pool).await.expect("the server's version");
    version.parse().unwrap_or(0)
}

/// The advisory lock that serializes building the template: "lajantmp" in ASCII, beside the
/// store's own bootstrap lock ("lajan" and a number).
const TEMPLATE_LOCK: i64 = 0x6c61_6a61_6e74_6d70;

/// The migrated PostgreSQL template database, made once per set of migrations by whichever
/// test needs it first (under an advisory lock, migrated under another name and renamed when
/// done, so no copy is taken of half of it).
async fn postgres_template(admin: &PgStore, url: &str) -> String {
    let template = format!("lajan_template_{}", migrations_fingerprint(crate::migrations::POSTGRES));
    let exists = |name: String| async move {
        sqlx::query_scalar::<_, bool>("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(name)
            .fetch_one(&admin.pool)
            .await
            .expect("look the template up")
    };
    if exists(template.clone()).await {
        return template;
    }
    let mut lock = admin.pool.acquire().await.expect("a connection for the template's lock");
    sqlx::query("SELECT pg_advisory_lock($1)").bind(TEMPLATE_LOCK).execute(&mut *lock).await.expect("lock");
    if !exists(template.clone()).await {
        let building = format!("{template}_building");
        sqlx::query(&format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"))
            .execute(&admin.pool)
            .await
            .expect("drop a half-built template");
        sqlx::query(&format!("CREATE DATABASE {building}")).execute(&admin.pool).await.expect("create the template");
        let store = PgStore::connect(&with_database(url, &building)).await.expect("connect to the template");
        store.migrate().await.expect("migrate the PostgreSQL template");
        store.close().await;
        sqlx::query(&format!("ALTER DATABASE {building} RENAME TO {template}"))
            .execute(&admin.pool)
            .await
            .expect("put the PostgreSQL template in place");
    }
    sqlx::query("SELECT pg_advisory_unlock($1)").bind(TEMPLATE_LOCK).execute(&mut *lock).await.expect("unlock");
    template
}

/// `url` naming `database` instead of its own.
fn with_database(url: &str, database: &str) -> String {
    let mut url = url::Url::parse(url).expect("LAJAN_TEST_DATABASE_URL is a URL");
    url.set_path(&format!("/{database}"));
    url.to_string()
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
        if let Guard::Postgres { url, database } = &self.guard
            && let Ok(admin) = PgStore::connect(url).await
        {
            let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)")).execute(&admin.pool).await;
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
