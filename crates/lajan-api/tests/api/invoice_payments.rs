//! Every payment in is a payment of the invoice: `GET /v1/invoices/{id}/payments` lists each
//! (a Stellar payment with its transaction hash; one received outside Lajan, recorded by `POST`
//! with who recorded it), `invoice.payment_received` says so for each with the invoice's
//! balance, and `amountRemaining` is what is still due.

use lajan_domain::Environment;
use lajan_testkit::{TestApp, expect_error};
use reqwest::Method;
use serde_json::{Value, json};

async fn pay(app: &TestApp, invoice: &Value, amount: u32) -> Value {
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap();
    let path = format!("/v1/sandbox/payment-intents/{intent}/pay");
    let r = app.send_json(Method::POST, &path, &json!({ "amount": amount })).await;
    assert_eq!(r.status(), 201);
    r.json().await.unwrap()
}

async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

api_test!(each_payment_is_listed_on_the_invoice_with_its_event_and_the_balance, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    assert_eq!((invoice["total"].as_str(), invoice["amountRemaining"].as_str()), (Some("100.00"), Some("100.00")));
    assert_eq!(get(app, &format!("/v1/invoices/{id}/payments")).await["data"], json!([]));

    let first = pay(app, &invoice, 40).await;
    let after: Value = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((after["amountPaid"].as_str(), after["amountRemaining"].as_str()), (Some("40.00"), Some("60.00")));
    let listed = get(app, &format!("/v1/invoices/{id}/payments")).await;
    let payment = &listed["data"][0];
    assert!(payment["id"].as_str().unwrap().starts_with("ipy_"), "{payment}");
    assert_eq!(
        (&payment["invoiceId"], &payment["amount"], &payment["currency"], &payment["method"], &payment["reference"]),
        (&json!(id), &json!("40.00"), &json!("HTG"), &json!("stellar"), &first["txHash"])
    );
    assert_eq!(payment["recordedBy"], json!({ "type": "system", "id": "worker" }));
    assert_eq!((&payment["reversedAt"], &payment["reversalReason"]), (&Value::Null, &Value::Null));
    let events = get(app, "/v1/events?type=invoice.payment_received").await;
    let object = &events["data"][0]["data"]["object"];
    assert_eq!(
        (&object["id"], &object["amountRemaining"], &object["status"]),
        (&json!(id), &json!("60.00"), &json!("partially_paid"))
    );
    assert_eq!(&object["payment"], payment, "the event carries the payment as listed");

    // The one that settles it: a second record, a second event, then invoice.paid.
    pay(app, &invoice, 70).await;
    let paid = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((paid["status"].as_str(), paid["amountRemaining"].as_str()), (Some("paid"), Some("0.00")));
    let listed = get(app, &format!("/v1/invoices/{id}/payments?limit=1")).await;
    assert_eq!((&listed["data"][0]["amount"], &listed["pagination"]["total"]), (&json!("70.00"), &json!(2)));
    assert_eq!(get(app, "/v1/events?type=invoice.payment_received").await["pagination"]["total"], 2);
    let all = get(app, "/v1/events?limit=3").await;
    let order: Vec<&str> = all["data"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(order[..2], ["invoice.paid", "invoice.payment_received"], "newest first: {order:?}");

    // Only the invoice's own organization and environment see them.
    expect_error(app.get("/v1/invoices/inv_00000000000000000000000000000000/payments").await, 404, "not_found").await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    expect_error(app.get_with(&live, &format!("/v1/invoices/{id}/payments")).await, 404, "not_found").await;
    let reader = app.key(None, Environment::Test, &["clients:read"]).await;
    expect_error(app.get_with(&reader, &format!("/v1/invoices/{id}/payments")).await, 403, "forbidden").await;
});

async fn record(app: &TestApp, id: &str, key: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = app.req(Method::POST, &format!("/v1/invoices/{id}/payments")).json(&body);
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    request.send().await.unwrap()
}

api_test!(a_payment_received_outside_lajan_is_counted_once_and_names_who_recorded_it, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let cash = json!({ "amount": 30, "method": "cash", "reference": " REC-1 ", "paidAt": "2026-11-28T09:00:00-05:00" });
    let r = record(app, id, Some("branch-1"), cash.clone()).await;
    assert_eq!(r.status(), 201);
    let counted: Value = r.json().await.unwrap();
    assert_eq!(
        (&counted["amount"], &counted["method"], &counted["reference"], &counted["paidAt"]),
        (&json!("30.00"), &json!("cash"), &json!("REC-1"), &json!("2026-11-28T14:00:00.000Z"))
    );
    assert_eq!(counted["recordedBy"], json!({ "type": "api_key", "id": app.key_id }));
    // A retry with the same key is the same payment, counted once.
    let again: Value = record(app, id, Some("branch-1"), cash).await.json().await.unwrap();
    assert_eq!(again["id"], counted["id"]);
    assert_eq!(get(app, &format!("/v1/invoices/{id}/payments")).await["pagination"]["total"], 1);
    let after = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((after["amountPaid"].as_str(), after["amountRemaining"].as_str()), (Some("30.00"), Some("70.00")));
    let events = get(app, "/v1/events?type=invoice.payment_received").await;
    assert_eq!(events["data"][0]["actor"], json!({ "type": "api_key", "id": app.key_id }));
    assert_eq!(events["data"][0]["data"]["object"]["payment"], counted);

    // The rest by MonCash settles it: invoice.paid, made by the key.
    let r = record(app, id, None, json!({ "amount": 70, "method": "moncash", "reference": "MC-88" })).await;
    assert_eq!(r.status(), 201);
    let paid = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((paid["status"].as_str(), paid["amountRemaining"].as_str()), (Some("paid"), Some("0.00")));
    let settled = get(app, "/v1/events?type=invoice.paid").await;
    assert_eq!(settled["data"][0]["actor"], json!({ "type": "api_key", "id": app.key_id }));
    let body =
        expect_error(record(app, id, None, json!({ "amount": 1, "method": "cash" })).await, 400, "cannot_pay").await;
    assert!(body["message"].as_str().unwrap().contains("paid"), "{body}");

    // Every refusal changes nothing.
    let draft = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let draft_id = draft["id"].as_str().unwrap();
    expect_error(record(app, draft_id, None, json!({ "amount": 5, "method": "cash" })).await, 400, "cannot_pay").await;
    expect_error(record(app, draft_id, None, json!({ "amount": 0, "method": "cash" })).await, 400, "invalid_amount")
        .await;
    let bad =
        json!({ "amount": 5, "method": "stellar", "paidAt": "2999-01-01T00:00:00Z", "reference": "x".repeat(101) });
    let body = expect_error(record(app, draft_id, None, bad).await, 400, "validation_error").await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["method", "reference", "paidAt"]);
    expect_error(
        record(app, draft_id, None, json!({ "amount": 5, "method": "cash", "extra": 1 })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(get(app, &format!("/v1/invoices/{draft_id}/payments")).await["pagination"]["total"], 0);
    let reader = app.key(None, Environment::Test, &["invoices:read"]).await;
    let denied = app
        .send_json_with(
            &reader,
            Method::POST,
            &format!("/v1/invoices/{id}/payments"),
            &json!({ "amount": 1, "method": "cash" }),
        )
        .await;
    expect_error(denied, 403, "forbidden").await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    let elsewhere = app
        .send_json_with(
            &live,
            Method::POST,
            &format!("/v1/invoices/{id}/payments"),
            &json!({ "amount": 1, "method": "cash" }),
        )
        .await;
    expect_error(elsewhere, 404, "not_found").await;
});

async fn reverse(app: &TestApp, id: &str, payment: &str, key: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = app.req(Method::POST, &format!("/v1/invoices/{id}/payments/{payment}/reverse")).json(&body);
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    request.send().await.unwrap()
}

api_test!(a_reversed_payment_is_kept_with_its_reason_and_reopens_the_balance, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let ledger = pay(app, &invoice, 60).await;
    let cash: Value = record(app, id, None, json!({ "amount": 40, "method": "cash", "reference": "REC-9" }))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["status"], "paid");

    // The cash was entered by mistake: reversed, kept, and the invoice owes 40.00 again.
    let why = "Entered twice: the receipt was for another loan";
    let r = reverse(app, id, cash["id"].as_str().unwrap(), Some("undo-1"), json!({ "reason": why })).await;
    assert_eq!(r.status(), 200);
    let reversed: Value = r.json().await.unwrap();
    assert_eq!(
        (&reversed["id"], &reversed["reversalReason"], &reversed["amount"]),
        (&cash["id"], &json!(why), &json!("40.00"))
    );
    assert!(reversed["reversedAt"].is_string());
    let again = reverse(app, id, cash["id"].as_str().unwrap(), Some("undo-1"), json!({ "reason": why })).await;
    assert_eq!(again.status(), 200, "the same key replays the reversal");
    let reopened = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!(
        (&reopened["status"], &reopened["amountPaid"], &reopened["amountRemaining"], &reopened["paidAt"]),
        (&json!("partially_paid"), &json!("60.00"), &json!("40.00"), &Value::Null)
    );
    let listed = get(app, &format!("/v1/invoices/{id}/payments")).await;
    assert_eq!(listed["pagination"]["total"], 2, "kept, not deleted");
    assert_eq!(listed["data"][0], reversed);
    let events = get(app, "/v1/events?type=invoice.payment_reversed").await;
    assert_eq!(events["pagination"]["total"], 1);
    let event = &events["data"][0];
    assert_eq!(
        (&event["actor"]["id"], &event["data"]["object"]["amountRemaining"]),
        (&json!(app.key_id), &json!("40.00"))
    );
    assert_eq!(event["data"]["object"]["payment"], reversed);

    // The payment page asks for what is owed again, and a payment settles it again.
    pay(app, &invoice, 40).await;
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["status"], "paid");

    // Refusals change nothing.
    let body = expect_error(
        reverse(app, id, cash["id"].as_str().unwrap(), None, json!({ "reason": "again" })).await,
        400,
        "cannot_reverse",
    )
    .await;
    assert!(body["message"].as_str().unwrap().contains(why), "{body}");
    let body = expect_error(
        reverse(app, id, &ledger["id"].as_str().unwrap().replace("lp_", "ipy_"), None, json!({})).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "reason");
    let missing = reverse(app, id, "ipy_00000000000000000000000000000000", None, json!({ "reason": "x" })).await;
    expect_error(missing, 404, "not_found").await;
    let other = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let elsewhere =
        reverse(app, other["id"].as_str().unwrap(), cash["id"].as_str().unwrap(), None, json!({ "reason": "x" })).await;
    expect_error(elsewhere, 404, "not_found").await;
    assert_eq!(get(app, "/v1/events?type=invoice.payment_reversed").await["pagination"]["total"], 1);
});

api_test!(a_partly_paid_invoice_says_so_until_it_is_paid_and_overdue_wins_past_its_due_date, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let status_of = |id: String| async move { get(app, &format!("/v1/invoices/{id}")).await["status"].clone() };
    let listed = |status: &'static str| async move {
        get(app, &format!("/v1/invoices?status={status}")).await["pagination"]["total"].clone()
    };
    let invoice = app.invoice(cid, json!({ "dueDate": "2099-12-31", "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let cash: Value = record(app, id, None, json!({ "amount": 30, "method": "cash" })).await.json().await.unwrap();
    assert_eq!(status_of(id.into()).await, "partially_paid");
    assert_eq!((listed("partially_paid").await, listed("sent").await), (json!(1), json!(0)));

    // Sent again, it still says what was paid; with the payment reversed it is only sent.
    let resent = app.req(Method::POST, &format!("/v1/invoices/{id}/send")).send().await.unwrap();
    assert_eq!(resent.status(), 200);
    assert_eq!(status_of(id.into()).await, "partially_paid");
    let r = reverse(app, id, cash["id"].as_str().unwrap(), None, json!({ "reason": "wrong loan" })).await;
    assert_eq!(r.status(), 200);
    assert_eq!(status_of(id.into()).await, "sent");
    assert_eq!((listed("partially_paid").await, listed("sent").await), (json!(0), json!(1)));

    // Past its due date a partly paid invoice is overdue, and stays so until paid in full.
    let late = app.invoice(cid, json!({ "dueDate": "2020-01-01", "sendImmediately": true })).await;
    let late_id = late["id"].as_str().unwrap();
    record(app, late_id, None, json!({ "amount": 10, "method": "natcash" })).await;
    assert_eq!(status_of(late_id.into()).await, "partially_paid");
    assert_eq!(app.workers().mark_overdue_once(lajan_domain::Timestamp::now()).await.unwrap(), 1);
    assert_eq!(status_of(late_id.into()).await, "overdue");
    let overdue = get(app, "/v1/events?type=invoice.overdue").await;
    assert_eq!(overdue["data"][0]["data"]["object"]["amountRemaining"], "90.00");
    record(app, late_id, None, json!({ "amount": 50, "method": "cash" })).await;
    assert_eq!(status_of(late_id.into()).await, "overdue", "40.00 is still late");
    let resent = app.req(Method::POST, &format!("/v1/invoices/{late_id}/send")).send().await.unwrap();
    assert_eq!(resent.status(), 200);
    assert_eq!(status_of(late_id.into()).await, "partially_paid", "sent again, until the job sees it late");
    app.workers().mark_overdue_once(lajan_domain::Timestamp::now()).await.unwrap();
    assert_eq!(status_of(late_id.into()).await, "overdue");
    pay(app, &late, 40).await;
    assert_eq!(status_of(late_id.into()).await, "paid");
    assert_eq!(listed("overdue").await, json!(0));
});

api_test!(a_payment_the_database_aborts_to_break_a_deadlock_runs_again_and_is_counted_once, |app| {
    // A second connection holds the invoice's row lock; the payment takes its intent's and
    // waits for the invoice; the connection then asks for the intent: a deadlock, which
    // PostgreSQL breaks by aborting the payment. The payment runs again and is counted once,
    // never answered 500. (SQLite's one writer cannot deadlock: the payment just goes through.)
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let hold = app.db.hold_row("invoices", id).await;
    let payment = json!({ "amount": 25, "method": "cash", "reference": "R-1" });
    let path = format!("/v1/invoices/{id}/payments");
    let paying = app.send_json(Method::POST, &path, &payment);
    let crossing = async {
        if let Some(mut hold) = hold {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            hold.lock_also("payment_intents", &intent).await;
            hold.release().await;
        }
    };
    let (paid, ()) = tokio::join!(paying, crossing);
    assert_eq!(paid.status(), 201, "{:?}", paid.text().await);
    let listed = get(app, &format!("/v1/invoices/{id}/payments")).await;
    assert_eq!(listed["data"].as_array().unwrap().len(), 1, "counted once");
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["amountPaid"], "25.00");
    let received = get(app, "/v1/events?type=invoice.payment_received").await;
    assert_eq!(received["data"].as_array().unwrap().len(), 1, "one event");
});
