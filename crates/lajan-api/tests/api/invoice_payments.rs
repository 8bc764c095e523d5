//! Every payment in is a payment of the invoice: `GET /v1/invoices/{id}/payments` lists each
//! (a Stellar payment with its transaction hash), `invoice.payment_received` says so for each
//! with the invoice's balance, and `amountRemaining` is what is still due.

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
        (&json!(id), &json!("60.00"), &json!("sent"))
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
