//! The black-box test harness of the API's and the console's tests: the real application (HTTP
//! and, on request, the workers) on port 0 over a fresh database, and an HTTP client.

use lajan_api::{AppConfig, Application};
use lajan_domain::id::IdKind;
use lajan_domain::org::{Organization, Tier};
use lajan_domain::scope::Scope;
use lajan_domain::{Environment, Timestamp};
use lajan_services::{ServiceConfig, Services};
use lajan_store::Store;
use lajan_store::testing::TestStore;
use lajan_worker::{WorkerConfig, Workers};
use reqwest::{Method, Response};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

pub const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

/// The settings of one process: its HTTP layer, its use cases and its workers.
#[derive(Clone)]
pub struct TestConfig {
    pub api: AppConfig,
    pub services: ServiceConfig,
    pub workers: WorkerConfig,
    /// Whether the workers run on their intervals, as `lajan serve` runs them. Off, tests drive
    /// them with their `*_once` steps.
    pub background: bool,
}

/// Limits high enough that only the rate-limit tests ever meet them.
pub fn test_config() -> TestConfig {
    let mut api = AppConfig::default();
    api.rate_limits.standard = 100_000;
    api.rate_limits.enterprise = 100_000;
    api.pay_miss_limit = 100_000;
    api.code_miss_limit = 100_000;
    api.deposit_limit = 100_000;
    // Every test client is loopback; the tests of the cap set their own.
    api.connections.per_address = 0;
    let services = ServiceConfig {
        public_url: "https://pay.lajan.test".into(),
        // Sandbox submissions wait for their ledger to close; keep that short.
        sandbox_ledger_close_ms: 10,
        // The tests' receivers listen on loopback.
        sandbox_webhooks_private: true,
        ..ServiceConfig::default()
    };
    TestConfig { api, services, workers: WorkerConfig::default(), background: false }
}

/// One running process: the API and its workers.
pub struct Server {
    pub base: String,
    pub workers: Arc<Workers>,
    stop: Option<oneshot::Sender<()>>,
    handle: JoinHandle<std::io::Result<()>>,
    stop_workers: watch::Sender<bool>,
    background: Vec<JoinHandle<()>>,
}

impl Server {
    pub async fn start(store: Arc<dyn Store>, config: TestConfig) -> Server {
        let services = Arc::new(Services::new(store, config.services).expect("services"));
        let workers = Arc::new(Workers::new(services.clone(), config.workers).expect("workers"));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let app = Application::build(config.api, services, listener).await.expect("build app");
        let base = format!("http://{}", app.local_addr().expect("addr"));
        let (stop_workers, stopped) = watch::channel(false);
        let background = if config.background { workers.clone().spawn(stopped) } else { Vec::new() };
        let (tx, rx) = oneshot::channel();
        let handle = tokio::spawn(app.run(async move {
            let _ = rx.await;
        }));
        Server { base, workers, stop: Some(tx), handle, stop_workers, background }
    }

    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        self.handle.await.expect("server task").expect("server stopped cleanly");
        let _ = self.stop_workers.send(true);
        for task in self.background {
            task.await.expect("worker task");
        }
    }
}

/// The application over a fresh database, with organization "Acme" and a sandbox key with `*`.
pub struct TestApp {
    pub db: TestStore,
    pub server: Server,
    pub http: reqwest::Client,
    pub org: Organization,
    /// `sk_test_` key with scope `*`.
    pub key: String,
    /// [`TestApp::key`]'s id, as events name their maker.
    pub key_id: String,
}

impl TestApp {
    pub async fn spawn(db: TestStore, config: TestConfig) -> TestApp {
        let store = db.store.clone();
        let org = create_org(store.as_ref(), "Acme", Tier::Standard).await;
        let (key, key_id) = create_key(store.as_ref(), &org.id, Environment::Test, vec![Scope::All]).await;
        let server = Server::start(store, config).await;
        TestApp { db, server, http: reqwest::Client::new(), org, key, key_id }
    }

    /// The organization's sandbox, which [`TestApp::key`] works in.
    pub fn tenant(&self) -> lajan_domain::Tenant {
        lajan_domain::Tenant::new(self.org.id.clone(), lajan_domain::Environment::Test)
    }

    pub fn workers(&self) -> &Workers {
        &self.server.workers
    }

    /// A client with an email and a phone number, as JSON.
    pub async fn reachable_client(&self) -> Value {
        let r = self
            .post(
                "/v1/clients",
                &serde_json::json!({
                    "firstName": "Marie", "lastName": "Jean", "email": "marie@example.ht", "phoneNumber": "+50937000000"
                }),
            )
            .await;
        assert_eq!(r.status(), 201);
        r.json().await.expect("json")
    }

    /// Creates an invoice for `client_id` from `extra` fields (merged over sensible defaults).
    pub async fn invoice(&self, client_id: &str, extra: Value) -> Value {
        let mut body = serde_json::json!({
            "clientId": client_id, "dueDate": "2030-01-31",
            "lineItems": [{ "description": "Loan fee", "quantity": 1, "unitPrice": 100 }]
        });
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                b.insert(k.clone(), v.clone());
            }
        }
        let r = self.post("/v1/invoices", &body).await;
        assert_eq!(r.status(), 201, "create invoice");
        r.json().await.expect("json")
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.db.store
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.base)
    }

    /// A new key for `org` (default: Acme) in `env` with `scopes`.
    pub async fn key(&self, org: Option<&str>, env: Environment, scopes: &[&str]) -> String {
        self.key_with_id(org, env, scopes).await.0
    }

    /// Like [`TestApp::key`], also returning the key's id.
    pub async fn key_with_id(&self, org: Option<&str>, env: Environment, scopes: &[&str]) -> (String, String) {
        let scopes = scopes.iter().map(|s| s.parse().expect("scope")).collect();
        create_key(self.store().as_ref(), org.unwrap_or(&self.org.id), env, scopes).await
    }

    pub async fn org(&self, name: &str, tier: Tier) -> Organization {
        create_org(self.store().as_ref(), name, tier).await
    }

    /// A request with the default key.
    pub fn req(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, self.url(path)).bearer_auth(&self.key)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.req(Method::GET, path).send().await.expect("send")
    }

    pub async fn get_with(&self, key: &str, path: &str) -> Response {
        self.http.get(self.url(path)).bearer_auth(key).send().await.expect("send")
    }

    pub async fn send_json(&self, method: Method, path: &str, body: &Value) -> Response {
        self.send_json_with(&self.key, method, path, body).await
    }

    /// `send_json` as another key (another environment, organization or scope).
    pub async fn send_json_with(&self, key: &str, method: Method, path: &str, body: &Value) -> Response {
        self.http.request(method, self.url(path)).bearer_auth(key).json(body).send().await.expect("send")
    }

    pub async fn post_with(&self, key: &str, path: &str, body: &Value) -> Response {
        self.send_json_with(key, Method::POST, path, body).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Response {
        self.send_json(Method::POST, path, body).await
    }

    pub async fn put(&self, path: &str, body: &Value) -> Response {
        self.send_json(Method::PUT, path, body).await
    }

    pub async fn delete(&self, path: &str) -> Response {
        self.req(Method::DELETE, path).send().await.expect("send")
    }

    /// Creates a client and returns its JSON.
    pub async fn client(&self, first: &str, last: &str) -> Value {
        let r = self
            .post(
                "/v1/clients",
                &serde_json::json!({ "firstName": first, "lastName": last, "walletAccountId": WALLET }),
            )
            .await;
        assert_eq!(r.status(), 201);
        r.json().await.expect("json")
    }

    /// Runs executor steps until nothing is left to claim.
    pub async fn drain_payouts(&self) {
        for _ in 0..20 {
            if self.workers().execute_payouts_once(Timestamp::now()).await.expect("executor step") == 0 {
                return;
            }
        }
        panic!("the executor did not drain");
    }

    pub async fn stop(self) {
        self.server.stop().await;
        self.db.cleanup().await;
    }
}

pub async fn create_org(store: &dyn Store, name: &str, tier: Tier) -> Organization {
    let org =
        Organization { id: IdKind::Organization.generate(), name: name.into(), tier, created_at: Timestamp::now() };
    store.create_organization(&org).await.expect("create org");
    org
}

pub async fn create_key(store: &dyn Store, org_id: &str, env: Environment, scopes: Vec<Scope>) -> (String, String) {
    let (secret, key) = lajan_api::keys::issue_key(org_id, env, scopes, "test");
    store.create_api_key(&key, &operator()).await.expect("create key");
    (secret, key.key.id)
}

/// An operator at the command line, as the access trail records them.
pub fn operator() -> lajan_domain::Actor {
    lajan_domain::Actor::System(lajan_domain::Actor::CLI.into())
}

/// Asserts the documented error shape and returns the body.
pub async fn expect_error(r: Response, status: u16, code: &str) -> Value {
    assert_eq!(r.status().as_u16(), status, "status for expected {code}");
    let body: Value = r.json().await.expect("error body is JSON");
    assert_eq!(body["statusCode"], status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
    assert!(body["requestId"].as_str().is_some_and(|id| !id.is_empty()), "{body}");
    body
}

/// The two databases every case runs on, for [`api_test!`].
pub mod backends {
    pub use lajan_store::testing::{postgres, sqlite};
}

/// Runs one async body against the application on SQLite and, when configured, on PostgreSQL.
#[macro_export]
macro_rules! api_test {
    ($name:ident, |$app:ident| $body:block) => {
        $crate::api_test!($name, $crate::test_config(), |$app| $body);
    };
    ($name:ident, $config:expr, |$app:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::*;

            async fn case($app: &TestApp) $body

            #[tokio::test]
            async fn sqlite() {
                let app = TestApp::spawn($crate::backends::sqlite().await, $config).await;
                case(&app).await;
                app.stop().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(db) = $crate::backends::postgres(stringify!($name)).await else { return };
                let app = TestApp::spawn(db, $config).await;
                case(&app).await;
                app.stop().await;
            }
        }
    };
}

/// A value's shape: objects keep their keys (each with its value's shape), arrays the shape of
/// their first element, and every other value is `null`.
pub fn shape(v: &Value) -> Value {
    match v {
        Value::Object(fields) => fields.iter().map(|(k, v)| (k.clone(), shape(v))).collect(),
        Value::Array(items) => Value::Array(items.first().map(shape).into_iter().collect()),
        _ => Value::Null,
    }
}
