//! The disbursements area through the router: creation from JSON and CSV with every bad row
//! reported at once, the lifecycle and its refusals, the balance check, the roll-up of the
//! items' payouts, the CSV report, events, and fair execution beside direct payouts.

use lajan_domain::{Environment, Timestamp};
use lajan_ledger::sandbox::magic;
use lajan_testkit::{TestApp, WALLET, expect_error};
use reqwest::Response;
use serde_json::{Value, json};

/// A second wallet the sandbox pays (any valid account that is not a magic one).
pub(crate) fn wallet_2() -> String {
    lajan_ledger::sandbox::derived_account("disbursement tests: a second wallet")
}

pub(crate) async fn create(app: &TestApp, body: Value) -> Value {
    let r = app.post("/v1/disbursements", &body).await;
    assert_eq!(r.status(), 201, "create disbursement");
    r.json().await.unwrap()
}

pub(crate) async fn post_csv(app: &TestApp, query: &str, csv: &str) -> Response {
    app.http
        .post(app.url(&format!("/v1/disbursements?{query}")))
        .bearer_auth(&app.key)
        .header("content-type", "text/csv")
        .body(csv.to_owned())
        .send()
        .await
        .unwrap()
}

pub(crate) async fn act(app: &TestApp, key: &str, id: &str, verb: &str) -> Response {
    app.http.post(app.url(&format!("/v1/disbursements/{id}/{verb}"))).bearer_auth(key).send().await.unwrap()
}

async fn act_ok(app: &TestApp, id: &str, verb: &str) -> Value {
    let r = act(app, &app.key, id, verb).await;
    assert_eq!(r.status(), 200, "{verb}");
    r.json().await.unwrap()
}

pub(crate) async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "GET {path}");
    r.json().await.unwrap()
}

async fn event_count(app: &TestApp, event_type: &str) -> u64 {
    get(app, &format!("/v1/events?type={event_type}")).await["pagination"]["total"].as_u64().unwrap()
}

fn rows(n: usize, amount: f64) -> Vec<Value> {
    (0..n)
        .map(|i| json!({ "walletAccountId": WALLET, "assetAmount": amount, "externalId": format!("emp-{i}") }))
        .collect()
}

api_test!(json_creates_a_draft_and_reads_follow_the_shape, |app| {
    let client = app.client("Marie", "Jean").await;
    let d = create(
        app,
        json!({ "name": "June stipends", "assetCode": "USDC", "items": [
            { "clientId": client["id"], "assetAmount": 125.5, "memo": "June", "externalId": "emp-1" },
            { "walletAccountId": wallet_2(), "assetAmount": 10 },
        ]}),
    )
    .await;
    let id = d["id"].as_str().unwrap();
    assert!(id.starts_with("dsb_"));
    assert_eq!((d["status"].as_str(), d["source"].as_str()), (Some("draft"), Some("json")));
    assert_eq!((d["itemCount"].as_u64(), d["totalAmount"].as_str()), (Some(2), Some("135.50")));
    assert_eq!(d["amountSent"], "0.00");
    assert_eq!(
        d["counts"],
        json!({ "pending": 2, "awaitingRegistration": 0, "executing": 0, "sent": 0, "failed": 0, "canceled": 0, "rejected": 0 })
    );
    assert!(d["assetIssuer"].is_string() && d["submittedAt"].is_null() && d["approvedAt"].is_null());
    assert_eq!(get(app, &format!("/v1/mfi/disbursements/{id}")).await, d);
    let page = get(app, &format!("/v1/disbursements/{id}/items")).await;
    assert_eq!(page["pagination"]["total"], 2);
    let first = &page["data"][0];
    assert!(first["id"].as_str().unwrap().starts_with("dsi_"));
    assert_eq!(
        (first["row"].as_u64(), first["clientId"].as_str(), first["walletAccountId"].as_str()),
        (Some(1), client["id"].as_str(), Some(WALLET)),
        "the client's wallet, resolved at create"
    );
    assert_eq!((first["assetAmount"].as_str(), first["externalId"].as_str()), (Some("125.50"), Some("emp-1")));
    assert!(first["payoutId"].is_null() && first["approvalStatus"].is_null() && first["txHash"].is_null());
    assert_eq!(page["data"][1]["row"], 2);

    create(app, json!({ "name": "July loans", "assetCode": "HTG", "items": rows(1, 5.0) })).await;
    let all = get(app, "/v1/disbursements").await;
    assert_eq!(all["pagination"]["total"], 2);
    assert_eq!(all["data"][0]["name"], "July loans", "newest first");
    let found = get(app, "/v1/disbursements?search=june").await;
    assert_eq!((found["pagination"]["total"].as_u64(), found["data"][0]["id"].as_str()), (Some(1), Some(id)));
    assert_eq!(get(app, "/v1/disbursements?status=approved").await["pagination"]["total"], 0);
    assert_eq!(get(app, "/v1/disbursements?status=draft").await["pagination"]["total"], 2);
    expect_error(app.get("/v1/disbursements?status=nope").await, 400, "validation_error").await;
    expect_error(app.get("/v1/disbursements/dsb_nope").await, 404, "not_found").await;
    expect_error(app.get("/v1/disbursements/dsb_nope/items").await, 404, "not_found").await;
    assert_eq!(event_count(app, "disbursement.created").await, 2);
    let live = app.key(None, Environment::Live, &["*"]).await;
    expect_error(app.get_with(&live, &format!("/v1/disbursements/{id}")).await, 404, "not_found").await;
    let reader = app.key(None, Environment::Test, &["payouts:read"]).await;
    expect_error(app.get_with(&reader, "/v1/disbursements").await, 403, "forbidden").await;
});

api_test!(csv_takes_a_bom_crlf_quotes_and_any_column_order, |app| {
    let csv = format!(
        "\u{FEFF}externalId,assetAmount,memo,walletAccountId\r\n\
         emp-1,\"1,5\",\"rent, June\",{WALLET}\r\n\
         emp-2,20.25,,{}\r\n\
         ,,,\r\n\
         \"emp-3\",3,\"say \"\"hi\"\"\",{WALLET}\r\n",
        wallet_2()
    );
    let r = post_csv(app, "name=June%20stipends&assetCode=USDC", &csv).await;
    let body = expect_error(r, 400, "invalid_items").await;
    assert_eq!(body["details"][0]["row"], 1, "1,5 is not an amount: {body}");
    assert_eq!(body["details"][0]["code"], "invalid_amount");
    let csv = csv.replace("\"1,5\"", "1.5");
    let r = post_csv(app, "name=June%20stipends&assetCode=USDC", &csv).await;
    assert_eq!(r.status(), 201);
    let d: Value = r.json().await.unwrap();
    assert_eq!((d["source"].as_str(), d["itemCount"].as_u64()), (Some("csv"), Some(3)));
    assert_eq!((d["name"].as_str(), d["totalAmount"].as_str()), (Some("June stipends"), Some("24.75")));
    let page = get(app, &format!("/v1/disbursements/{}/items", d["id"].as_str().unwrap())).await;
    let rows: Vec<(u64, Value)> =
        page["data"].as_array().unwrap().iter().map(|i| (i["row"].as_u64().unwrap(), i["memo"].clone())).collect();
    assert_eq!(rows, vec![(1, json!("rent, June")), (2, Value::Null), (4, json!("say \"hi\""))], "blank rows count");
    expect_error(post_csv(app, "assetCode=USDC", &csv).await, 400, "validation_error").await;
    let e =
        expect_error(post_csv(app, "name=x&assetCode=USDC", "amount,walletAccountId\n1,G").await, 400, "invalid_csv")
            .await;
    assert!(e["message"].as_str().unwrap().contains("amount"), "{e}");
    let e = expect_error(
        post_csv(app, "name=x&assetCode=USDC", "walletAccountId,assetAmount\n").await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(e["details"][0]["field"], "items");
    let r = app
        .http
        .post(app.url("/v1/disbursements"))
        .bearer_auth(&app.key)
        .header("content-type", "text/plain")
        .body("x")
        .send()
        .await
        .unwrap();
    expect_error(r, 415, "unsupported_media_type").await;
});

api_test!(the_guide_s_sample_file_is_a_valid_batch, |app| {
    let sample = include_str!("../../../../docs/examples/disbursement.csv");
    let r = post_csv(app, "name=June%20stipends&assetCode=USDC", sample).await;
    assert_eq!(r.status(), 201, "docs/examples/disbursement.csv must stay valid");
    let d: Value = r.json().await.unwrap();
    assert_eq!((d["itemCount"].as_u64(), d["totalAmount"].as_str()), (Some(4), Some("1497.55")));
});

api_test!(every_bad_row_is_reported_at_once_and_nothing_is_stored, |app| {
    let no_wallet = app.post("/v1/clients", &json!({ "firstName": "No", "lastName": "Wallet" })).await;
    let no_wallet: Value = no_wallet.json().await.unwrap();
    let good = json!({ "walletAccountId": WALLET, "assetAmount": 1, "externalId": "a" });
    let body = json!({ "name": "Bad rows", "assetCode": "USDC", "items": [
        good,
        { "assetAmount": 1 },
        { "clientId": "cli_nope", "assetAmount": -1 },
        { "clientId": no_wallet["id"], "assetAmount": 1 },
        { "walletAccountId": "GABC", "assetAmount": 1 },
        { "walletAccountId": WALLET, "assetAmount": 0 },
        { "walletAccountId": WALLET },
        { "walletAccountId": WALLET, "assetAmount": 1, "memo": "x".repeat(29) },
        { "walletAccountId": WALLET, "assetAmount": 1, "externalId": "a" },
        { "walletAccountId": WALLET, "assetAmount": 1, "externalId": "x".repeat(101) },
    ]});
    let e = expect_error(app.post("/v1/disbursements", &body).await, 400, "invalid_items").await;
    let got: Vec<(u64, &str, &str)> = e["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["row"].as_u64().unwrap(), d["field"].as_str().unwrap(), d["code"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        vec![
            (2, "walletAccountId", "missing_recipient"),
            (3, "clientId", "invalid_client"),
            (4, "clientId", "no_wallet"),
            (5, "walletAccountId", "invalid_wallet"),
            (6, "assetAmount", "invalid_amount"),
            (7, "assetAmount", "validation_error"),
            (8, "memo", "invalid_memo"),
            (9, "externalId", "duplicate_external_id"),
            (10, "externalId", "invalid_external_id"),
        ]
    );
    assert!(e["details"].as_array().unwrap().iter().all(|d| d["message"].as_str().is_some_and(|m| !m.is_empty())));
    assert!(e["message"].as_str().unwrap().contains("9 rows"), "{e}");
    // The same rows from a CSV, with a row of too many cells.
    let csv = format!("walletAccountId,assetAmount,externalId\n{WALLET},1,a\n,1,\n{WALLET},1,a\n{WALLET},1,b,extra\n");
    let e = expect_error(post_csv(app, "name=x&assetCode=USDC", &csv).await, 400, "invalid_items").await;
    let codes: Vec<(u64, &str)> = e["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["row"].as_u64().unwrap(), d["code"].as_str().unwrap()))
        .collect();
    assert_eq!(codes, vec![(2, "missing_recipient"), (3, "duplicate_external_id"), (4, "invalid_row")]);
    // The batch's own fields come first, before any row.
    for (body, code) in [
        (json!({ "assetCode": "USDC", "items": [good] }), "validation_error"),
        (json!({ "name": "x", "assetCode": "!", "items": [good] }), "invalid_asset_code"),
        (json!({ "name": "x", "assetCode": "XLM", "assetIssuer": WALLET, "items": [good] }), "invalid_asset_issuer"),
        (json!({ "name": "x", "assetCode": "USDC", "items": [] }), "validation_error"),
        (json!({ "name": "x", "assetCode": "USDC" }), "validation_error"),
    ] {
        expect_error(app.post("/v1/disbursements", &body).await, 400, code).await;
    }
    let e = expect_error(
        app.post("/v1/disbursements", &json!({ "name": "x", "assetCode": "USDC", "items": rows(10_001, 1.0) })).await,
        400,
        "validation_error",
    )
    .await;
    assert!(e["details"][0]["message"].as_str().unwrap().contains("10000"), "{e}");
    assert_eq!(get(app, "/v1/disbursements").await["pagination"]["total"], 0, "nothing was stored");
    assert_eq!(event_count(app, "disbursement.created").await, 0);
});

api_test!(the_lifecycle_moves_every_payout_and_refuses_wrong_states, |app| {
    let d = create(app, json!({ "name": "Loans", "assetCode": "USDC", "items": rows(3, 10.0) })).await;
    let id = d["id"].as_str().unwrap();
    for verb in ["approve", "reject", "retry-failed"] {
        let code = match verb {
            "approve" => "cannot_approve",
            "reject" => "cannot_reject",
            _ => "cannot_retry",
        };
        expect_error(act(app, &app.key, id, verb).await, 400, code).await;
    }
    let submitted = act_ok(app, id, "submit").await;
    assert_eq!(submitted["status"], "pending_approval");
    assert!(submitted["submittedAt"].is_string());
    expect_error(act(app, &app.key, id, "submit").await, 400, "cannot_submit").await;
    expect_error(app.delete(&format!("/v1/disbursements/{id}")).await, 400, "cannot_delete").await;
    let payouts = get(app, "/v1/payouts?type=disbursement").await;
    assert_eq!(payouts["pagination"]["total"], 3);
    assert_eq!(payouts["counts"]["pending_approval"], 3);
    let items = get(app, &format!("/v1/disbursements/{id}/items")).await;
    let payout_id = items["data"][0]["payoutId"].as_str().unwrap().to_owned();
    assert_eq!(items["data"][0]["approvalStatus"], "pending");
    let payout = get(app, &format!("/v1/payouts/{payout_id}")).await;
    assert_eq!((payout["type"].as_str(), payout["assetAmount"].as_str()), (Some("disbursement"), Some("10.00")));
    // A disbursement's payouts move with it, never one by one.
    let e = expect_error(
        app.http.post(app.url(&format!("/v1/payouts/{payout_id}/approve"))).bearer_auth(&app.key).send().await.unwrap(),
        400,
        "cannot_approve",
    )
    .await;
    assert!(e["message"].as_str().unwrap().contains(id), "{e}");
    let writer = app.key(None, Environment::Test, &["disbursements:write"]).await;
    expect_error(act(app, &writer, id, "approve").await, 403, "forbidden").await;
    let approved = act_ok(app, id, "approve").await;
    assert_eq!(approved["status"], "approved");
    assert!(approved["approvedAt"].is_string());
    assert_eq!(get(app, "/v1/payouts?type=disbursement").await["counts"]["approved"], 3);
    assert_eq!(event_count(app, "payout.created").await, 3);
    assert_eq!(event_count(app, "payout.approved").await, 3);
    assert_eq!(event_count(app, "disbursement.submitted").await, 1);
    assert_eq!(event_count(app, "disbursement.approved").await, 1);
    expect_error(act(app, &app.key, id, "reject").await, 400, "cannot_reject").await;

    let other = create(app, json!({ "name": "Refused", "assetCode": "USDC", "items": rows(2, 1.0) })).await;
    let other_id = other["id"].as_str().unwrap();
    act_ok(app, other_id, "submit").await;
    let r = app
        .http
        .post(app.url(&format!("/v1/disbursements/{other_id}/reject")))
        .bearer_auth(&app.key)
        .json(&json!({ "reason": "wrong month" }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let rejected: Value = r.json().await.unwrap();
    assert_eq!(
        (rejected["status"].as_str(), rejected["rejectReason"].as_str()),
        (Some("rejected"), Some("wrong month"))
    );
    assert_eq!(rejected["counts"]["rejected"], 2);
    assert_eq!(get(app, "/v1/payouts?type=disbursement").await["counts"]["rejected"], 2);
    assert_eq!(event_count(app, "payout.rejected").await, 2);
    assert_eq!(event_count(app, "disbursement.rejected").await, 1);
    app.drain_payouts().await;
    assert_eq!(get(app, &format!("/v1/disbursements/{other_id}")).await["status"], "rejected", "nothing ran");

    let draft = create(app, json!({ "name": "Mistake", "assetCode": "USDC", "items": rows(1, 1.0) })).await;
    let draft_id = draft["id"].as_str().unwrap();
    let r = app.delete(&format!("/v1/mfi/disbursements/{draft_id}")).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({ "id": draft_id, "deleted": true }));
    expect_error(app.get(&format!("/v1/disbursements/{draft_id}")).await, 404, "not_found").await;
});

api_test!(approval_by_the_submitting_key_follows_the_distinct_approver_rule, |app| {
    app.put("/v1/settings", &json!({ "requireDistinctApprover": true })).await;
    let d = create(app, json!({ "name": "Loans", "assetCode": "USDC", "items": rows(1, 1.0) })).await;
    let id = d["id"].as_str().unwrap();
    let submitter = app.key(None, Environment::Test, &["disbursements:write", "payouts:approve"]).await;
    assert_eq!(act(app, &submitter, id, "submit").await.status(), 200);
    let e = expect_error(act(app, &submitter, id, "approve").await, 400, "cannot_approve").await;
    assert!(e["message"].as_str().unwrap().contains("different API key"), "{e}");
    assert_eq!(get(app, &format!("/v1/disbursements/{id}")).await["status"], "pending_approval");
    // Neither may the key that created the draft (the four-eyes case is in disbursement_rules).
    expect_error(act(app, &app.key, id, "approve").await, 400, "cannot_approve").await;
    let third = app.key(None, Environment::Test, &["payouts:approve"]).await;
    assert_eq!(act(app, &third, id, "approve").await.status(), 200);
});

api_test!(without_approvals_a_submission_approves_at_once, |app| {
    app.put("/v1/settings", &json!({ "payoutApprovalRequired": false })).await;
    let d = create(app, json!({ "name": "Loans", "assetCode": "USDC", "items": rows(2, 1.0) })).await;
    let submitted = act_ok(app, d["id"].as_str().unwrap(), "submit").await;
    assert_eq!(submitted["status"], "approved");
    assert_eq!(get(app, "/v1/payouts?type=disbursement").await["counts"]["approved"], 2);
    assert_eq!(event_count(app, "disbursement.approved").await, 1);
    let big = create(app, json!({ "name": "Too much", "assetCode": "USDC", "items": rows(2, 600_000.0) })).await;
    let big_id = big["id"].as_str().unwrap();
    expect_error(act(app, &app.key, big_id, "submit").await, 400, "insufficient_balance").await;
    assert_eq!(get(app, &format!("/v1/disbursements/{big_id}")).await["status"], "draft", "nothing changed");
});

api_test!(approval_needs_the_balance_to_cover_the_batch_and_approved_payouts, |app| {
    // The sandbox account opens with 1,000,000.00 USDC; an approved direct payout holds 600,000.
    let r = app
        .post("/v1/payouts", &json!({ "walletAccountId": WALLET, "assetAmount": 600_000, "assetCode": "USDC" }))
        .await;
    let direct: Value = r.json().await.unwrap();
    let r = app.http.post(app.url(&format!("/v1/payouts/{}/approve", direct["id"].as_str().unwrap())));
    assert_eq!(r.bearer_auth(&app.key).send().await.unwrap().status(), 200);
    let d = create(app, json!({ "name": "Loans", "assetCode": "USDC", "items": rows(5, 100_000.0) })).await;
    let id = d["id"].as_str().unwrap();
    act_ok(app, id, "submit").await;
    let e = expect_error(act(app, &app.key, id, "approve").await, 400, "insufficient_balance").await;
    assert!(e["message"].as_str().unwrap().contains("100000.00 USDC more"), "{e}");
    let details: Vec<(&str, &str)> = e["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["field"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        details,
        vec![
            ("balance", "1000000.00"),
            ("committed", "600000.00"),
            ("totalAmount", "500000.00"),
            ("shortfall", "100000.00")
        ]
    );
    assert_eq!(get(app, &format!("/v1/disbursements/{id}")).await["status"], "pending_approval", "nothing changed");
    assert_eq!(get(app, "/v1/payouts?type=disbursement").await["counts"]["pending_approval"], 5);
    // Topped up, the account covers both.
    let r = app.post("/v1/sandbox/balances/top-up", &json!({ "assetCode": "USDC", "amount": 100_000 })).await;
    assert_eq!(r.status(), 200, "top up");
    assert_eq!(act_ok(app, id, "approve").await["status"], "approved");
});

api_test!(items_roll_up_into_the_status_and_failed_ones_retry, |app| {
    let failing = magic::address("op_underfunded");
    let batch = json!({ "name": "Mixed", "assetCode": "USDC", "items": [
        { "walletAccountId": WALLET, "assetAmount": 10, "externalId": "ok-1" },
        { "walletAccountId": failing, "assetAmount": 5, "externalId": "bad-1", "memo": "x, \"y\"" },
        { "walletAccountId": wallet_2(), "assetAmount": 2.5, "externalId": "ok-2" },
    ]});
    let d = create(app, batch).await;
    let id = d["id"].as_str().unwrap();
    act_ok(app, id, "submit").await;
    act_ok(app, id, "approve").await;
    app.drain_payouts().await;
    let done = get(app, &format!("/v1/disbursements/{id}")).await;
    assert_eq!(done["status"], "partially_failed", "{done}");
    assert_eq!(
        done["counts"],
        json!({ "pending": 0, "awaitingRegistration": 0, "executing": 0, "sent": 2, "failed": 1, "canceled": 0, "rejected": 0 })
    );
    assert_eq!(done["amountSent"], "12.50");
    assert_eq!(event_count(app, "disbursement.partially_failed").await, 1);
    assert_eq!(event_count(app, "payout.completed").await, 2);
    assert_eq!(event_count(app, "payout.failed").await, 1);
    let failed = get(app, &format!("/v1/disbursements/{id}/items?status=failed")).await;
    assert_eq!(failed["pagination"]["total"], 1);
    assert_eq!(
        (failed["data"][0]["row"].as_u64(), failed["data"][0]["errorCode"].as_str()),
        (Some(2), Some("op_underfunded"))
    );
    let sent = get(app, &format!("/v1/disbursements/{id}/items?status=sent")).await;
    assert_eq!(sent["pagination"]["total"], 2);
    assert!(sent["data"][0]["txHash"].as_str().is_some_and(|h| h.len() == 64));

    // The report: every item, the same columns, quoted where a cell needs it.
    let r = app
        .req(reqwest::Method::GET, &format!("/v1/disbursements/{id}/items"))
        .header("accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    assert!(r.headers()["content-disposition"].to_str().unwrap().contains(&format!("{id}-items.csv")));
    let report = r.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(report.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(
        header.join(","),
        "id,row,externalId,clientId,walletAccountId,assetAmount,memo,payoutId,approvalStatus,execStatus,txHash,errorCode,errorMessage"
    );
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 3);
    assert_eq!((&records[1][2], &records[1][5], &records[1][6]), ("bad-1", "5.00", "x, \"y\""));
    assert_eq!((&records[1][9], &records[1][11]), ("failed", "op_underfunded"));
    assert_eq!(&records[0][9], "sent");

    let retried = act_ok(app, id, "retry-failed").await;
    assert_eq!(retried["status"], "processing");
    assert_eq!(retried["counts"]["pending"], 1);
    assert_eq!(event_count(app, "payout.retried").await, 1);
    app.drain_payouts().await;
    let again = get(app, &format!("/v1/disbursements/{id}")).await;
    assert_eq!(again["status"], "partially_failed", "the magic address fails again");
    assert_eq!(event_count(app, "disbursement.partially_failed").await, 2);
    let item = get(app, &format!("/v1/disbursements/{id}/items?status=failed")).await;
    let payout = get(app, &format!("/v1/payouts/{}", item["data"][0]["payoutId"].as_str().unwrap())).await;
    assert_eq!(payout["attempts"].as_array().unwrap().len(), 2, "every attempt is kept");

    // All sent, and all failed.
    let good = create(app, json!({ "name": "Good", "assetCode": "USDC", "items": rows(2, 1.0) })).await;
    let bad = create(
        app,
        json!({ "name": "Bad", "assetCode": "USDC", "items": [{ "walletAccountId": failing, "assetAmount": 1 }] }),
    )
    .await;
    for d in [&good, &bad] {
        act_ok(app, d["id"].as_str().unwrap(), "submit").await;
        act_ok(app, d["id"].as_str().unwrap(), "approve").await;
    }
    app.drain_payouts().await;
    let good = get(app, &format!("/v1/disbursements/{}", good["id"].as_str().unwrap())).await;
    assert_eq!((good["status"].as_str(), good["amountSent"].as_str()), (Some("completed"), Some("2.00")));
    assert_eq!(get(app, &format!("/v1/disbursements/{}", bad["id"].as_str().unwrap())).await["status"], "failed");
    assert_eq!(event_count(app, "disbursement.completed").await, 1);
    assert_eq!(event_count(app, "disbursement.failed").await, 1);
    expect_error(act(app, &app.key, good["id"].as_str().unwrap(), "retry-failed").await, 400, "cannot_retry").await;
    let events = get(app, "/v1/events?type=disbursement.completed").await;
    assert_eq!(events["data"][0]["data"]["object"]["status"], "completed");
    assert_eq!(events["data"][0]["data"]["object"]["counts"]["sent"], 2);
});

api_test!(an_idempotency_key_creates_one_disbursement, |app| {
    let csv = format!("walletAccountId,assetAmount\n{WALLET},1\n");
    let send = || {
        app.http
            .post(app.url("/v1/disbursements?name=Once&assetCode=USDC"))
            .bearer_auth(&app.key)
            .header("content-type", "text/csv")
            .header("idempotency-key", "batch-1")
            .body(csv.clone())
            .send()
    };
    let first: Value = send().await.unwrap().json().await.unwrap();
    let second = send().await.unwrap();
    assert_eq!(second.headers()["idempotent-replayed"], "true");
    assert_eq!(second.json::<Value>().await.unwrap()["id"], first["id"]);
    assert_eq!(get(app, "/v1/disbursements").await["pagination"]["total"], 1);
    let submit = || {
        app.http
            .post(app.url(&format!("/v1/disbursements/{}/submit", first["id"].as_str().unwrap())))
            .bearer_auth(&app.key)
            .header("idempotency-key", "submit-1")
            .send()
    };
    assert_eq!(submit().await.unwrap().status(), 200);
    let replay = submit().await.unwrap();
    assert_eq!(replay.status(), 200, "replayed, not cannot_submit");
    assert_eq!(replay.headers()["idempotent-replayed"], "true");
    assert_eq!(get(app, "/v1/payouts?type=disbursement").await["pagination"]["total"], 1);
});

/// Small claims, a few paid at once: one step claims again and again while earlier claims are
/// being paid (on SQLite a claim waiting for the writer that a claim being paid holds would
/// stall both until the pool gave up).
fn small_claims() -> lajan_testkit::TestConfig {
    let mut config = lajan_testkit::test_config();
    config.workers.sandbox_claim_size = 7;
    config.workers.sandbox_claims_in_flight = 3;
    config
}

api_test!(one_step_pays_claim_after_claim_while_earlier_claims_are_paid, small_claims(), |app| {
    let d = create(app, json!({ "name": "Rolling", "assetCode": "USDC", "items": rows(150, 1.0) })).await;
    let id = d["id"].as_str().unwrap();
    act_ok(app, id, "submit").await;
    act_ok(app, id, "approve").await;
    let started = std::time::Instant::now();
    assert_eq!(app.workers().execute_payouts_once(Timestamp::now()).await.unwrap(), 150);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "no claim waited out the pool: {:?}",
        started.elapsed()
    );
    let done = get(app, &format!("/v1/disbursements/{id}")).await;
    assert_eq!((done["status"].as_str(), done["counts"]["sent"].as_u64()), (Some("completed"), Some(150)));
    let completed = get(app, "/v1/events?type=payout.completed&limit=1").await;
    assert_eq!(completed["pagination"]["total"], 150, "one completion each");
});

api_test!(a_direct_payout_is_not_starved_by_a_big_batch, |app| {
    let d = create(app, json!({ "name": "Big", "assetCode": "USDC", "items": rows(1_500, 1.0) })).await;
    let id = d["id"].as_str().unwrap();
    act_ok(app, id, "submit").await;
    act_ok(app, id, "approve").await;
    // Approved after 1,500 batch payouts: claims give direct payouts room beside a batch, and a
    // step goes on claiming while claims come back full, so one step pays both.
    let r = app.post("/v1/payouts", &json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "USDC" })).await;
    let direct: Value = r.json().await.unwrap();
    let direct_id = direct["id"].as_str().unwrap();
    let r = app.http.post(app.url(&format!("/v1/payouts/{direct_id}/approve"))).bearer_auth(&app.key).send().await;
    assert_eq!(r.unwrap().status(), 200);
    assert_eq!(app.workers().execute_payouts_once(Timestamp::now()).await.unwrap(), 1_501);
    assert_eq!(get(app, &format!("/v1/payouts/{direct_id}")).await["execStatus"], "sent");
    let done = get(app, &format!("/v1/disbursements/{id}")).await;
    assert_eq!((done["status"].as_str(), done["counts"]["sent"].as_u64()), (Some("completed"), Some(1_500)));
});
