//! Messages are records: every email and SMS an invoice's send queued, with its template,
//! language and status, listed and filtered, live (queued for the worker) and sandbox
//! (delivered at once, simulated) alike.

use lajan_domain::Environment;
use lajan_testkit::{TestApp, expect_error};
use serde_json::{Value, json};

async fn get(app: &TestApp, key: &str, path: &str) -> Value {
    let r = app.get_with(key, path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

api_test!(every_message_is_a_record_with_its_status_live_and_sandbox, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let key = app.key.clone();
    let listed = get(app, &key, "/v1/messages").await;
    assert_eq!(listed["pagination"]["total"], 2, "email and sms");
    for m in listed["data"].as_array().unwrap() {
        assert!(m["id"].as_str().unwrap().starts_with("msg_"), "{m}");
        assert_eq!(
            (&m["invoiceId"], &m["template"], &m["language"], &m["status"]),
            (&json!(id), &json!("invoice"), &json!("en"), &json!("delivered")),
            "a sandbox message is delivered at once, simulated: {m}"
        );
        assert!(m["providerId"].as_str().unwrap().starts_with("sandbox_"), "{m}");
    }
    let sms = get(app, &key, &format!("/v1/messages?channel=sms&invoiceId={id}")).await;
    assert_eq!(sms["pagination"]["total"], 1);
    let one = get(app, &key, &format!("/v1/messages/{}", sms["data"][0]["id"].as_str().unwrap())).await;
    assert_eq!((&one["channel"], &one["to"]), (&json!("sms"), &client["phoneNumber"]));
    assert_eq!(get(app, &key, "/v1/messages?status=failed").await["pagination"]["total"], 0);
    let sandbox = get(app, &key, "/v1/sandbox/messages").await;
    assert_eq!(sandbox["data"], listed["data"], "the sandbox list is the same list");

    let bad = app.get("/v1/messages?status=lost&clientId=inv_1").await;
    let refusal = expect_error(bad, 400, "validation_error").await;
    let fields: Vec<&str> =
        refusal["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["clientId", "status"]);
    expect_error(app.get("/v1/messages/msg_00000000000000000000000000000000").await, 404, "not_found").await;

    // Live: queued for the worker, and another environment's messages are not listed.
    let live = app.key(None, Environment::Live, &["*"]).await;
    let body = json!({ "firstName": "Jo", "lastName": "Pyè", "phoneNumber": "+50937000001" });
    let live_client: Value = app.post_with(&live, "/v1/clients", &body).await.json().await.unwrap();
    let invoice = json!({ "clientId": live_client["id"], "dueDate": "2030-01-31", "sendImmediately": true,
                          "lineItems": [{ "description": "Fee", "quantity": 1, "unitPrice": 10 }] });
    let r = app.post_with(&live, "/v1/invoices", &invoice).await;
    assert_eq!(r.status(), 201);
    let queued = get(app, &live, "/v1/messages").await;
    assert_eq!(queued["pagination"]["total"], 1);
    assert_eq!((&queued["data"][0]["status"], &queued["data"][0]["providerId"]), (&json!("queued"), &Value::Null));
    let elsewhere = app.get_with(&live, &format!("/v1/messages/{}", one["id"].as_str().unwrap())).await;
    expect_error(elsewhere, 404, "not_found").await;
});
