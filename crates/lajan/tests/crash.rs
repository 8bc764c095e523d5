//! Exactly-once payouts across crashes: the real binary is SIGKILLed at each injected point of
//! a payout's execution (after the transaction is stored, after it was submitted, before the
//! result is recorded), restarted on the same database, and the ledger must hold exactly one
//! payment for the payout.

mod support;

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use support::{Serve, free_port};

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

async fn crash_at(point: &str) {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    // A short lease so the restarted executor resumes the dead one's payout at once.
    let mut first = Serve::start(dir.path(), port, &[("LAJAN_FAILPOINTS", point), ("LAJAN_PAYOUT_LEASE_SECS", "1")]);
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

    let second = Serve::start(dir.path(), port, &[("LAJAN_PAYOUT_LEASE_SECS", "1")]);
    let started = Instant::now();
    let done = loop {
        let got: Value =
            http.get(format!("{base}/v1/payouts/{id}")).bearer_auth(&key).send().await.unwrap().json().await.unwrap();
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
    let balances: Value =
        http.get(format!("{base}/v1/sandbox/balances")).bearer_auth(&key).send().await.unwrap().json().await.unwrap();
    let usdc =
        balances["data"].as_array().unwrap().iter().find(|b| b["assetCode"] == "USDC").unwrap()["balance"].clone();
    assert_eq!(usdc, "999993.00", "{point}: the ledger paid exactly once");
    let completed: Value = http
        .get(format!("{base}/v1/events?type=payout.completed"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
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
