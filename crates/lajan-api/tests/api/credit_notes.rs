//! Credit notes: a sent invoice asks for less (a waiver, a rescheduling), numbered CN-000001 per
//! organization, listed, voided rather than deleted, with their events and the statement's lines.

use lajan_domain::Environment;
use lajan_testkit::{TestApp, expect_error};
use reqwest::Method;
use serde_json::{Value, json};

async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

async fn issue(app: &TestApp, id: &str, key: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = app.req(Method::POST, &format!("/v1/invoices/{id}/credit-notes")).json(&body);
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    request.send().await.unwrap()
}

api_test!(a_credit_note_lowers_what_is_owed_and_a_void_one_asks_for_it_again, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let waiver = json!({ "amount": 30, "reason": "waiver", "memo": "Late fee waived after the storm" });
    let r = issue(app, id, Some("waive-1"), waiver.clone()).await;
    assert_eq!(r.status(), 201);
    let note: Value = r.json().await.unwrap();
    assert!(note["id"].as_str().unwrap().starts_with("cn_"), "{note}");
    assert_eq!(
        (&note["number"], &note["amount"], &note["reason"], &note["status"], &note["currency"]),
        (&json!("CN-000001"), &json!("30.00"), &json!("waiver"), &json!("issued"), &json!("HTG"))
    );
    assert_eq!(note["createdBy"], json!({ "type": "api_key", "id": app.key_id }));
    let again: Value = issue(app, id, Some("waive-1"), waiver).await.json().await.unwrap();
    assert_eq!(again["id"], note["id"], "the same key issues it once");
    let after = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!(
        (&after["amountCredited"], &after["amountRemaining"], &after["status"]),
        (&json!("30.00"), &json!("70.00"), &json!("sent"))
    );
    let events = get(app, "/v1/events?type=credit_note.created").await;
    assert_eq!(events["pagination"]["total"], 1);
    assert_eq!(events["data"][0]["data"]["object"]["creditNote"], note);
    assert_eq!(events["data"][0]["data"]["object"]["amountRemaining"], "70.00");

    // Refusals change nothing.
    let body =
        expect_error(issue(app, id, None, json!({ "amount": 70.01, "reason": "other" })).await, 400, "invalid_amount")
            .await;
    assert!(body["message"].as_str().unwrap().contains("70.00"), "{body}");
    let body =
        expect_error(issue(app, id, None, json!({ "amount": 5, "reason": "gift" })).await, 400, "validation_error")
            .await;
    assert_eq!(body["details"][0]["field"], "reason");
    let draft = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let draft_id = draft["id"].as_str().unwrap();
    expect_error(issue(app, draft_id, None, json!({ "amount": 5, "reason": "other" })).await, 400, "cannot_credit")
        .await;
    let reader = app.key(None, Environment::Test, &["invoices:read"]).await;
    let denied = app
        .send_json_with(
            &reader,
            Method::POST,
            &format!("/v1/invoices/{id}/credit-notes"),
            &json!({ "amount": 1, "reason": "other" }),
        )
        .await;
    expect_error(denied, 403, "forbidden").await;
    assert_eq!(get(app, &format!("/v1/invoices/{id}/credit-notes")).await["data"].as_array().unwrap().len(), 1);

    // Voided: the invoice asks for the 30.00 again, and the statement shows both.
    let void_path = format!("/v1/invoices/{id}/credit-notes/{}/void", note["id"].as_str().unwrap());
    let r = app.req(Method::POST, &void_path).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let voided: Value = r.json().await.unwrap();
    assert_eq!((&voided["status"], &voided["voidedBy"]["id"]), (&json!("void"), &json!(app.key_id)));
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["amountRemaining"], "100.00");
    expect_error(app.req(Method::POST, &void_path).send().await.unwrap(), 400, "cannot_void").await;
    let statement = get(app, &format!("/v1/invoices/{id}/statement")).await;
    let kinds: Vec<&str> = statement["data"].as_array().unwrap().iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["invoiced", "credit_note", "credit_note_voided"]);
    assert_eq!(statement["data"][1]["reference"], "CN-000001");
    assert_eq!(get(app, "/v1/events?type=credit_note.voided").await["pagination"]["total"], 1);

    // A credit note for all that is left pays the invoice.
    let r = issue(app, id, None, json!({ "amount": 100, "reason": "duplicate" })).await;
    assert_eq!(r.json::<Value>().await.unwrap()["number"], "CN-000002");
    let paid = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((&paid["status"], &paid["amountRemaining"]), (&json!("paid"), &json!("0.00")));
    let missing =
        app.req(Method::POST, &format!("/v1/invoices/{id}/credit-notes/cn_00000000000000000000000000000000/void"));
    expect_error(missing.send().await.unwrap(), 404, "not_found").await;
    expect_error(app.get("/v1/invoices/inv_00000000000000000000000000000000/credit-notes").await, 404, "not_found")
        .await;
});

api_test!(a_credit_note_takes_back_units_of_the_invoices_lines_never_twice, |app| {
    let client = app.reachable_client().await;
    // Three months of a 33.33 fee with 10% tax (109.99), and a 5.00 stamp: 114.99 in all.
    let lines = json!({ "sendImmediately": true, "lineItems": [
        { "description": "Monthly fee", "quantity": 3, "unitPrice": 33.33, "taxRate": 10 },
        { "description": "Stamp", "quantity": 1, "unitPrice": 5, "taxRate": 0 },
    ] });
    let invoice = app.invoice(client["id"].as_str().unwrap(), lines).await;
    let id = invoice["id"].as_str().unwrap();
    assert_eq!(invoice["total"], "114.99");
    let credit = |lines: Value| issue(app, id, None, json!({ "lines": lines, "reason": "waiver" }));

    let r = credit(json!([{ "lineItem": 1, "quantity": 1 }, { "lineItem": 2 }])).await;
    assert_eq!(r.status(), 201);
    let first: Value = r.json().await.unwrap();
    assert_eq!(first["amount"], "41.66", "36.66 of the fee with its tax, and the stamp");
    assert_eq!(
        first["lines"],
        json!([
            { "lineItem": 1, "description": "Monthly fee", "quantity": "1", "amount": "36.66" },
            { "lineItem": 2, "description": "Stamp", "quantity": "1", "amount": "5.00" },
        ])
    );
    // The rest of the fee: what is left of the line to the cent, however it was split.
    let rest: Value = credit(json!([{ "lineItem": 1 }])).await.json().await.unwrap();
    assert_eq!((&rest["amount"], &rest["lines"][0]["quantity"]), (&json!("73.33"), &json!("2")));
    let after = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((&after["amountCredited"], &after["status"]), (&json!("114.99"), &json!("paid")));

    // Nothing of a line is credited twice; a voided note gives its units back.
    let twice = credit(json!([{ "lineItem": 2 }, { "lineItem": 3 }])).await;
    let refusal = expect_error(twice, 400, "validation_error").await;
    let fields: Vec<&str> =
        refusal["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["lines[0].quantity", "lines[1].lineItem"]);
    let path = format!("/v1/invoices/{id}/credit-notes/{}/void", first["id"].as_str().unwrap());
    let r = app.send_json(Method::POST, &path, &json!({})).await;
    assert_eq!(r.status(), 200);
    let again: Value = credit(json!([{ "lineItem": 2 }])).await.json().await.unwrap();
    assert_eq!(again["amount"], "5.00");

    // One or the other; both only when the amount is what the lines come to.
    let both = credit(json!(null)).await;
    expect_error(both, 400, "validation_error").await;
    let both = issue(app, id, None, json!({ "amount": 1, "lines": [{ "lineItem": 1 }], "reason": "other" })).await;
    let refusal = expect_error(both, 400, "invalid_amount").await;
    let message = refusal["message"].as_str().unwrap();
    assert!(message.starts_with("amount 1.00 is not what the lines take back: "), "{message}");
});
