//! The invoices area through the router: shapes, exact money, every error code, the state
//! machine's actions, sending, and the events each writes.

use lajan_testkit::{TestApp, expect_error};
use reqwest::Method;
use serde_json::{Value, json};

async fn event_types(app: &TestApp) -> Vec<String> {
    let events: Value = app.get("/v1/events?limit=100").await.json().await.unwrap();
    events["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .filter(|t| t.starts_with("invoice."))
        .collect()
}

api_test!(create_and_get_show_the_documented_shapes_with_exact_money, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let created = app
        .invoice(
            cid,
            json!({
                "memo": "Merci",
                "lineItems": [
                    { "description": "Seeds", "quantity": 3, "unitPrice": 19.99 },
                    { "description": "Bags", "quantity": 3, "unitPrice": 0.1 },
                    { "description": "Taxed", "quantity": 1.5, "unitPrice": 0.05, "taxRate": 10 }
                ]
            }),
        )
        .await;
    assert!(created["id"].as_str().unwrap().starts_with("inv_"));
    assert_eq!(created["invoiceNumber"], "INV-000001");
    assert_eq!(created["status"], "draft");
    assert_eq!(created["currency"], "HTG", "the organization's default currency");
    assert_eq!(created["lineItems"][0]["amount"], "59.97");
    assert_eq!(created["lineItems"][0]["unitPrice"], "19.99");
    assert_eq!(created["lineItems"][0]["quantity"], 3);
    assert_eq!(created["lineItems"][1]["amount"], "0.30");
    assert_eq!(created["lineItems"][2]["amount"], "0.08", "1.5 x 0.05 = 0.075, half-up");
    assert_eq!(created["lineItems"][2]["taxRate"], 10);
    assert_eq!(created["lineItems"][2]["quantity"].to_string(), "1.5");
    assert_eq!(
        (created["subtotal"].as_str(), created["tax"].as_str(), created["total"].as_str()),
        (Some("60.35"), Some("0.01"), Some("60.36"))
    );
    assert_eq!(
        created["client"],
        json!({ "id": cid, "firstName": "Marie", "lastName": "Jean", "email": "marie@example.ht" })
    );
    let url = created["paymentLink"]["url"].as_str().unwrap();
    assert!(url.starts_with("https://pay.lajan.test/pay/pi_"), "{url}");
    assert_eq!(created["paymentLink"]["expiresAt"], Value::Null);
    assert_eq!((created["sentAt"].clone(), created["paidAt"].clone()), (Value::Null, Value::Null));
    assert_eq!(created["memo"], "Merci");

    let id = created["id"].as_str().unwrap();
    let got: Value = app.get(&format!("/v1/mfi/invoices/{id}")).await.json().await.unwrap();
    assert_eq!(got, created);
    let list: Value = app.get("/v1/invoices").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 1);
    let row = &list["data"][0];
    assert_eq!(
        (&row["total"], &row["amount"]),
        (&created["total"], &json!("60.36")),
        "one name as one invoice has it; the old kept"
    );
    assert_eq!(
        row["client"],
        json!({ "id": cid, "firstName": "Marie", "lastName": "Jean" }),
        "list rows carry no email"
    );
    assert!(row.get("lineItems").is_none());
    assert_eq!(event_types(app).await, ["invoice.created"]);

    app.put("/v1/settings", &json!({ "defaultCurrency": "USD", "defaultTaxRate": 7.5 })).await;
    let usd =
        app.invoice(cid, json!({ "lineItems": [{ "description": "Fee", "quantity": 1, "unitPrice": 19.99 }] })).await;
    assert_eq!(
        (usd["currency"].as_str(), usd["tax"].as_str(), usd["total"].as_str()),
        (Some("USD"), Some("1.50"), Some("21.49"))
    );
    assert_eq!(usd["invoiceNumber"], "INV-000002");
});

api_test!(every_create_error_code_changes_nothing, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let base = json!({ "clientId": cid, "dueDate": "2030-01-31", "lineItems": [{ "description": "A", "quantity": 1, "unitPrice": 1 }] });
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    let body = expect_error(app.post("/v1/invoices", &json!({})).await, 400, "validation_error").await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["clientId", "dueDate", "lineItems"]);
    expect_error(app.post("/v1/invoices", &with("currency", json!("EUR"))).await, 400, "invalid_currency").await;
    for bad in ["2030-02-30", "31/01/2030", "2030-1-1"] {
        expect_error(app.post("/v1/invoices", &with("dueDate", json!(bad))).await, 400, "invalid_due_date").await;
    }
    for items in [
        json!([]),
        json!([{ "description": "A", "quantity": 0, "unitPrice": 1 }]),
        json!([{ "description": "A", "quantity": 1, "unitPrice": 1.001 }]),
        json!([{ "description": "A", "quantity": 1.00001, "unitPrice": 1 }]),
        json!([{ "description": "", "quantity": 1, "unitPrice": 1 }]),
        json!([{ "description": "A", "quantity": 1, "unitPrice": -1 }]),
        json!([{ "description": "A", "quantity": 1, "unitPrice": 1, "taxRate": 100.5 }]),
        json!([{ "description": "A", "quantity": 1, "unitPrice": 922337203685.48 }]),
    ] {
        expect_error(app.post("/v1/invoices", &with("lineItems", items.clone())).await, 400, "invalid_line_items")
            .await;
    }
    let body = expect_error(
        app.post(
            "/v1/invoices",
            &with("lineItems", json!([{ "description": "A", "quantity": 1, "unitPrice": 1.001 }])),
        )
        .await,
        400,
        "invalid_line_items",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "lineItems[0].unitPrice");
    let body = expect_error(
        app.post("/v1/invoices", &with("lineItems", json!([{ "description": "A", "quantity": "1", "unitPrice": 1 }])))
            .await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "lineItems[0].quantity", "ill-typed is validation_error");
    expect_error(app.post("/v1/invoices", &with("clientId", json!("cli_nope"))).await, 400, "invalid_client").await;
    app.delete(&format!("/v1/clients/{cid}")).await;
    expect_error(app.post("/v1/invoices", &base).await, 400, "invalid_client").await;
    let list: Value = app.get("/v1/invoices").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 0);
    assert!(event_types(app).await.is_empty());
    expect_error(app.get("/v1/invoices/inv_nope").await, 404, "not_found").await;
    expect_error(app.put("/v1/invoices/inv_nope", &json!({})).await, 404, "not_found").await;
    expect_error(app.req(Method::POST, "/v1/invoices/inv_nope/send").send().await.unwrap(), 404, "not_found").await;
    expect_error(app.req(Method::POST, "/v1/invoices/inv_nope/void").send().await.unwrap(), 404, "not_found").await;
});

api_test!(drafts_update_and_recompute_then_lock_once_sent, |app| {
    let client = app.reachable_client().await;
    let inv = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let id = inv["id"].as_str().unwrap();
    let r = app
        .put(
            &format!("/v1/invoices/{id}"),
            &json!({
                "dueDate": "2031-06-30", "currency": "USD", "memo": null,
                "lineItems": [{ "description": "Two", "quantity": 2, "unitPrice": 12.5, "taxRate": 10 }]
            }),
        )
        .await;
    assert_eq!(r.status(), 200);
    let updated: Value = r.json().await.unwrap();
    assert_eq!(
        (updated["total"].as_str(), updated["subtotal"].as_str(), updated["tax"].as_str()),
        (Some("27.50"), Some("25.00"), Some("2.50"))
    );
    assert_eq!((updated["dueDate"].as_str(), updated["currency"].as_str()), (Some("2031-06-30"), Some("USD")));
    assert_eq!(updated["invoiceNumber"], inv["invoiceNumber"]);
    expect_error(app.put(&format!("/v1/invoices/{id}"), &json!({ "dueDate": "nope" })).await, 400, "invalid_due_date")
        .await;
    expect_error(
        app.put(&format!("/v1/invoices/{id}"), &json!({ "clientId": "cli_nope" })).await,
        400,
        "invalid_client",
    )
    .await;
    let r = app.req(Method::POST, &format!("/v1/invoices/{id}/send")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let body =
        expect_error(app.put(&format!("/v1/invoices/{id}"), &json!({ "memo": "late" })).await, 400, "cannot_update")
            .await;
    assert!(body["message"].as_str().unwrap().contains("sent"));
    let still: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
    assert_eq!(still["total"], "27.50");
});

api_test!(send_queues_messages_and_void_follows_the_rules, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let inv = app.invoice(cid, json!({})).await;
    let id = inv["id"].as_str().unwrap();
    let r = app.send_json(Method::POST, &format!("/v1/invoices/{id}/send"), &json!({ "channels": ["email"] })).await;
    assert_eq!(r.status(), 200);
    let answer: Value = r.json().await.unwrap();
    let queued = answer["messages"][0]["id"].as_str().unwrap();
    // The message it queued, as it stands: delivered at once, simulated, in the sandbox.
    let expected = json!({ "success": true, "sentVia": ["email"], "status": "sent",
                           "messages": [{ "id": queued, "channel": "email", "status": "delivered" }] });
    assert_eq!(answer, expected);
    let message: Value = app.get(&format!("/v1/messages/{queued}")).await.json().await.unwrap();
    assert_eq!((message["invoiceId"].as_str(), message["status"].as_str()), (Some(id), Some("delivered")));
    let r = app.req(Method::POST, &format!("/v1/invoices/{id}/send")).send().await.unwrap();
    assert_eq!(
        r.json::<Value>().await.unwrap()["sentVia"],
        json!(["email", "sms"]),
        "default: every available channel; resend allowed"
    );
    let messages: Value = app.get("/v1/sandbox/messages").await.json().await.unwrap();
    assert_eq!(messages["pagination"]["total"], 3);
    let link = inv["paymentLink"]["url"].as_str().unwrap();
    for m in messages["data"].as_array().unwrap() {
        assert_eq!(m["status"], "delivered", "simulated in the sandbox");
        assert!(m["text"].as_str().unwrap().contains(link), "{m}");
        assert!(m["text"].as_str().unwrap().contains("100.00"));
    }
    let email = messages["data"].as_array().unwrap().iter().find(|m| m["channel"] == "email").unwrap();
    assert_eq!(email["to"], "marie@example.ht");
    assert!(email["subject"].as_str().unwrap().contains("INV-000001"));
    assert!(email["html"].as_str().unwrap().contains(link));
    let sms = messages["data"].as_array().unwrap().iter().find(|m| m["channel"] == "sms").unwrap();
    assert!(sms["text"].as_str().unwrap().chars().count() <= 160);
    let got: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
    assert_eq!(got["status"], "sent");
    assert!(got["sentAt"].is_string());
    let body = expect_error(
        app.send_json(Method::POST, &format!("/v1/invoices/{id}/send"), &json!({ "channels": ["fax"] })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "channels[0]");

    let silent = app
        .post("/v1/clients", &json!({ "firstName": "No", "lastName": "Contact" }))
        .await
        .json::<Value>()
        .await
        .unwrap();
    let quiet = app.invoice(silent["id"].as_str().unwrap(), json!({})).await;
    let qid = quiet["id"].as_str().unwrap();
    expect_error(
        app.req(Method::POST, &format!("/v1/invoices/{qid}/send")).send().await.unwrap(),
        400,
        "no_channel_available",
    )
    .await;
    let email_only = app
        .post("/v1/clients", &json!({ "firstName": "E", "lastName": "Only", "email": "e@example.ht" }))
        .await
        .json::<Value>()
        .await
        .unwrap();
    let e_inv = app.invoice(email_only["id"].as_str().unwrap(), json!({})).await;
    let eid = e_inv["id"].as_str().unwrap();
    expect_error(
        app.send_json(Method::POST, &format!("/v1/invoices/{eid}/send"), &json!({ "channels": ["sms"] })).await,
        400,
        "no_channel_available",
    )
    .await;
    expect_error(app.post(&format!("/v1/invoices/{id}/send"), &json!({ "extra": 1 })).await, 400, "validation_error")
        .await;
    let r = app
        .req(Method::POST, &format!("/v1/invoices/{id}/send"))
        .header("content-type", "text/plain")
        .body("x")
        .send()
        .await
        .unwrap();
    expect_error(r, 415, "unsupported_media_type").await;

    let r = app.send_json(Method::POST, &format!("/v1/invoices/{qid}/void"), &json!({ "reason": "duplicate" })).await;
    assert_eq!(r.json::<Value>().await.unwrap(), json!({ "success": true, "status": "void" }));
    let again = app.req(Method::POST, &format!("/v1/invoices/{qid}/void")).send().await.unwrap();
    assert_eq!(again.status(), 200, "voiding a void invoice is a no-op");
    expect_error(app.req(Method::POST, &format!("/v1/invoices/{qid}/send")).send().await.unwrap(), 400, "cannot_send")
        .await;
    expect_error(app.put(&format!("/v1/invoices/{qid}"), &json!({ "memo": "x" })).await, 400, "cannot_update").await;
    let types = event_types(app).await;
    assert_eq!(types.iter().filter(|t| *t == "invoice.voided").count(), 1, "one event for two voids");
    assert_eq!(types.iter().filter(|t| *t == "invoice.sent").count(), 2);
    let voided: Value = app.get("/v1/events?type=invoice.voided").await.json().await.unwrap();
    assert_eq!(voided["data"][0]["data"]["object"]["status"], "void");
});

api_test!(send_immediately_sends_inside_create, |app| {
    let client = app.reachable_client().await;
    let inv = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    assert_eq!(inv["status"], "sent");
    assert!(inv["sentAt"].is_string());
    let messages: Value = app.get("/v1/sandbox/messages").await.json().await.unwrap();
    assert_eq!(messages["pagination"]["total"], 2);
    let silent = app
        .post("/v1/clients", &json!({ "firstName": "No", "lastName": "Contact" }))
        .await
        .json::<Value>()
        .await
        .unwrap();
    let body = json!({ "clientId": silent["id"], "dueDate": "2030-01-31", "sendImmediately": true,
                       "lineItems": [{ "description": "A", "quantity": 1, "unitPrice": 1 }] });
    expect_error(app.post("/v1/invoices", &body).await, 400, "no_channel_available").await;
    let list: Value = app.get("/v1/invoices").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 1, "a refused sendImmediately creates nothing");
});

api_test!(lists_filter_and_search, |app| {
    let marie = app.reachable_client().await;
    let paul = app
        .post("/v1/clients", &json!({ "firstName": "Paul", "lastName": "Pierre", "email": "p@example.ht" }))
        .await
        .json::<Value>()
        .await
        .unwrap();
    let a = app.invoice(marie["id"].as_str().unwrap(), json!({})).await;
    app.invoice(paul["id"].as_str().unwrap(), json!({})).await;
    app.req(Method::POST, &format!("/v1/invoices/{}/send", a["id"].as_str().unwrap())).send().await.unwrap();
    let total = |v: Value| v["pagination"]["total"].as_u64().unwrap();
    assert_eq!(total(app.get("/v1/invoices?status=sent").await.json().await.unwrap()), 1);
    assert_eq!(total(app.get("/v1/invoices?status=draft").await.json().await.unwrap()), 1);
    assert_eq!(
        total(app.get(&format!("/v1/invoices?clientId={}", paul["id"].as_str().unwrap())).await.json().await.unwrap()),
        1
    );
    assert_eq!(total(app.get("/v1/invoices?search=pierre").await.json().await.unwrap()), 1);
    assert_eq!(total(app.get("/v1/invoices?search=INV-00000").await.json().await.unwrap()), 2);
    let body = expect_error(app.get("/v1/invoices?status=late").await, 400, "validation_error").await;
    assert_eq!(body["details"][0]["field"], "status");
    expect_error(app.get("/v1/invoices?limit=500").await, 400, "invalid_pagination").await;
});

api_test!(concurrent_creates_get_unique_gapless_numbers, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap().to_owned();
    let body = json!({ "clientId": cid, "dueDate": "2030-01-31", "lineItems": [{ "description": "A", "quantity": 1, "unitPrice": 1 }] });
    let requests = (0..16).map(|_| app.post("/v1/invoices", &body));
    let mut numbers: Vec<String> = Vec::new();
    for r in futures::future::join_all(requests).await {
        assert_eq!(r.status(), 201);
        numbers.push(r.json::<Value>().await.unwrap()["invoiceNumber"].as_str().unwrap().to_owned());
    }
    numbers.sort();
    let expected: Vec<String> = (1..=16).map(|n| format!("INV-{n:06}")).collect();
    assert_eq!(numbers, expected);
});
