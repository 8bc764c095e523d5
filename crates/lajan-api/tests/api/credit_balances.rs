//! Money an invoice received beyond what it asks for (an overpayment, or all of it once the
//! invoice is voided) is never lost: it is the client's credit balance, per currency, and every
//! move of that balance is listed with why, the invoice, and the balance it left.

use lajan_domain::Environment;
use lajan_testkit::{TestApp, expect_error};
use reqwest::Method;
use serde_json::{Value, json};

async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

async fn post(app: &TestApp, path: &str, body: Value) -> Value {
    let r = app.req(Method::POST, path).json(&body).send().await.unwrap();
    assert!(r.status().is_success(), "{path}: {}", r.status());
    r.json().await.unwrap()
}

api_test!(an_overpayment_and_a_voided_invoices_payments_become_the_clients_credit_balance, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let balance = |currency: &'static str| async move {
        let found = get(app, &format!("/v1/clients/{cid}/credit-balance")).await;
        assert_eq!(found["clientId"], cid);
        found["balances"].as_array().unwrap().iter().find(|b| b["currency"] == currency).map(|b| b["amount"].clone())
    };
    assert_eq!(get(app, &format!("/v1/clients/{cid}/credit-balance")).await["balances"], json!([]));

    // 60.00 by Stellar and 70.00 in cash on a 100.00 invoice: paid, 30.00 held for the client.
    let invoice = app.invoice(cid, json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap();
    let r = app
        .send_json(Method::POST, &format!("/v1/sandbox/payment-intents/{intent}/pay"), &json!({ "amount": 60 }))
        .await;
    assert_eq!(r.status(), 201);
    let cash = post(app, &format!("/v1/invoices/{id}/payments"), json!({ "amount": 70, "method": "cash" })).await;
    let paid = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!(
        (&paid["status"], &paid["amountPaid"], &paid["amountRemaining"], &paid["amountOverpaid"]),
        (&json!("paid"), &json!("130.00"), &json!("0.00"), &json!("30.00"))
    );
    assert_eq!(balance("HTG").await, Some(json!("30.00")));
    let moves = get(app, &format!("/v1/clients/{cid}/credit-balance/transactions")).await;
    assert_eq!(moves["pagination"]["total"], 1);
    let first = &moves["data"][0];
    assert!(first["id"].as_str().unwrap().starts_with("cbt_"), "{first}");
    assert_eq!(
        (&first["amount"], &first["balanceAfter"], &first["cause"], &first["invoiceId"], &first["currency"]),
        (&json!("30.00"), &json!("30.00"), &json!("overpayment"), &json!(id), &json!("HTG"))
    );
    assert_eq!(first["actor"], json!({ "type": "api_key", "id": app.key_id }));
    let received = get(app, "/v1/events?type=invoice.payment_received").await;
    assert_eq!(received["data"][0]["data"]["object"]["amountOverpaid"], "30.00");

    // The cash was a mistake: reversed, the overpayment goes back and the invoice owes 40.00.
    let path = format!("/v1/invoices/{id}/payments/{}/reverse", cash["id"].as_str().unwrap());
    post(app, &path, json!({ "reason": "another loan's receipt" })).await;
    let reopened = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!(
        (&reopened["status"], &reopened["amountRemaining"], &reopened["amountOverpaid"]),
        (&json!("partially_paid"), &json!("40.00"), &json!("0.00"))
    );
    assert_eq!(balance("HTG").await, Some(json!("0.00")));
    let moves = get(app, &format!("/v1/clients/{cid}/credit-balance/transactions")).await;
    assert_eq!(
        (&moves["data"][0]["amount"], &moves["data"][0]["balanceAfter"], &moves["data"][0]["cause"]),
        (&json!("-30.00"), &json!("0.00"), &json!("payment_reversed"))
    );

    // A voided invoice asks for nothing: the 25.00 it received is held for the client.
    let other = app.invoice(cid, json!({ "sendImmediately": true })).await;
    let other_id = other["id"].as_str().unwrap();
    post(app, &format!("/v1/invoices/{other_id}/payments"), json!({ "amount": 25, "method": "moncash" })).await;
    let voided = post(app, &format!("/v1/invoices/{other_id}/void"), json!({ "reason": "rescheduled" })).await;
    assert_eq!(voided["status"], "void");
    assert_eq!(get(app, &format!("/v1/invoices/{other_id}")).await["amountOverpaid"], "25.00");
    assert_eq!(balance("HTG").await, Some(json!("25.00")));
    let moves = get(app, &format!("/v1/clients/{cid}/credit-balance/transactions?limit=1")).await;
    assert_eq!(
        (&moves["data"][0]["cause"], &moves["data"][0]["invoiceId"], &moves["pagination"]["total"]),
        (&json!("invoice_voided"), &json!(other_id), &json!(3))
    );

    // Only the client's own organization and environment see it, with clients:read.
    let nobody = "/v1/clients/cli_00000000000000000000000000000000/credit-balance";
    expect_error(app.get(nobody).await, 404, "not_found").await;
    expect_error(app.get(&format!("{nobody}/transactions")).await, 404, "not_found").await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    expect_error(app.get_with(&live, &format!("/v1/clients/{cid}/credit-balance")).await, 404, "not_found").await;
    let reader = app.key(None, Environment::Test, &["invoices:read"]).await;
    let denied = app.get_with(&reader, &format!("/v1/clients/{cid}/credit-balance/transactions")).await;
    expect_error(denied, 403, "forbidden").await;
});

api_test!(the_statement_explains_the_balance_line_by_line_as_json_and_csv, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let payments = format!("/v1/invoices/{id}/payments");
    let payment = |body: Value| post(app, &payments, body);
    payment(json!({ "amount": 40, "method": "cash", "reference": "=HYPERLINK(\"http://x\")" })).await;
    let mistake = payment(json!({ "amount": 90, "method": "moncash", "reference": "MC-1" })).await;
    let path = format!("/v1/invoices/{id}/payments/{}/reverse", mistake["id"].as_str().unwrap());
    post(app, &path, json!({ "reason": "another client's" })).await;

    let statement = get(app, &format!("/v1/invoices/{id}/statement")).await;
    assert_eq!((&statement["invoiceId"], &statement["amountRemaining"]), (&json!(id), &json!("60.00")));
    let lines: Vec<(&str, &str, &str)> = statement["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["type"].as_str().unwrap(), l["amount"].as_str().unwrap(), l["balance"].as_str().unwrap()))
        .collect();
    assert_eq!(
        lines,
        [
            ("invoiced", "100.00", "100.00"),
            ("payment", "-40.00", "60.00"),
            ("payment", "-90.00", "-30.00"),
            ("to_credit_balance", "30.00", "0.00"),
            ("payment_reversed", "90.00", "90.00"),
            ("from_credit_balance", "-30.00", "60.00"),
        ]
    );
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["amountRemaining"], "60.00", "the last balance");
    assert_eq!(
        (&statement["data"][4]["sourceId"], &statement["data"][4]["reference"]),
        (&mistake["id"], &json!("another client's"))
    );

    let r = app
        .req(Method::GET, &format!("/v1/invoices/{id}/statement"))
        .header("accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    assert!(r.headers()["content-disposition"].to_str().unwrap().contains("INV-000001-statement.csv"));
    let csv = r.text().await.unwrap();
    let rows: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(rows[0], "at,type,amount,balance,sourceId,method,reference");
    assert_eq!(rows.len(), 8, "a header, six lines and the last line's end: {csv}");
    assert!(
        rows[2].contains(",payment,-40.00,60.00,") && rows[2].ends_with(",cash,\"'=HYPERLINK(\"\"http://x\"\")\""),
        "{csv}"
    );
    expect_error(app.get("/v1/invoices/inv_00000000000000000000000000000000/statement").await, 404, "not_found").await;
});

api_test!(an_invoice_created_to_apply_the_credit_balance_is_paid_from_it_when_first_sent, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let balance = || async move {
        let found = get(app, &format!("/v1/clients/{cid}/credit-balance")).await;
        found["balances"][0]["amount"].as_str().map(str::to_owned)
    };
    // 130.00 in cash on 100.00: 30.00 held for the client.
    let first = app.invoice(cid, json!({ "sendImmediately": true })).await;
    let first_id = first["id"].as_str().unwrap();
    post(app, &format!("/v1/invoices/{first_id}/payments"), json!({ "amount": 130, "method": "cash" })).await;
    assert_eq!(balance().await.as_deref(), Some("30.00"));

    // Created to apply it: nothing moves while it is a draft (its total may still change).
    let next = app.invoice(cid, json!({ "applyCreditBalance": true })).await;
    let id = next["id"].as_str().unwrap();
    assert_eq!((&next["applyCreditBalance"], &next["amountPaid"]), (&json!(true), &json!("0.00")));
    assert_eq!(balance().await.as_deref(), Some("30.00"));
    let sent = post(app, &format!("/v1/invoices/{id}/send"), json!({})).await;
    assert_eq!(sent["status"], "partially_paid");
    let after = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((&after["amountPaid"], &after["amountRemaining"]), (&json!("30.00"), &json!("70.00")));
    assert_eq!(balance().await.as_deref(), Some("0.00"));
    let payments = get(app, &format!("/v1/invoices/{id}/payments")).await;
    let from_balance = &payments["data"][0];
    assert_eq!((&from_balance["method"], &from_balance["amount"]), (&json!("credit_balance"), &json!("30.00")));
    let moves = get(app, &format!("/v1/clients/{cid}/credit-balance/transactions")).await;
    let applied = &moves["data"][0];
    assert_eq!(
        (&applied["cause"], &applied["amount"], &applied["balanceAfter"], &applied["invoiceId"]),
        (&json!("applied"), &json!("-30.00"), &json!("0.00"), &json!(id))
    );
    assert_eq!(from_balance["reference"], applied["id"], "the payment names the balance's move");
    let received = get(app, "/v1/events?type=invoice.payment_received").await;
    assert_eq!(received["data"][0]["data"]["object"]["id"], id);
    let messages = get(app, "/v1/sandbox/messages").await;
    assert!(messages["data"][0]["text"].as_str().unwrap().contains("70.00"), "it asks for what is left");

    // Sent again, it takes nothing more: the balance pays a first send only.
    let third = app.invoice(cid, json!({ "sendImmediately": true })).await;
    let third_id = third["id"].as_str().unwrap();
    post(app, &format!("/v1/invoices/{third_id}/payments"), json!({ "amount": 105, "method": "cash" })).await;
    post(app, &format!("/v1/invoices/{id}/send"), json!({})).await;
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["amountPaid"], "30.00");

    // Reversed, what it took goes back to the balance; the statement shows it as a payment.
    let path = format!("/v1/invoices/{id}/payments/{}/reverse", from_balance["id"].as_str().unwrap());
    post(app, &path, json!({ "reason": "the client wants it back" })).await;
    assert_eq!(balance().await.as_deref(), Some("35.00"));
    let moves = get(app, &format!("/v1/clients/{cid}/credit-balance/transactions")).await;
    assert_eq!((&moves["data"][0]["cause"], &moves["data"][0]["amount"]), (&json!("unapplied"), &json!("30.00")));
    let statement = get(app, &format!("/v1/invoices/{id}/statement")).await;
    let kinds: Vec<(&str, &str)> = statement["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["type"].as_str().unwrap(), l["balance"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [("invoiced", "100.00"), ("payment", "70.00"), ("payment_reversed", "100.00")]);

    // Covered in full: paid on creation with sendImmediately, and no message asks for anything.
    let small = json!({ "applyCreditBalance": true, "sendImmediately": true,
                        "lineItems": [{ "description": "Fee", "quantity": 1, "unitPrice": 20 }] });
    let before = get(app, "/v1/sandbox/messages").await["pagination"]["total"].clone();
    let covered = app.invoice(cid, small).await;
    assert_eq!((&covered["status"], &covered["amountRemaining"]), (&json!("paid"), &json!("0.00")));
    assert_eq!(balance().await.as_deref(), Some("15.00"));
    assert_eq!(get(app, "/v1/sandbox/messages").await["pagination"]["total"], before);
    let paid = get(app, "/v1/events?type=invoice.paid").await;
    assert_eq!(paid["data"][0]["data"]["object"]["id"], covered["id"]);

    // Only applyCreditBalance takes from the balance: a clerk cannot record such a payment.
    let r = app
        .send_json(
            Method::POST,
            &format!("/v1/invoices/{id}/payments"),
            &json!({ "amount": 1, "method": "credit_balance" }),
        )
        .await;
    expect_error(r, 400, "validation_error").await;
});

api_test!(a_credit_balance_never_passes_the_largest_amount, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let amount: serde_json::Number = "922337203685.47".parse().unwrap();
    let most = json!({ "amount": amount, "method": "cash" });
    let first = app.invoice(cid, json!({ "sendImmediately": true })).await;
    post(app, &format!("/v1/invoices/{}/payments", first["id"].as_str().unwrap()), most.clone()).await;
    let held = get(app, &format!("/v1/clients/{cid}/credit-balance")).await;
    assert_eq!(held["balances"][0]["amount"], "922337203585.47", "all but the 100.00 owed");

    let second = app.invoice(cid, json!({ "sendImmediately": true })).await;
    let id = second["id"].as_str().unwrap();
    let r = app.req(Method::POST, &format!("/v1/invoices/{id}/payments")).json(&most).send().await.unwrap();
    let e = expect_error(r, 400, "credit_balance_full").await;
    assert!(e["message"].as_str().unwrap().contains("922337203685.47"), "{e}");
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["amountPaid"], "0.00", "nothing changed");
    assert_eq!(get(app, &format!("/v1/clients/{cid}/credit-balance")).await, held);
});

api_test!(an_archived_clients_credit_balance_is_gone_with_the_client, |app| {
    let client = app.reachable_client().await;
    let id = client["id"].as_str().unwrap();
    assert_eq!(app.get(&format!("/v1/clients/{id}/credit-balance")).await.status(), 200);
    let r = app.req(reqwest::Method::DELETE, &format!("/v1/clients/{id}")).send().await.unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    for path in [format!("/v1/clients/{id}/credit-balance"), format!("/v1/clients/{id}/credit-balance/transactions")] {
        lajan_testkit::expect_error(app.get(&path).await, 404, "not_found").await;
    }
});

api_test!(the_statement_tells_payments_in_the_order_they_committed, |app| {
    // Payment A (60) reads the clock, then waits to claim its Idempotency-Key (claims held here
    // from a second connection); payment B (70, no key) commits meanwhile, so A is what
    // overpays. Stamped with the time it read, A once sorted first and sent 30.00 to the credit
    // balance while the statement still said 40.00 was owed.
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let payments = format!("/v1/invoices/{id}/payments");
    let hold = app.db.hold_key_claims().await;
    let keyed = app.http.post(app.url(&payments)).bearer_auth(&app.key).header("idempotency-key", "payment-a");
    let waiting = keyed.json(&json!({ "amount": 60, "method": "cash", "reference": "A" })).send();
    let later = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let unkeyed = app.http.post(app.url(&payments)).bearer_auth(&app.key);
        let second = unkeyed.json(&json!({ "amount": 70, "method": "cash", "reference": "B" })).send();
        let release = async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            hold.release().await;
        };
        let (second, ()) = tokio::join!(second, release);
        assert_eq!(second.unwrap().status(), 201, "B");
    };
    let (first, ()) = tokio::join!(waiting, later);
    assert_eq!(first.unwrap().status(), 201, "A");
    let statement = get(app, &format!("/v1/invoices/{id}/statement")).await;
    let lines: Vec<(&str, &str)> = statement["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["type"].as_str().unwrap(), l["balance"].as_str().unwrap()))
        .collect();
    assert_eq!(
        lines[1..],
        [("payment", lines[1].1), ("payment", "-30.00"), ("to_credit_balance", "0.00")],
        "the excess goes to the balance once nothing is owed"
    );
});
