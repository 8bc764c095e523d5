//! Exactly-once payouts, and at-least-once webhooks, across crashes: the real binary is
//! SIGKILLed at each injected point of a payout's execution (after the transaction is stored,
//! after it was submitted, before the result is recorded), restarted on the same database, and
//! the ledger must hold exactly one payment for the payout; and SIGKILLed with webhook
//! deliveries in flight and pending, after which every event still reaches its receiver.

use crate::support::{Serve, free_port};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
const UNLIMITED: (&str, &str) = ("LAJAN_RATE_LIMIT_STANDARD", "1000000");

/// `GET {base}{path}` with `key`, read as JSON.
async fn get_json(http: &reqwest::Client, base: &str, key: &str, path: &str) -> Value {
    http.get(format!("{base}{path}")).bearer_auth(key).send().await.unwrap().json().await.unwrap()
}

async fn crash_at(point: &str) {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    // A short lease so the restarted executor resumes the dead one's payout at once.
    // The test polls until the payout is sent; on a loaded machine that can outlast the default
    // 60 requests a minute, and a 429 is not the answer under test.
    let first_env = [("LAJAN_FAILPOINTS", point), ("LAJAN_PAYOUT_LEASE_SECS", "1"), UNLIMITED];
    let mut first = Serve::start(dir.path(), port, &first_env);
    let key = first.sandbox_key();
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let base = first.base.clone();
    let payout: Value = http
        .post(format!("{base}/v1/payouts"))
        .bearer_auth(&key)
        .json(&json!({ "walletAccountId": WALLET, "assetAmount": 7, "assetCode": "USDC" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = payout["id"].as_str().unwrap().to_owned();
    let r = http.post(format!("{base}/v1/payouts/{id}/approve")).bearer_auth(&key).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let reached = first.wait_for_line(|l| l.contains(&format!("FAILPOINT {point} reached")), Duration::from_secs(20));
    assert!(reached.is_some(), "the executor reached {point}");
    first.kill9();

    let second = Serve::start(dir.path(), port, &[("LAJAN_PAYOUT_LEASE_SECS", "1"), UNLIMITED]);
    let started = Instant::now();
    let done = loop {
        let got: Value = get_json(&http, &base, &key, &format!("/v1/payouts/{id}")).await;
        if got["execStatus"] == "sent" {
            break got;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "not sent after the restart: {got}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let attempts = done["attempts"].as_array().unwrap();
    let hashes: std::collections::HashSet<&str> = attempts.iter().map(|a| a["txHash"].as_str().unwrap()).collect();
    assert_eq!(hashes.len(), 1, "{point}: every submission was the identical transaction: {attempts:?}");
    let last = attempts.last().unwrap();
    assert!(last["ledgerSeq"].as_i64().is_some(), "{point}: {done}");
    let balances: Value = get_json(&http, &base, &key, "/v1/sandbox/balances").await;
    let usdc =
        balances["data"].as_array().unwrap().iter().find(|b| b["assetCode"] == "USDC").unwrap()["balance"].clone();
    assert_eq!(usdc, "999993.00", "{point}: the ledger paid exactly once");
    let completed = get_json(&http, &base, &key, "/v1/events?type=payout.completed").await;
    assert_eq!(completed["pagination"]["total"], 1, "{point}: one completion");
    second.terminate();
}

#[tokio::test]
async fn a_crash_after_storing_the_transaction_pays_once() {
    crash_at("payout.after_store").await;
}

#[tokio::test]
async fn a_crash_after_submitting_pays_once() {
    crash_at("payout.after_submit").await;
}

#[tokio::test]
async fn a_crash_before_recording_the_result_pays_once() {
    crash_at("payout.before_record").await;
}

/// Deliveries pending and in flight when the binary is SIGKILLed all reach the receiver after
/// the restart, each with its event's id as `webhook-id`.
#[tokio::test]
async fn webhook_deliveries_survive_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let env = [("LAJAN_WEBHOOK_LEASE_SECS", "2"), ("LAJAN_WEBHOOK_ENDPOINT_CONCURRENCY", "3")];
    let mut first = Serve::start(dir.path(), port, &env);
    let key = first.sandbox_key();
    let receiver = lajan_worker::testing::WebhookReceiver::start().await;
    // Slow answers: when the process dies, three deliveries are in flight and the rest pending.
    receiver.set_delay(Duration::from_secs(1));
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let base = first.base.clone();
    let post = |path: &str, body: Value| http.post(format!("{base}{path}")).bearer_auth(&key).json(&body).send();
    let r = post("/v1/webhook-endpoints", json!({ "url": receiver.url("/h"), "events": ["client.created"] })).await;
    assert_eq!(r.unwrap().status(), 201);
    for i in 0..12 {
        assert_eq!(
            post("/v1/clients", json!({ "firstName": format!("C{i}"), "lastName": "X" })).await.unwrap().status(),
            201
        );
    }
    let in_flight =
        lajan_worker::testing::wait_for(|| (receiver.received().len() >= 3).then_some(()), Duration::from_secs(10))
            .await;
    assert!(in_flight.is_some(), "deliveries were in flight");
    first.kill9();
    let sent_before_crash = receiver.received().len();

    let second = Serve::start(dir.path(), port, &env);
    let events = get_json(&http, &base, &key, "/v1/events?type=client.created&limit=100").await;
    let ids: std::collections::BTreeSet<String> =
        events["data"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(ids.len(), 12);
    let all_arrived = lajan_worker::testing::wait_for(
        || {
            let got: std::collections::BTreeSet<String> =
                receiver.received().iter().map(|w| w.header("webhook-id")).collect();
            ids.is_subset(&got).then_some(())
        },
        Duration::from_secs(30),
    )
    .await;
    second.terminate();
    let received = receiver.received().len();
    assert!(all_arrived.is_some(), "every event reached the receiver after the restart ({received} requests)");
    eprintln!("webhook crash: {sent_before_crash} requests before the crash, {received} in all, for 12 events");
}
