//! An `Idempotency-Key` never makes a second resource across a crash. The real binary is
//! SIGKILLed (on SQLite and on PostgreSQL) while keyed requests have committed their change but
//! not yet answered, between a sandbox payment's recording and its application, and while 64
//! connections create clients, invoices and payouts with keys;
//! after each restart every retry replays the committed answer or runs afresh at once (never a
//! 409 waiting out a dead request), and each key made exactly one resource. A graceful stop
//! (SIGTERM) under 32 held requests answers every one of them.

use crate::support::{Serve, free_port};
use futures::StreamExt;
use lajan_store::testing::TestStore;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
/// The sandbox destination that fails with `op_underfunded` (docs/payouts.md).
const UNDERFUNDED: &str = "GDBTUG54LQU7L2RPYD7BAPTOJNKY7BHBMPILSBKI45QBZOEDYXX7SZHG";
const AFTER_HANDLER: &str = "FAILPOINT idempotency.after_handler reached";

/// Rate limits out of the way, sandbox ledgers closing fast.
const ENV: [(&str, &str); 3] = [
    ("LAJAN_RATE_LIMIT_STANDARD", "1000000"),
    ("LAJAN_SANDBOX_LEDGER_CLOSE_MS", "50"),
    ("LAJAN_PAYOUT_LEASE_SECS", "1"),
];

#[derive(Clone)]
struct Api {
    http: reqwest::Client,
    base: String,
    key: String,
}

struct Answer {
    status: u16,
    replayed: bool,
    body: Value,
}

impl Api {
    async fn post(&self, path: &str, key: Option<&str>, body: &Value) -> reqwest::Result<Answer> {
        let mut req = self.http.post(format!("{}{path}", self.base)).bearer_auth(&self.key).json(body);
        if let Some(key) = key {
            req = req.header("idempotency-key", key);
        }
        let r = req.send().await?;
        let status = r.status().as_u16();
        let replayed = r.headers().get("idempotent-replayed").is_some();
        Ok(Answer { status, replayed, body: r.json().await? })
    }

    /// POST without a key that must succeed; its JSON.
    async fn create(&self, path: &str, body: Value) -> Value {
        let a = self.post(path, None, &body).await.expect("send");
        assert!((200..300).contains(&a.status), "{path}: {} {}", a.status, a.body);
        a.body
    }

    async fn get(&self, path: &str) -> Value {
        let r = self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.key).send().await.expect("send");
        r.json().await.expect("json")
    }

    /// Every event of `event_type`, through all pages.
    async fn events(&self, event_type: &str) -> Vec<Value> {
        self.all(&format!("/v1/events?type={event_type}&")).await
    }

    /// Every item of a list, through all pages (`path` ends with `?` or `&`).
    async fn all(&self, path: &str) -> Vec<Value> {
        let mut all = Vec::new();
        for page in 1.. {
            let got = self.get(&format!("{path}limit=100&page={page}")).await;
            let data = got["data"].as_array().expect("a list").clone();
            let last = data.len() < 100;
            all.extend(data);
            if last {
                return all;
            }
        }
        unreachable!()
    }
}

fn http() -> reqwest::Client {
    reqwest::Client::builder().pool_max_idle_per_host(0).timeout(Duration::from_secs(30)).build().unwrap()
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap_or_else(|| panic!("an id in {v}")).to_owned()
}

async fn wait_for(api: &Api, path: &str, field: &str, value: &str) {
    let started = Instant::now();
    loop {
        let got = api.get(path).await;
        if got[field] == value {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{path} never had {field}={value}: {got}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every kind of state-changing POST is held after its handler (its change committed, its
/// answer not sent) and the process is killed; after a restart each retry replays the answer
/// its own transaction recorded. Sandbox pay, which records its payment and applies it in two
/// steps, instead resubmits the identical simulated transaction and pays once.
async fn every_keyed_post_replays_after_a_crash(db: TestStore) {
    let port = free_port();
    let failpoint = [("LAJAN_FAILPOINTS", "idempotency.after_handler")];
    let mut first = Serve::start_on(&db.url, port, &[&ENV[..], &failpoint[..]].concat());
    let api = Api { http: http(), base: first.base.clone(), key: first.sandbox_key() };

    // What the actions act on, made without keys (the failpoint holds keyed requests only).
    let client = api
        .create(
            "/v1/clients",
            json!({ "firstName": "Marie", "lastName": "Jean", "email": "m@example.ht", "phoneNumber": "+50937000000" }),
        )
        .await;
    let invoice = |extra: Value| {
        let mut body = json!({ "clientId": id(&client), "dueDate": "2030-01-31",
            "lineItems": [{ "description": "Loan fee", "quantity": 1, "unitPrice": 100 }] });
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let to_send = api.create("/v1/invoices", invoice(json!({}))).await;
    let to_void = api.create("/v1/invoices", invoice(json!({}))).await;
    let to_pay = api.create("/v1/invoices", invoice(json!({ "sendImmediately": true }))).await;
    let intent = to_pay["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let payout = |wallet: &str| json!({ "walletAccountId": wallet, "assetAmount": 7, "assetCode": "USDC" });
    let to_approve = api.create("/v1/payouts", payout(WALLET)).await;
    let to_reject = api.create("/v1/payouts", payout(WALLET)).await;
    let to_retry = api.create("/v1/payouts", payout(UNDERFUNDED)).await;
    api.create(&format!("/v1/payouts/{}/approve", id(&to_retry)), json!({})).await;
    wait_for(&api, &format!("/v1/payouts/{}", id(&to_retry)), "execStatus", "failed").await;

    let keyed: Vec<(String, Value)> = vec![
        ("/v1/clients".into(), json!({ "firstName": "Keyed", "lastName": "Client" })),
        ("/v1/invoices".into(), invoice(json!({ "sendImmediately": true, "memo": "keyed" }))),
        (format!("/v1/invoices/{}/send", id(&to_send)), json!({ "channels": ["sms"] })),
        (format!("/v1/invoices/{}/void", id(&to_void)), json!({ "reason": "duplicate" })),
        ("/v1/payment-links".into(), json!({ "amount": 50, "description": "Dues" })),
        ("/v1/payouts".into(), payout(WALLET)),
        (format!("/v1/payouts/{}/approve", id(&to_approve)), json!({})),
        (format!("/v1/payouts/{}/reject", id(&to_reject)), json!({ "reason": "duplicate" })),
        (format!("/v1/payouts/{}/retry", id(&to_retry)), json!({})),
        ("/v1/sandbox/balances/top-up".into(), json!({ "assetCode": "USDC", "amount": 5 })),
        (format!("/v1/sandbox/payment-intents/{intent}/pay"), json!({})),
    ];
    let held: Vec<_> = keyed
        .iter()
        .enumerate()
        .map(|(n, (path, body))| {
            let (api, path, body) = (api.clone(), path.clone(), body.clone());
            tokio::spawn(async move { api.post(&path, Some(&format!("k{n}")), &body).await.map(|a| a.status) })
        })
        .collect();
    let all_held = first.wait_for_lines(|l| l.contains(AFTER_HANDLER), keyed.len(), Duration::from_secs(30));
    assert!(all_held, "every keyed request reached the point after its handler");
    first.kill9();
    for answer in held {
        assert!(answer.await.unwrap().is_err(), "no answer left the killed process");
    }

    let second = Serve::start_on(&db.url, port, &ENV);
    for (n, (path, body)) in keyed.iter().enumerate() {
        let again = api.post(path, Some(&format!("k{n}")), body).await.expect("send");
        assert!((200..300).contains(&again.status), "{path}: {} {}", again.status, again.body);
        if path.ends_with("/pay") {
            continue;
        }
        assert!(again.replayed, "{path}: the answer committed with the change is replayed: {}", again.body);
    }
    for (path, total) in [
        ("/v1/clients", 2),
        ("/v1/invoices", 4),
        ("/v1/payment-links", 1),
        ("/v1/payouts", 4),
        ("/v1/events?type=invoice.paid", 1),
    ] {
        assert_eq!(api.get(path).await["pagination"]["total"], total, "{path}: nothing made twice");
    }
    let paid = api.get(&format!("/v1/invoices/{}", id(&to_pay))).await;
    assert_eq!((paid["status"].as_str(), paid["amountPaid"].as_str()), (Some("paid"), Some("100.00")), "paid once");
    let balances = api.get("/v1/sandbox/balances").await;
    let usdc = balances["data"].as_array().unwrap().iter().find(|b| b["assetCode"] == "USDC").unwrap();
    // 1,000,000 + 5 topped up once; the approved payout of 7 may or may not have gone out yet.
    assert!(["1000005.00", "999998.00"].contains(&usdc["balance"].as_str().unwrap()), "{balances}");
    second.terminate();
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_keyed_post_replays_after_a_crash_sqlite() {
    every_keyed_post_replays_after_a_crash(lajan_store::testing::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_keyed_post_replays_after_a_crash_postgres() {
    let Some(db) = lajan_store::testing::postgres("every_keyed_post_replays_after_a_crash").await else { return };
    every_keyed_post_replays_after_a_crash(db).await;
}

/// A keyed sandbox payment killed after the ledger recorded it and before the watcher applied
/// it: the retry resubmits the identical transaction, and the invoice is paid once.
async fn a_crash_between_recording_and_applying_a_payment(db: TestStore) {
    let port = free_port();
    let failpoint = [("LAJAN_FAILPOINTS", "sandbox.after_record")];
    let mut first = Serve::start_on(&db.url, port, &[&ENV[..], &failpoint[..]].concat());
    let api = Api { http: http(), base: first.base.clone(), key: first.sandbox_key() };
    let client =
        api.create("/v1/clients", json!({ "firstName": "Marie", "lastName": "Jean", "email": "m@example.ht" })).await;
    let invoice = api
        .create(
            "/v1/invoices",
            json!({ "clientId": id(&client), "dueDate": "2030-01-31", "sendImmediately": true,
                "lineItems": [{ "description": "Loan fee", "quantity": 1, "unitPrice": 100 }] }),
        )
        .await;
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let path = format!("/v1/sandbox/payment-intents/{intent}/pay");
    let held = {
        let (api, path) = (api.clone(), path.clone());
        tokio::spawn(async move { api.post(&path, Some("pay-once"), &json!({})).await.map(|a| a.status) })
    };
    let reached =
        first.wait_for_line(|l| l.contains("FAILPOINT sandbox.after_record reached"), Duration::from_secs(30));
    assert!(reached.is_some(), "the payment was recorded");
    first.kill9();
    assert!(held.await.unwrap().is_err());

    let second = Serve::start_on(&db.url, port, &ENV);
    let again = api.post(&path, Some("pay-once"), &json!({})).await.expect("send");
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.body["amount"], "100.00");
    let paid = api.get(&format!("/v1/invoices/{}", id(&invoice))).await;
    assert_eq!((paid["status"].as_str(), paid["amountPaid"].as_str()), (Some("paid"), Some("100.00")), "paid once");
    assert_eq!(api.get("/v1/events?type=invoice.paid").await["pagination"]["total"], 1);
    second.terminate();
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_recording_and_applying_a_payment_pays_once_sqlite() {
    a_crash_between_recording_and_applying_a_payment(lajan_store::testing::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_recording_and_applying_a_payment_pays_once_postgres() {
    let Some(db) = lajan_store::testing::postgres("a_crash_between_recording_and_applying").await else { return };
    a_crash_between_recording_and_applying_a_payment(db).await;
}

/// One keyed create: what was sent, and the id it answered with, if it answered.
struct Sent {
    kind: usize,
    key: String,
    body: Value,
    answered: Option<String>,
}

/// Where each kind is created and listed, and its creation's event.
const KINDS: [(&str, &str); 3] =
    [("/v1/clients", "client.created"), ("/v1/invoices", "invoice.created"), ("/v1/payouts", "payout.created")];

fn create_body(kind: usize, key: &str, client_id: &str) -> Value {
    match kind {
        0 => json!({ "firstName": "Load", "lastName": key }),
        1 => json!({ "clientId": client_id, "dueDate": "2030-01-31", "memo": key,
            "lineItems": [{ "description": "Fee", "quantity": 1, "unitPrice": 10 }] }),
        _ => json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "USDC", "memo": key }),
    }
}

/// The marker a created resource's event carries: the key it was created under.
fn marker(kind: usize, object: &Value) -> Option<String> {
    match kind {
        0 if object["firstName"] == "Load" => object["lastName"].as_str().map(str::to_owned),
        0 => None,
        _ => object["memo"].as_str().map(str::to_owned),
    }
}

/// 64 connections create with fresh keys until the process is killed, three times; every key
/// sent is then retried: an answered key gets the same id back, an unanswered one gets exactly
/// one resource. Every unit commits whole or not at all (on SQLite, many share one commit): each
/// key ends with one resource and one event, never one without the other or a second one made
/// by the retry of a unit whose change committed without its key.
async fn keyed_creates_under_sigkill(db: TestStore) {
    const CONNECTIONS: usize = 64;
    let port = free_port();
    let mut serve = Serve::start_on(&db.url, port, &ENV);
    let api = Api { http: http(), base: serve.base.clone(), key: serve.sandbox_key() };
    let client = api.create("/v1/clients", json!({ "firstName": "Marie", "lastName": "Jean" })).await;
    let client_id = id(&client);
    let mut sent: Vec<Sent> = Vec::new();
    for round in 0..3 {
        let log = Arc::new(Mutex::new(Vec::new()));
        let workers: Vec<_> = (0..CONNECTIONS)
            .map(|worker| {
                let (api, log, client_id) = (api.clone(), log.clone(), client_id.clone());
                tokio::spawn(async move {
                    for i in 0.. {
                        let kind = (worker + i) % KINDS.len();
                        let key = format!("r{round}w{worker}i{i}");
                        let body = create_body(kind, &key, &client_id);
                        let slot = {
                            let mut log = log.lock().unwrap();
                            log.push(Sent { kind, key: key.clone(), body: body.clone(), answered: None });
                            log.len() - 1
                        };
                        let Ok(a) = api.post(KINDS[kind].0, Some(&key), &body).await else { return };
                        assert_eq!(a.status, 201, "{key}: {}", a.body);
                        log.lock().unwrap()[slot].answered = Some(id(&a.body));
                    }
                })
            })
            .collect();
        // Let the load get going (on a loaded machine that takes longer than on an idle one),
        // then crash in the middle of it.
        let started = std::time::Instant::now();
        let answered = || log.lock().unwrap().iter().filter(|s| s.answered.is_some()).count();
        while answered() <= 100 && started.elapsed() < Duration::from_secs(30) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        serve.kill9();
        for w in workers {
            w.await.expect("a worker panicked");
        }
        serve = Serve::start_on(&db.url, port, &ENV);
        let log = std::mem::take(&mut *log.lock().unwrap());
        let answered = log.iter().filter(|s| s.answered.is_some()).count();
        assert!(answered > 100, "round {round}: the load got going ({answered} answered)");
        eprintln!("round {round}: {} keyed creates sent, {answered} answered before the kill", log.len());
        let retried: Vec<(usize, Answer)> = futures::stream::iter(log.iter().enumerate())
            .map(|(n, s)| {
                let api = api.clone();
                async move { (n, api.post(KINDS[s.kind].0, Some(&s.key), &s.body).await.expect("send")) }
            })
            .buffer_unordered(16)
            .collect()
            .await;
        let mut log = log;
        for (n, again) in retried {
            let s = &mut log[n];
            assert_eq!(again.status, 201, "{}: a retry after the crash replays or runs afresh: {}", s.key, again.body);
            if let Some(original) = &s.answered {
                assert_eq!(&id(&again.body), original, "{}: an answered create is replayed", s.key);
                assert!(again.replayed, "{}", s.key);
            }
            s.answered = Some(id(&again.body));
        }
        sent.extend(log);
    }
    for (kind, (list, event_type)) in KINDS.iter().enumerate() {
        let mut per_key: HashMap<String, usize> = HashMap::new();
        for event in api.events(event_type).await {
            if let Some(m) = marker(kind, &event["data"]["object"]) {
                *per_key.entry(m).or_default() += 1;
            }
        }
        let of_kind: Vec<&Sent> = sent.iter().filter(|s| s.kind == kind).collect();
        for s in &of_kind {
            assert_eq!(per_key.get(&s.key), Some(&1), "{event_type} {}: exactly one event per key", s.key);
        }
        assert_eq!(per_key.values().sum::<usize>(), of_kind.len(), "{event_type}: no other event was made");
        // The resources themselves: exactly the ones the keys answered with after the crashes.
        let mut listed: Vec<String> =
            api.all(&format!("{list}?")).await.iter().map(id).filter(|i| *i != client_id).collect();
        let mut answered: Vec<String> = of_kind.iter().filter_map(|s| s.answered.clone()).collect();
        listed.sort();
        answered.sort();
        assert_eq!(listed, answered, "{list}: one resource per key and no other");
    }
    serve.terminate();
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyed_creates_under_sigkill_make_one_resource_per_key_sqlite() {
    keyed_creates_under_sigkill(lajan_store::testing::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyed_creates_under_sigkill_make_one_resource_per_key_postgres() {
    let Some(db) = lajan_store::testing::postgres("keyed_creates_under_sigkill").await else { return };
    keyed_creates_under_sigkill(db).await;
}

/// SIGTERM while 32 keyed creates are held after their handlers (committed, not yet answered):
/// the listener closes at once, every held request still gets its 201, the process exits 0, and
/// after a restart each key replays its answer: nothing was left half-done.
async fn a_graceful_stop_answers_every_accepted_request(db: TestStore) {
    const REQUESTS: usize = 32;
    let port = free_port();
    let held = [("LAJAN_FAILPOINTS", "idempotency.after_handler@1500")];
    let mut first = Serve::start_on(&db.url, port, &[&ENV[..], &held[..]].concat());
    let api = Api { http: http(), base: first.base.clone(), key: first.sandbox_key() };
    let body = |i: usize| json!({ "firstName": format!("Client{i}"), "lastName": "Stop", "email": format!("c{i}@example.ht") });
    let sent: Vec<_> = (0..REQUESTS)
        .map(|i| {
            let api = api.clone();
            tokio::spawn(async move { api.post("/v1/clients", Some(&format!("stop-{i}")), &body(i)).await })
        })
        .collect();
    let pausing = |l: &str| l.contains("FAILPOINT idempotency.after_handler pausing");
    let held = first.wait_for_lines(pausing, REQUESTS, Duration::from_secs(20));
    assert!(held, "the requests were not all held: {:?}", first.lines_so_far());
    first.send_term();
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
        assert!(started.elapsed() < Duration::from_secs(1), "the listener still accepts after SIGTERM");
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut made = Vec::new();
    for task in sent {
        let answer = task.await.unwrap().expect("an answer, not a dropped connection");
        assert_eq!((answer.status, answer.replayed), (201, false), "{}", answer.body);
        made.push(id(&answer.body));
    }
    first.exits_cleanly();

    let second = Serve::start_on(&db.url, free_port(), &ENV);
    let api = Api { base: second.base.clone(), ..api };
    for (i, made) in made.iter().enumerate() {
        let again = api.post("/v1/clients", Some(&format!("stop-{i}")), &body(i)).await.expect("send");
        assert_eq!((again.status, again.replayed, id(&again.body)), (201, true, made.clone()), "key stop-{i}");
    }
    let listed = api.get("/v1/clients?limit=100").await;
    assert_eq!(listed["pagination"]["total"], REQUESTS, "one client per key: {listed}");
    second.terminate();
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_stop_answers_every_accepted_request_sqlite() {
    a_graceful_stop_answers_every_accepted_request(lajan_store::testing::sqlite().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_stop_answers_every_accepted_request_postgres() {
    let Some(db) = lajan_store::testing::postgres("a_graceful_stop_answers").await else { return };
    a_graceful_stop_answers_every_accepted_request(db).await;
}
