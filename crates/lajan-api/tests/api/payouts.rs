//! The payouts area through the router: validation in order, approval rules, counts, and
//! execution on the sandbox ledger including its magic destinations.

use lajan_domain::payout::AttemptResult;
use lajan_domain::{Environment, Timestamp};
use lajan_ledger::sandbox::magic;
use lajan_store::Change;
use lajan_store::payouts::NewAttempt;
use lajan_testkit::{TestApp, WALLET, expect_error};
use reqwest::Method;
use serde_json::{Value, json};

async fn payout(app: &TestApp, body: Value) -> Value {
    let r = app.post("/v1/payouts", &body).await;
    assert_eq!(r.status(), 201, "create payout");
    r.json().await.unwrap()
}

async fn action(app: &TestApp, key: &str, id: &str, verb: &str) -> reqwest::Response {
    app.http.post(app.url(&format!("/v1/payouts/{id}/{verb}"))).bearer_auth(key).send().await.unwrap()
}

async fn execute(app: &TestApp, at: Timestamp) -> usize {
    app.workers().execute_payouts_once(at).await.unwrap()
}

async fn get(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/v1/payouts/{id}")).await.json().await.unwrap()
}

async fn usdc_balance(app: &TestApp) -> String {
    let b: Value = app.get("/v1/sandbox/balances").await.json().await.unwrap();
    b["data"].as_array().unwrap().iter().find(|a| a["assetCode"] == "USDC").unwrap()["balance"]
        .as_str()
        .unwrap()
        .to_owned()
}

api_test!(validation_runs_in_the_documented_order, |app| {
    let no_wallet = app
        .post("/v1/clients", &json!({ "firstName": "No", "lastName": "Wallet" }))
        .await
        .json::<Value>()
        .await
        .unwrap();
    let cases = [
        (json!({ "assetAmount": 1, "assetCode": "USDC" }), "missing_recipient"),
        (json!({ "clientId": "cli_nope", "assetAmount": -1, "assetCode": "!" }), "invalid_client"),
        (json!({ "clientId": no_wallet["id"], "assetAmount": -1 }), "no_wallet"),
        (json!({ "walletAccountId": "GABC", "assetAmount": -1, "assetCode": "!" }), "invalid_wallet"),
        (
            json!({ "walletAccountId": "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2A", "assetAmount": 1, "assetCode": "USDC" }),
            "invalid_wallet",
        ),
        (
            json!({ "walletAccountId": WALLET, "assetAmount": 0, "assetCode": "!", "memo": "x".repeat(40) }),
            "invalid_amount",
        ),
        (json!({ "walletAccountId": WALLET, "assetAmount": 1.001, "assetCode": "USDC" }), "invalid_amount"),
        (
            json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "TOOLONGASSETX", "memo": "x".repeat(40) }),
            "invalid_asset_code",
        ),
        (
            json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "USDC", "memo": "x".repeat(29) }),
            "invalid_memo",
        ),
        (
            json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "XLM", "assetIssuer": WALLET }),
            "invalid_asset_issuer",
        ),
        (json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "ABC" }), "invalid_asset_issuer"),
        (
            json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "ABC", "assetIssuer": "GNOPE" }),
            "invalid_asset_issuer",
        ),
    ];
    for (body, code) in cases {
        expect_error(app.post("/v1/payouts", &body).await, 400, code).await;
    }
    let body = expect_error(
        app.post("/v1/payouts", &json!({ "walletAccountId": WALLET, "assetCode": "USDC" })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "assetAmount");
    let list: Value = app.get("/v1/payouts").await.json().await.unwrap();
    assert_eq!(list["counts"]["all"], 0, "nothing was created");
    expect_error(app.get("/v1/payouts/pyt_nope").await, 404, "not_found").await;
});

api_test!(shapes_follow_the_spec, |app| {
    let client = app.post("/v1/clients", &json!({
        "firstName": "Marie", "lastName": "Jean", "email": "m@example.ht", "phoneNumber": "+50937000000", "walletAccountId": WALLET
    })).await.json::<Value>().await.unwrap();
    let p =
        payout(app, json!({ "clientId": client["id"], "assetAmount": 125.5, "assetCode": "USDC", "memo": "loan 42" }))
            .await;
    assert!(p["id"].as_str().unwrap().starts_with("pyt_"));
    assert_eq!(
        (p["type"].as_str(), p["approvalStatus"].as_str(), p["execStatus"].as_str()),
        (Some("direct"), Some("pending"), Some("pending"))
    );
    assert_eq!((p["assetAmount"].as_str(), p["walletAccountId"].as_str()), (Some("125.50"), Some(WALLET)));
    assert_eq!(
        p["client"],
        json!({ "id": client["id"], "firstName": "Marie", "lastName": "Jean", "walletAccountId": WALLET, "phoneNumber": "+50937000000", "email": "m@example.ht" })
    );
    let assets: Value = app.get("/v1/assets").await.json().await.unwrap();
    let usdc = assets["data"].as_array().unwrap().iter().find(|a| a["code"] == "USDC").unwrap().clone();
    assert_eq!(p["assetIssuer"], usdc["issuer"], "the configured issuer applies");
    assert_eq!(assets["data"].as_array().unwrap().len(), 6);
    assert!(p["updatedAt"].is_string() && p["attempts"] == json!([]));
    let list: Value = app.get("/v1/mfi/payouts").await.json().await.unwrap();
    let row = &list["data"][0];
    assert_eq!(
        row["client"],
        json!({ "id": client["id"], "firstName": "Marie", "lastName": "Jean", "walletAccountId": WALLET })
    );
    assert!(row.get("attempts").is_none() && row.get("assetIssuer").is_none());
    let xlm = payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "XLM" })).await;
    assert_eq!((xlm["assetIssuer"].clone(), xlm["client"].clone()), (Value::Null, Value::Null));
});

api_test!(approval_needs_the_scope_and_follows_the_rules, |app| {
    let p = payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 10, "assetCode": "USDC" })).await;
    let id = p["id"].as_str().unwrap();
    let writer = app.key(None, Environment::Test, &["payouts:write"]).await;
    expect_error(action(app, &writer, id, "approve").await, 403, "forbidden").await;
    let approver = app.key(None, Environment::Test, &["payouts:approve", "payouts:read"]).await;
    let r = action(app, &approver, id, "approve").await;
    assert_eq!(r.status(), 200);
    let approved: Value = r.json().await.unwrap();
    assert_eq!(
        (approved["approvalStatus"].as_str(), approved["execStatus"].as_str()),
        (Some("approved"), Some("pending"))
    );
    expect_error(action(app, &approver, id, "approve").await, 400, "cannot_approve").await;
    expect_error(action(app, &approver, id, "reject").await, 400, "cannot_reject").await;
    expect_error(action(app, &app.key, id, "retry").await, 400, "cannot_retry").await;
    let q = payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 10, "assetCode": "USDC" })).await;
    let r = app
        .post_with(
            &approver,
            &format!("/v1/payouts/{}/reject", q["id"].as_str().unwrap()),
            &json!({ "reason": "duplicate" }),
        )
        .await;
    assert_eq!(r.json::<Value>().await.unwrap()["approvalStatus"], "rejected");

    app.put("/v1/settings", &json!({ "requireDistinctApprover": true })).await;
    let mine = payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 10, "assetCode": "USDC" })).await;
    let mine_id = mine["id"].as_str().unwrap();
    expect_error(action(app, &app.key, mine_id, "approve").await, 400, "cannot_approve").await;
    assert_eq!(action(app, &approver, mine_id, "approve").await.status(), 200, "another key may approve");

    // Two keys may approve: switching approval off waits for the other one.
    let asked: Value = app.put("/v1/settings", &json!({ "payoutApprovalRequired": false })).await.json().await.unwrap();
    let change = asked["pendingChange"]["id"].as_str().unwrap();
    let waiting = payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 10, "assetCode": "USDC" })).await;
    assert_eq!(waiting["approvalStatus"], "pending", "not yet off");
    let r = app.post_with(&approver, &format!("/v1/settings/changes/{change}/confirm"), &json!({})).await;
    assert_eq!(r.status(), 200);
    let auto = payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 10, "assetCode": "USDC" })).await;
    assert_eq!(auto["approvalStatus"], "approved");
    let events: Value = app.get("/v1/events?type=payout.approved").await.json().await.unwrap();
    assert_eq!(events["pagination"]["total"], 3);
    let rejected: Value = app.get("/v1/events?type=payout.rejected").await.json().await.unwrap();
    assert_eq!(rejected["data"][0]["data"]["object"]["approvalStatus"], "rejected");
});

api_test!(sandbox_execution_end_to_end_and_filters, |app| {
    app.put("/v1/settings", &json!({ "payoutApprovalRequired": false })).await;
    let before = usdc_balance(app).await;
    let ok =
        payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 250, "assetCode": "USDC", "memo": "salary" }))
            .await;
    let lost = payout(
        app,
        json!({ "walletAccountId": magic::address("op_no_destination"), "assetAmount": 1, "assetCode": "USDC" }),
    )
    .await;
    let no_trust =
        payout(app, json!({ "walletAccountId": magic::address("op_no_trust"), "assetAmount": 1, "assetCode": "USDC" }))
            .await;
    let poor = payout(
        app,
        json!({ "walletAccountId": magic::address("op_underfunded"), "assetAmount": 1, "assetCode": "USDC" }),
    )
    .await;
    app.put("/v1/settings", &json!({ "payoutApprovalRequired": true })).await;
    let waiting = payout(app, json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "USDC" })).await;
    let list: Value = app.get("/v1/payouts?status=approved").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 4);

    assert_eq!(execute(app, Timestamp::now()).await, 4);
    let sent = get(app, ok["id"].as_str().unwrap()).await;
    assert_eq!(sent["execStatus"], "sent");
    let attempt = &sent["attempts"][0];
    assert_eq!((attempt["attemptNumber"].as_i64(), attempt["errorCode"].clone()), (Some(1), Value::Null));
    assert_eq!(attempt["txHash"].as_str().unwrap().len(), 64);
    assert!(attempt["ledgerSeq"].as_i64().unwrap() > 0);
    assert!(attempt["id"].as_str().unwrap().starts_with("att_"));
    let got = get(app, poor["id"].as_str().unwrap()).await;
    assert_eq!(
        (got["execStatus"].as_str(), got["attempts"][0]["errorCode"].as_str()),
        (Some("failed"), Some("op_underfunded"))
    );
    assert!(got["attempts"][0]["errorMessage"].is_string());
    // Destinations that cannot take the payment are held, nothing built, as on the live network.
    for (p, code) in [(&lost, "op_no_destination"), (&no_trust, "op_no_trust")] {
        let got = get(app, p["id"].as_str().unwrap()).await;
        assert_eq!((got["execStatus"].as_str(), got["hold"]["code"].as_str()), (Some("ready_to_send"), Some(code)));
        assert!(got["hold"]["message"].is_string() && got["attempts"].as_array().unwrap().is_empty(), "{got}");
    }
    let after: f64 = usdc_balance(app).await.parse().unwrap();
    assert_eq!(before.parse::<f64>().unwrap() - after, 250.0, "only the successful payout moved money");

    let list: Value = app.get("/v1/payouts").await.json().await.unwrap();
    let c = &list["counts"];
    assert_eq!(
        (c["all"].as_u64(), c["completed"].as_u64(), c["failed"].as_u64(), c["pending_approval"].as_u64()),
        (Some(5), Some(1), Some(1), Some(1))
    );
    let parts: u64 = ["pending_approval", "approved", "rejected", "executing", "completed", "failed"]
        .iter()
        .map(|k| c[k].as_u64().unwrap())
        .sum();
    assert_eq!(parts, 5, "counts partition all");
    for (status, n) in [("completed", 1), ("failed", 1), ("pending_approval", 1), ("executing", 2), ("rejected", 0)] {
        let v: Value = app.get(&format!("/v1/payouts?status={status}")).await.json().await.unwrap();
        assert_eq!(v["pagination"]["total"], n, "{status}");
    }
    let v: Value = app.get("/v1/payouts?type=disbursement").await.json().await.unwrap();
    assert_eq!(v["counts"]["all"], 0);
    let v: Value = app.get(&format!("/v1/payouts?search={}", &WALLET[..12])).await.json().await.unwrap();
    assert_eq!(v["counts"]["all"], 2);
    expect_error(app.get("/v1/payouts?status=done").await, 400, "validation_error").await;
    expect_error(app.get("/v1/payouts?type=bulk").await, 400, "validation_error").await;
    let completed: Value = app.get("/v1/events?type=payout.completed").await.json().await.unwrap();
    assert_eq!(completed["pagination"]["total"], 1);
    let failed: Value = app.get("/v1/events?type=payout.failed").await.json().await.unwrap();
    assert_eq!(failed["pagination"]["total"], 1);
    let held: Value = app.get("/v1/events?type=payout.held").await.json().await.unwrap();
    assert_eq!(held["pagination"]["total"], 2);

    // Retry re-queues a failed payout as a new attempt; it never overwrites the first.
    let lost_id = poor["id"].as_str().unwrap();
    let r = action(app, &app.key, lost_id, "retry").await;
    assert_eq!(r.json::<Value>().await.unwrap()["execStatus"], "pending");
    execute(app, Timestamp::now()).await;
    let again = get(app, lost_id).await;
    assert_eq!(again["attempts"].as_array().unwrap().len(), 2);
    assert_ne!(again["attempts"][0]["txHash"], again["attempts"][1]["txHash"], "a retry is a new transaction");
    expect_error(action(app, &app.key, waiting["id"].as_str().unwrap(), "retry").await, 400, "cannot_retry").await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    let r = app.get_with(&live, "/v1/sandbox/balances").await;
    expect_error(r, 403, "forbidden").await;
});

api_test!(the_no_trustline_test_address_is_paid_xlm_as_documented, |app| {
    app.put("/v1/settings", &json!({ "payoutApprovalRequired": false })).await;
    let address = magic::address("op_no_trust");
    let xlm = payout(app, json!({ "walletAccountId": address, "assetAmount": 2, "assetCode": "XLM" })).await;
    let usdc = payout(app, json!({ "walletAccountId": address, "assetAmount": 2, "assetCode": "USDC" })).await;
    execute(app, Timestamp::now()).await;
    let paid = get(app, xlm["id"].as_str().unwrap()).await;
    assert_eq!(paid["execStatus"], "sent", "XLM needs no trustline: {paid}");
    let held = get(app, usdc["id"].as_str().unwrap()).await;
    assert_eq!(held["hold"]["code"], "op_no_trust", "an issued asset does: {held}");
});

api_test!(a_timeout_is_resubmitted_identically_and_pays_once, |app| {
    app.put("/v1/settings", &json!({ "payoutApprovalRequired": false })).await;
    let before: f64 = usdc_balance(app).await.parse().unwrap();
    let p =
        payout(app, json!({ "walletAccountId": magic::address("timeout"), "assetAmount": 40, "assetCode": "USDC" }))
            .await;
    let id = p["id"].as_str().unwrap();
    let now = Timestamp::now();
    execute(app, now).await;
    let first = get(app, id).await;
    assert_eq!(
        (first["execStatus"].as_str(), first["attempts"][0]["errorCode"].as_str()),
        (Some("ready_to_send"), Some("tx_timeout"))
    );
    let list: Value = app.get("/v1/payouts?status=executing").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 1);
    assert_eq!(execute(app, now).await, 0, "not before its retry time");
    execute(app, now.plus_millis(6_000)).await;
    let done = get(app, id).await;
    assert_eq!(done["execStatus"], "sent");
    let attempts = done["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1, "the identical transaction was sent again, within its attempt");
    assert!(attempts[0]["ledgerSeq"].as_i64().is_some());
    let after: f64 = usdc_balance(app).await.parse().unwrap();
    assert_eq!(before - after, 40.0, "paid exactly once");
});

api_test!(sandbox_top_up_adds_to_a_balance, |app| {
    let r = app.post("/v1/sandbox/balances/top-up", &json!({ "assetCode": "HTG", "amount": 500.25 })).await;
    assert_eq!(r.status(), 200);
    let b: Value = r.json().await.unwrap();
    let htg = b["data"].as_array().unwrap().iter().find(|a| a["assetCode"] == "HTG").unwrap().clone();
    assert_eq!(htg["balance"], "1000500.25");
    assert!(b["account"].as_str().unwrap().starts_with('G'));
    expect_error(
        app.post("/v1/sandbox/balances/top-up", &json!({ "assetCode": "HTG", "amount": -1 })).await,
        400,
        "invalid_amount",
    )
    .await;
    let r = app
        .req(Method::POST, "/v1/sandbox/balances/top-up")
        .json(&json!({ "assetCode": "?", "amount": 1 }))
        .send()
        .await
        .unwrap();
    expect_error(r, 400, "invalid_asset_code").await;
});

api_test!(an_idempotent_payout_is_created_once, |app| {
    let body = json!({ "walletAccountId": WALLET, "assetAmount": 10, "assetCode": "USDC" });
    let send = || app.req(Method::POST, "/v1/payouts").header("idempotency-key", "salary-2026-11").json(&body).send();
    let first = send().await.unwrap();
    assert_eq!(first.status(), 201);
    let first: Value = first.json().await.unwrap();
    let again = send().await.unwrap();
    assert_eq!((again.status().as_u16(), again.headers()["idempotent-replayed"].to_str().unwrap()), (201, "true"));
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    let list: Value = app.get("/v1/payouts").await.json().await.unwrap();
    assert_eq!(list["counts"]["all"], 1);
    let created: Value = app.get("/v1/events?type=payout.created").await.json().await.unwrap();
    assert_eq!(created["pagination"]["total"], 1);
});

/// Two processes' executors on one PostgreSQL never submit the same payout twice.
#[tokio::test]
async fn two_executors_on_one_postgres_execute_each_payout_once() {
    use lajan_testkit::{Server, test_config};
    let Some(db) = lajan_store::testing::postgres("two_executors_on_one_postgres_execute_each_payout_once").await
    else {
        return;
    };
    let second_store = lajan_store::open(&db.url).await.unwrap();
    let app = TestApp::spawn(db, test_config()).await;
    let second = Server::start(second_store.clone(), test_config()).await;
    app.put("/v1/settings", &json!({ "payoutApprovalRequired": false })).await;
    let mut ids = Vec::new();
    for _ in 0..30 {
        ids.push(
            payout(&app, json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "USDC" })).await["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let now = Timestamp::now();
    let (a, b) = tokio::join!(app.workers().execute_payouts_once(now), second.workers.execute_payouts_once(now));
    assert_eq!(a.unwrap() + b.unwrap(), 30, "every payout claimed by exactly one executor");
    for id in &ids {
        let got = get(&app, id).await;
        assert_eq!((got["execStatus"].as_str(), got["attempts"].as_array().unwrap().len()), (Some("sent"), 1), "{id}");
    }
    assert_eq!(usdc_balance(&app).await, "999970.00", "30 payments of 1.00, each once");
    second.stop().await;
    second_store.close().await;
    app.stop().await;
}

api_test!(live_payouts_wait_without_a_trace_while_no_live_ledger_is_configured, |app| {
    let live = app.key(None, Environment::Live, &["*"]).await;
    let body = json!({ "walletAccountId": WALLET, "assetAmount": 5, "assetCode": "XLM" });
    let created: Value = app.post_with(&live, "/v1/payouts", &body).await.json().await.unwrap();
    let id = created["id"].as_str().unwrap();
    assert_eq!(action(app, &live, id, "approve").await.status(), 200);
    let now = Timestamp::now();
    for at in [now, now.plus_millis(301_000), now.plus_millis(602_000)] {
        execute(app, at).await;
    }
    let p: Value = app.get_with(&live, &format!("/v1/payouts/{id}")).await.json().await.unwrap();
    assert_eq!(p["execStatus"], "ready_to_send", "{p}");
    assert_eq!(p["attempts"].as_array().unwrap().len(), 0, "nothing was submitted, so no attempt");
    // An attempt left unfinished (a live ledger configured then, not now) is kept as it is.
    let claim = app.store().claim_payouts(now.plus_millis(1_000_000), 60_000, 1, Environment::Live).await.unwrap();
    app.store()
        .start_attempt(
            id,
            &claim.lease,
            NewAttempt { tx_hash: "hash", envelope: "envelope", channel_account: None },
            now,
        )
        .await
        .unwrap()
        .unwrap();
    execute(app, now.plus_millis(1_100_000)).await;
    let p: Value = app.get_with(&live, &format!("/v1/payouts/{id}")).await.json().await.unwrap();
    assert_eq!(p["attempts"].as_array().unwrap().len(), 1, "{p}");
});

api_test!(a_paid_payout_is_never_paid_again, |app| {
    // The executor's steps, played by hand on a live payout (no live ledger runs here): an
    // attempt whose outcome is unknown, then a second that fails for good.
    let live = app.key(None, Environment::Live, &["*"]).await;
    let body = json!({ "walletAccountId": WALLET, "assetAmount": 5, "assetCode": "XLM" });
    let created: Value = app.post_with(&live, "/v1/payouts", &body).await.json().await.unwrap();
    let id = created["id"].as_str().unwrap();
    assert_eq!(action(app, &live, id, "approve").await.status(), 200);
    let (store, tenant) = (app.store(), lajan_domain::Tenant::new(app.org.id.clone(), Environment::Live));
    let event = lajan_services::events::payout_event;
    let now = Timestamp::now();
    let claim = store.claim_payouts(now, 60_000, 10, Environment::Live).await.unwrap();
    let lease = claim.lease.as_str();
    let first = store
        .start_attempt(id, lease, NewAttempt { tx_hash: "aa11", envelope: "envelope-1", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    let second = store
        .start_attempt(id, lease, NewAttempt { tx_hash: "bb22", envelope: "envelope-2", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    let refused = AttemptResult::Failed { code: "op_no_trust".into(), message: "no trustline".into() };
    store.finish_attempt(id, &second.id, lease, &refused, Change::unkeyed(&tenant, now, &event)).await.unwrap();
    let unknown = AttemptResult::Retry { code: "tx_timeout".into(), message: "no answer".into(), retry_at: now };
    store.finish_attempt(id, &first.id, lease, &unknown, Change::unkeyed(&tenant, now, &event)).await.unwrap();
    let p: Value = app.get_with(&live, &format!("/v1/payouts/{id}")).await.json().await.unwrap();
    assert_eq!(p["execStatus"], "failed");

    // The first transaction may still land: a retry would build a third that could land too.
    let e = expect_error(action(app, &live, id, "retry").await, 400, "cannot_retry").await;
    assert!(e["message"].as_str().unwrap().contains("may still apply"), "{e}");
    // It lands: the payout was paid, and says so with its event; a retry is refused for good.
    store
        .finish_attempt(
            id,
            &first.id,
            lease,
            &AttemptResult::Sent { ledger_seq: 77 },
            Change::unkeyed(&tenant, now, &event),
        )
        .await
        .unwrap();
    let p: Value = app.get_with(&live, &format!("/v1/payouts/{id}")).await.json().await.unwrap();
    assert_eq!(p["execStatus"], "sent", "{p}");
    let completed: Value = app.get_with(&live, "/v1/events?type=payout.completed").await.json().await.unwrap();
    assert_eq!(completed["pagination"]["total"], 1);
    expect_error(action(app, &live, id, "retry").await, 400, "cannot_retry").await;
});
