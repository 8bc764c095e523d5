//! Processes side by side on one PostgreSQL database: two `lajan serve --no-workers` take
//! requests and run no background work, one `lajan worker` executes what either accepted, and
//! every payout is paid exactly once; two `lajan worker` processes share webhook deliveries;
//! three `lajan worker` processes pay live payouts from one account without channels.

use crate::support::{Serve, free_port};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
const ENV: [(&str, &str); 2] = [("LAJAN_RATE_LIMIT_STANDARD", "1000000"), ("LAJAN_SANDBOX_LEDGER_CLOSE_MS", "50")];
const PAYOUTS_PER_API: usize = 10;

struct Api {
    http: reqwest::Client,
    base: String,
    key: String,
}

impl Api {
    async fn send(&self, method: reqwest::Method, path: &str, body: &Value) -> Value {
        let r = self.http.request(method, format!("{}{path}", self.base)).bearer_auth(&self.key).json(body);
        let r = r.send().await.expect("send");
        let status = r.status();
        let body: Value = r.json().await.expect("json");
        assert!(status.is_success(), "{path}: {status} {body}");
        body
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.send(reqwest::Method::POST, path, &body).await
    }

    async fn get(&self, path: &str) -> Value {
        let r = self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.key).send().await.expect("send");
        r.json().await.expect("json")
    }
}

#[tokio::test]
async fn two_api_processes_and_one_worker_pay_each_payout_once() {
    let Some(db) = lajan_store::testing::postgres("two_api_processes_and_one_worker").await else { return };
    let (port_a, port_b) = (free_port(), free_port());
    let mut serve_a = Serve::run(&db.url, &["serve", "--no-workers"], Some(port_a), &ENV);
    let key = serve_a.sandbox_key();
    let serve_b = Serve::run(&db.url, &["serve", "--no-workers"], Some(port_b), &ENV);
    let http = reqwest::Client::new();
    let a = Api { http: http.clone(), base: serve_a.base.clone(), key: key.clone() };
    let b = Api { http, base: serve_b.base.clone(), key };

    // Created through one process and approved through the other, half each way.
    let mut ids = Vec::new();
    for i in 0..2 * PAYOUTS_PER_API {
        let (creator, approver) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let body = json!({ "walletAccountId": WALLET, "assetAmount": 1.25, "assetCode": "USDC" });
        let id = creator.post("/v1/payouts", body).await["id"].as_str().unwrap().to_owned();
        approver.post(&format!("/v1/payouts/{id}/approve"), json!({})).await;
        ids.push(id);
    }
    // No worker yet: API processes started with --no-workers execute nothing.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    for id in &ids {
        let p = a.get(&format!("/v1/payouts/{id}")).await;
        assert_eq!(
            (p["approvalStatus"].as_str(), p["execStatus"].as_str()),
            (Some("approved"), Some("pending")),
            "{p}"
        );
    }

    let worker = Serve::run(&db.url, &["worker"], None, &ENV);
    let deadline = Instant::now() + Duration::from_secs(60);
    for id in &ids {
        loop {
            let p = b.get(&format!("/v1/payouts/{id}")).await;
            if p["execStatus"] == "sent" {
                assert_eq!(p["attempts"].as_array().map(Vec::len), Some(1), "one submission: {p}");
                break;
            }
            assert!(Instant::now() < deadline, "payout {id} was not paid: {p}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // Paid once each: the sandbox account lost exactly 20 x 1.25, and one completion event each.
    let balances = a.get("/v1/sandbox/balances").await;
    let usdc = balances["data"].as_array().unwrap().iter().find(|x| x["assetCode"] == "USDC").unwrap().clone();
    assert_eq!(usdc["balance"], "999975.00", "{balances}");
    let completed = a.get("/v1/events?type=payout.completed&limit=100").await;
    assert_eq!(completed["pagination"]["total"], ids.len(), "{completed}");

    worker.terminate();
    serve_a.terminate();
    serve_b.terminate();
    db.cleanup().await;
}

/// Two `lajan worker` processes share the webhook deliveries of one database: 500 events, each
/// delivered at least once; the test prints how many arrived twice.
#[tokio::test]
async fn two_workers_deliver_every_webhook() {
    let Some(db) = lajan_store::testing::postgres("two_workers_deliver_every_webhook").await else { return };
    let mut serve = Serve::run(&db.url, &["serve", "--no-workers"], Some(free_port()), &ENV);
    let key = serve.sandbox_key();
    let workers = [Serve::run(&db.url, &["worker"], None, &ENV), Serve::run(&db.url, &["worker"], None, &ENV)];
    let receiver = lajan_worker::testing::WebhookReceiver::start().await;
    let api = Api { http: reqwest::Client::new(), base: serve.base.clone(), key };
    api.post("/v1/webhook-endpoints", json!({ "url": receiver.url("/h"), "events": ["client.created"] })).await;
    const EVENTS: usize = 500;
    for i in 0..EVENTS {
        api.post("/v1/clients", json!({ "firstName": format!("C{i}"), "lastName": "X" })).await;
    }
    let arrived = lajan_worker::testing::wait_for(
        || {
            let got: std::collections::HashSet<String> =
                receiver.received().iter().map(|w| w.header("webhook-id")).collect();
            (got.len() == EVENTS).then_some(got.len())
        },
        Duration::from_secs(60),
    )
    .await;
    let received = receiver.received().len();
    for worker in workers {
        worker.terminate();
    }
    serve.terminate();
    assert!(arrived.is_some(), "every event arrived ({received} requests)");
    eprintln!("two workers: {EVENTS} events, {received} requests, {} arrived twice", received - EVENTS);
    db.cleanup().await;
}

/// Three `lajan worker` processes and one distribution account, no channel accounts: 60 live
/// payouts approved at once are all paid, one sequence number each, with no transaction refused
/// for its sequence and none queued behind another of the account's (which stellar-core answers
/// TRY_AGAIN_LATER). Before sources were reserved across processes, a fifth of them failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_worker_processes_without_channels_pay_every_live_payout() {
    use lajan_ledger::stellar::TESTNET_PASSPHRASE;
    use lajan_ledger::testing::{FakeStellar, keypair};
    use secrecy::ExposeSecret;
    const PAYOUTS: usize = 60;
    const START_SEQ: i64 = 100 << 32;
    let Some(db) = lajan_store::testing::postgres("three_worker_processes_live").await else { return };
    let net = FakeStellar::start(TESTNET_PASSPHRASE).await;
    // Ledgers close every 200 ms: one transaction per source account in each.
    net.close_ledgers_every(200);
    let (distribution, secret) = keypair(7);
    net.create_account(&distribution, START_SEQ);
    net.fund(&distribution, "XLM", None, 1_000_000 * 10_000_000);
    net.create_account(WALLET, 1);
    let env = [
        ENV[0],
        ("LAJAN_LIVE_HORIZON_URL", net.url()),
        ("LAJAN_LIVE_NETWORK_PASSPHRASE", TESTNET_PASSPHRASE),
        ("LAJAN_LIVE_DISTRIBUTION_SECRET", secret.expose_secret()),
    ];
    let mut serve = Serve::run(&db.url, &["serve", "--no-workers"], Some(free_port()), &env);
    serve.sandbox_key();
    let created = std::process::Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(["keys", "create", "--env", "live"])
        .env("LAJAN_DATABASE_URL", &db.url)
        .env_remove("LAJAN_CONFIG")
        .output()
        .expect("run lajan keys create");
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    let key = String::from_utf8(created.stdout).unwrap().trim().to_owned();
    let api = Api { http: reqwest::Client::new(), base: serve.base.clone(), key };
    let mut ids = Vec::new();
    for _ in 0..PAYOUTS {
        let body = json!({ "walletAccountId": WALLET, "assetAmount": 1.25, "assetCode": "XLM" });
        let id = api.post("/v1/payouts", body).await["id"].as_str().unwrap().to_owned();
        api.post(&format!("/v1/payouts/{id}/approve"), json!({})).await;
        ids.push(id);
    }
    let started = Instant::now();
    let workers: Vec<Serve> = (0..3).map(|_| Serve::run(&db.url, &["worker"], None, &env)).collect();
    let deadline = started + Duration::from_secs(120);
    let mut payouts = Vec::new();
    for id in &ids {
        loop {
            let p = api.get(&format!("/v1/payouts/{id}")).await;
            assert_ne!(p["execStatus"], "failed", "{p}");
            if p["execStatus"] == "sent" {
                payouts.push(p);
                break;
            }
            assert!(Instant::now() < deadline, "payout {id} was not paid in two minutes: {p}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let settled = started.elapsed();
    for worker in workers {
        worker.terminate();
    }
    serve.terminate();
    for p in &payouts {
        let attempts = p["attempts"].as_array().unwrap();
        assert!(attempts.iter().all(|a| a["errorCode"] != "tx_bad_seq"), "a sequence race: {p}");
    }
    assert_eq!(net.payments().len(), PAYOUTS, "each paid once");
    assert_eq!(net.sequence(&distribution), Some(START_SEQ + PAYOUTS as i64), "one sequence per payout");
    assert_eq!(net.try_again_later(), 0, "never a second transaction queued from the account");
    eprintln!("three worker processes, no channels: {PAYOUTS} live payouts sent in {settled:?} (200 ms ledgers)");
    db.cleanup().await;
}
