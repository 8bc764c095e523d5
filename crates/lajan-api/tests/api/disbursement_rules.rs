//! The rules a probe of the disbursements area asked for: a report safe to open in a
//! spreadsheet, one recipient per payout, idempotency over the whole request, strict CSV and
//! amounts, and four eyes on approval.

use crate::disbursements::{act, create, get, post_csv, wallet_2};
use lajan_domain::Environment;
use lajan_testkit::{TestApp, WALLET, expect_error};
use serde_json::{Value, json};

pub(crate) async fn report(app: &TestApp, id: &str) -> Vec<csv::StringRecord> {
    let r = app
        .http
        .get(app.url(&format!("/v1/disbursements/{id}/items")))
        .bearer_auth(&app.key)
        .header("accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    csv::Reader::from_reader(text.as_bytes()).records().map(Result::unwrap).collect()
}

/// The `(row, field, code)` of each bad row an `invalid_items` answer lists.
pub(crate) fn bad_rows(e: &Value) -> Vec<(u64, String, String)> {
    e["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let text = |k: &str| d[k].as_str().unwrap_or_default().to_owned();
            (d["row"].as_u64().unwrap(), text("field"), text("code"))
        })
        .collect()
}

api_test!(the_csv_report_writes_formulas_as_text, |app| {
    let items = json!([
        { "walletAccountId": WALLET, "assetAmount": 1, "memo": "=HYPERLINK(\"http://x\")", "externalId": "+cmd|' /C calc'!A0" },
        { "walletAccountId": WALLET, "assetAmount": 1, "memo": "@SUM(A1:A9)", "externalId": "-2+3" },
        { "walletAccountId": WALLET, "assetAmount": 1, "memo": "June", "externalId": " =1+1" },
    ]);
    let d = create(app, json!({ "name": "Formulas", "assetCode": "USDC", "items": items })).await;
    let id = d["id"].as_str().unwrap();
    let page = get(app, &format!("/v1/disbursements/{id}/items")).await;
    assert_eq!(page["data"][2]["externalId"], " =1+1", "the JSON view keeps the value as written");
    let rows = report(app, id).await;
    let cells: Vec<(&str, &str)> = rows.iter().map(|r| (&r[2], &r[6])).collect();
    assert_eq!(
        cells,
        vec![("'+cmd|' /C calc'!A0", "'=HYPERLINK(\"http://x\")"), ("'-2+3", "'@SUM(A1:A9)"), (" =1+1", "June"),],
        "externalId and memo cells that a spreadsheet would run start with '"
    );
    assert_eq!(&rows[0][5], "1.00", "amounts and ids are untouched");
});

api_test!(a_payout_pays_the_client_it_names, |app| {
    let client = app.client("Marie", "Jean").await;
    let other = wallet_2();
    let body = json!({ "clientId": client["id"], "walletAccountId": other, "assetAmount": 5, "assetCode": "USDC" });
    let e = expect_error(app.post("/v1/payouts", &body).await, 400, "invalid_wallet").await;
    assert!(e["message"].as_str().unwrap().contains("differs from the client's wallet"), "{e}");
    let body = json!({ "clientId": client["id"], "walletAccountId": WALLET, "assetAmount": 5, "assetCode": "USDC" });
    assert_eq!(app.post("/v1/payouts", &body).await.status(), 201, "the client's own wallet, named twice, is fine");
    let no_wallet: Value =
        app.post("/v1/clients", &json!({ "firstName": "No", "lastName": "Wallet" })).await.json().await.unwrap();
    let body = json!({ "clientId": no_wallet["id"], "walletAccountId": WALLET, "assetAmount": 5, "assetCode": "USDC" });
    let e = expect_error(app.post("/v1/payouts", &body).await, 400, "invalid_wallet").await;
    assert!(e["message"].as_str().unwrap().contains("the client has none"), "{e}");
    assert_eq!(get(app, "/v1/payouts").await["pagination"]["total"], 1, "only the consistent payout exists");

    let items = json!([
        { "clientId": client["id"], "walletAccountId": WALLET, "assetAmount": 1 },
        { "clientId": client["id"], "walletAccountId": other, "assetAmount": 1 },
    ]);
    let e = expect_error(
        app.post("/v1/disbursements", &json!({ "name": "Mixed", "assetCode": "USDC", "items": items })).await,
        400,
        "invalid_items",
    )
    .await;
    assert_eq!(bad_rows(&e), vec![(2, "walletAccountId".into(), "invalid_wallet".into())]);
    let csv = format!("clientId,walletAccountId,assetAmount\n{},{other},1\n", client["id"].as_str().unwrap());
    let e = expect_error(post_csv(app, "name=x&assetCode=USDC", &csv).await, 400, "invalid_items").await;
    assert_eq!(bad_rows(&e), vec![(1, "walletAccountId".into(), "invalid_wallet".into())]);
    assert_eq!(get(app, "/v1/disbursements").await["pagination"]["total"], 0);
});

api_test!(an_idempotency_key_covers_the_query_of_a_csv_create, |app| {
    let csv = format!("walletAccountId,assetAmount\n{WALLET},1\n");
    let send = |query: &'static str| {
        app.http
            .post(app.url(&format!("/v1/disbursements?{query}")))
            .bearer_auth(&app.key)
            .header("content-type", "text/csv")
            .header("idempotency-key", "csv-batch")
            .body(csv.clone())
            .send()
    };
    let first = send("name=June&assetCode=USDC").await.unwrap();
    assert_eq!(first.status(), 201);
    for other in ["name=July&assetCode=USDC", "name=June&assetCode=HTG", "name=June&assetCode=USDC&assetIssuer=x"] {
        expect_error(send(other).await.unwrap(), 422, "idempotency_key_reused").await;
    }
    let again = send("name=June&assetCode=USDC").await.unwrap();
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let list = get(app, "/v1/disbursements").await;
    assert_eq!(list["pagination"]["total"], 1);
    assert_eq!(list["data"][0]["name"], "June");
});

api_test!(csv_cells_are_taken_as_written_and_refused_as_json_would_be, |app| {
    let query = "name=Strict&assetCode=USDC";
    let e = expect_error(
        post_csv(app, query, &format!("walletAccountId,assetAmount,memo\n{WALLET},1,\"June\n{WALLET},2,x\n")).await,
        400,
        "invalid_csv",
    )
    .await;
    assert!(e["message"].as_str().unwrap().contains("never closed"), "{e}");
    let e = expect_error(
        post_csv(app, query, &format!("walletAccountId, assetAmount\n{WALLET},1\n")).await,
        400,
        "invalid_csv",
    )
    .await;
    assert!(e["message"].as_str().unwrap().contains("\" assetAmount\""), "{e}");
    let csv = format!(
        "walletAccountId,assetAmount,externalId\n\
         {WALLET},1\n\
         {WALLET}, 20.25,a\n\
         {WALLET} ,1,b\n\
         {WALLET},1e2,c\n\
         {WALLET},10.000,d\n\
         {WALLET},10.00, e \n"
    );
    let e = expect_error(post_csv(app, query, &csv).await, 400, "invalid_items").await;
    let row = |n: u64, field: &str, code: &str| (n, field.to_owned(), code.to_owned());
    assert_eq!(
        bad_rows(&e),
        vec![
            row(1, "row", "invalid_row"),
            row(2, "assetAmount", "invalid_amount"),
            row(3, "walletAccountId", "invalid_wallet"),
            row(4, "assetAmount", "invalid_amount"),
            row(5, "assetAmount", "invalid_amount"),
        ],
        "row 6 is valid: its externalId keeps its spaces"
    );
    // JSON refuses the same amounts.
    for amount in ["1e2", "10.000"] {
        let body = format!(
            r#"{{"name":"x","assetCode":"USDC","items":[{{"walletAccountId":"{WALLET}","assetAmount":{amount}}}]}}"#
        );
        let r = app
            .http
            .post(app.url("/v1/disbursements"))
            .bearer_auth(&app.key)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let e = expect_error(r, 400, "invalid_items").await;
        assert_eq!(bad_rows(&e), vec![row(1, "assetAmount", "invalid_amount")], "{amount}");
    }
    let good = format!("walletAccountId,assetAmount\n{WALLET},1\n");
    let e =
        expect_error(post_csv(app, "name=x&assetCode=USDC&colour=blue", &good).await, 400, "validation_error").await;
    assert_eq!(e["details"][0]["field"], "colour", "{e}");
    let e = expect_error(post_csv(app, "name=%FF%FE&assetCode=USDC", &good).await, 400, "validation_error").await;
    assert_eq!(e["details"][0]["field"], "name", "{e}");
    let json_body =
        json!({ "name": "x", "assetCode": "USDC", "items": [{ "walletAccountId": WALLET, "assetAmount": 1 }] });
    assert_eq!(get(app, "/v1/disbursements").await["pagination"]["total"], 0, "nothing was stored");
    // With JSON the query's batch fields stand in for those the body leaves out; the body's win.
    let r = app.post("/v1/disbursements?name=other", &json_body).await;
    assert_eq!((r.status().as_u16(), r.json::<Value>().await.unwrap()["name"].clone()), (201, json!("x")));
    let unnamed = json!({ "assetCode": "USDC", "items": [{ "walletAccountId": WALLET, "assetAmount": 1 }] });
    let r = app.post("/v1/disbursements?name=from%20the%20query", &unnamed).await;
    assert_eq!((r.status().as_u16(), r.json::<Value>().await.unwrap()["name"].clone()), (201, json!("from the query")));
    assert_eq!(post_csv(app, "name=June%20%C3%A9t%C3%A9&assetCode=USDC", &good).await.status(), 201);
});

api_test!(four_eyes_keep_the_creator_and_the_submitter_from_approving, |app| {
    app.put("/v1/settings", &json!({ "requireDistinctApprover": true })).await;
    let scopes = ["disbursements:write", "disbursements:read", "payouts:approve"];
    let creator = app.key(None, Environment::Test, &scopes).await;
    let submitter = app.key(None, Environment::Test, &scopes).await;
    let body =
        json!({ "name": "Loans", "assetCode": "USDC", "items": [{ "walletAccountId": WALLET, "assetAmount": 1 }] });
    let r = app.post_with(&creator, "/v1/disbursements", &body).await;
    assert_eq!(r.status(), 201);
    let id = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    assert_eq!(act(app, &submitter, &id, "submit").await.status(), 200);
    for (key, which) in [(&creator, "created"), (&submitter, "submitted")] {
        let e = expect_error(act(app, key, &id, "approve").await, 400, "cannot_approve").await;
        assert!(e["message"].as_str().unwrap().contains(&format!("this key {which} it")), "{e}");
    }
    assert_eq!(get(app, &format!("/v1/disbursements/{id}")).await["status"], "pending_approval");
    assert_eq!(act(app, &app.key, &id, "approve").await.status(), 200, "a third key approves");
});
