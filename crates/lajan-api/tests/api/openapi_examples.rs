//! The OpenAPI document's examples (`crates/lajan-api/openapi/examples.json`) are real requests
//! and answers: this test calls every operation through the router, as an integrator's first
//! week would, and checks that each example has the shape of the answer it gets now (the same
//! keys at every level). `UPDATE_SNAPSHOTS=1` writes the examples from the calls it made.

use crate::home_domains::{DNS, with_dns};
use lajan_domain::Timestamp;
use lajan_ledger::sandbox::magic;
use lajan_testkit::{TestApp, WALLET, shape};
use lajan_worker::testing::WebhookReceiver;
use reqwest::Method;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/examples.json");

/// The first request and the first answer of each status, by `"METHOD /path/{template}"`.
struct Recorder<'a> {
    app: &'a TestApp,
    taken: BTreeMap<String, Map<String, Value>>,
}

enum Body {
    None,
    Json(Value),
    Csv(&'static str),
}

impl Recorder<'_> {
    /// Calls `method template` (`{...}` replaced by `ids`, in order; a query is sent, not
    /// recorded) and records the request and the answer; returns the answer's JSON (or its
    /// text, as a JSON string).
    async fn call(&mut self, method: Method, template: &str, ids: &[&str], body: Body, accept: &str) -> Value {
        let mut path = template.to_owned();
        for id in ids {
            let start = path.find('{').expect("a placeholder per id");
            let end = start + path[start..].find('}').unwrap();
            path.replace_range(start..=end, id);
        }
        let mut request = self.app.req(method.clone(), &path).header("accept", accept);
        request = match &body {
            Body::None => request,
            Body::Json(value) => request.json(value),
            Body::Csv(text) => request.header("content-type", "text/csv").body(*text),
        };
        let answer = request.send().await.unwrap();
        let status = answer.status().as_u16();
        let csv = answer.headers()["content-type"].to_str().unwrap().starts_with("text/csv");
        let text = answer.text().await.unwrap();
        let value = if csv { Value::String(text) } else { serde_json::from_str(&text).unwrap() };
        let operation = template.split('?').next().unwrap_or(template);
        let entry = self.taken.entry(format!("{method} {operation}")).or_default();
        match body {
            Body::Json(value) => {
                entry.entry("request").or_insert(value);
            }
            Body::Csv(text) => {
                entry.entry("requestCsv").or_insert(Value::String(text.into()));
            }
            Body::None => {}
        }
        let responses = entry.entry("responses").or_insert_with(|| json!({}));
        let key = if csv { format!("{status} text/csv") } else { status.to_string() };
        responses.as_object_mut().unwrap().entry(key).or_insert(value.clone());
        value
    }

    async fn get(&mut self, template: &str, ids: &[&str]) -> Value {
        self.call(Method::GET, template, ids, Body::None, "application/json").await
    }

    async fn post(&mut self, template: &str, ids: &[&str], body: Value) -> Value {
        self.call(Method::POST, template, ids, Body::Json(body), "application/json").await
    }

    /// A POST the document shows without a body (approve, submit, ...).
    async fn post_empty(&mut self, template: &str, ids: &[&str]) -> Value {
        self.call(Method::POST, template, ids, Body::None, "application/json").await
    }

    async fn put(&mut self, template: &str, ids: &[&str], body: Value) -> Value {
        self.call(Method::PUT, template, ids, Body::Json(body), "application/json").await
    }

    async fn delete(&mut self, template: &str, ids: &[&str]) -> Value {
        self.call(Method::DELETE, template, ids, Body::None, "application/json").await
    }
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap_or_else(|| panic!("no id in {v}")).to_owned()
}

/// Every operation of the document, called at least once.
async fn call_everything(r: &mut Recorder<'_>, receiver: &WebhookReceiver) {
    let app = r.app;
    // Webhooks first, so the week's events reach the endpoint.
    let endpoint = r
        .post(
            "/v1/webhook-endpoints",
            &[],
            json!({ "url": receiver.url("/lajan/webhooks"), "events": ["invoice.*", "payout.*"], "description": "Accounting system" }),
        )
        .await;
    let we = id(&endpoint);
    r.get("/v1/webhook-endpoints", &[]).await;
    r.get("/v1/webhook-endpoints/{id}", &[&we]).await;

    let client = r
        .post(
            "/v1/clients",
            &[],
            json!({ "firstName": "Marie", "lastName": "Jean-Baptiste", "email": "marie@example.ht",
                    "phoneNumber": "+50937001234", "walletAccountId": WALLET }),
        )
        .await;
    let cli = id(&client);
    r.post("/v1/clients", &[], json!({ "firstName": "Marie", "lastName": "Jean", "email": "marie@" })).await;
    r.get("/v1/clients", &[]).await;
    r.get("/v1/clients/{id}", &[&cli]).await;
    r.get("/v1/clients/{id}", &["cli_0193a4b1c2d37e4f8a9b0c1d2e3f4a5b"]).await;
    r.put("/v1/clients/{id}", &[&cli], json!({ "phoneNumber": "+50937005678" })).await;
    let leaving = app.client("Jean", "Pierre").await;
    r.delete("/v1/clients/{id}", &[&id(&leaving)]).await;

    r.get("/v1/settings", &[]).await;
    r.put("/v1/settings", &[], json!({ "defaultCurrency": "HTG", "timezone": "America/Port-au-Prince" })).await;
    // A home domain, proved with the TXT record its check names, then cleared again.
    app.put("/v1/settings", &json!({ "homeDomain": "pay.fonkoze.example" })).await;
    let check = r.get("/v1/settings/home-domain", &[]).await;
    let record = (check["record"]["name"].as_str().unwrap(), check["record"]["value"].as_str().unwrap());
    DNS.add_txt(record.0, record.1);
    r.post_empty("/v1/settings/home-domain/verify", &[]).await;
    app.put("/v1/settings", &json!({ "homeDomain": "" })).await;

    let line = json!({ "description": "Loan repayment, March", "quantity": 1, "unitPrice": 2500, "taxRate": 0 });
    let draft = r
        .post(
            "/v1/invoices",
            &[],
            json!({ "clientId": cli, "currency": "HTG", "dueDate": "2030-03-31", "lineItems": [line],
                    "memo": "Thank you for your payment" }),
        )
        .await;
    let inv = id(&draft);
    let fee = json!({ "description": "Late fee", "quantity": 1, "unitPrice": 150 });
    r.put("/v1/invoices/{id}", &[&inv], json!({ "lineItems": [line, fee] })).await;
    let sent = r.post("/v1/invoices/{id}/send", &[&inv], json!({ "channels": ["email", "sms"] })).await;
    assert_eq!(sent["status"], "sent", "{sent}");
    r.get("/v1/invoices", &[]).await;
    let invoice = r.get("/v1/invoices/{id}", &[&inv]).await;
    let messages = r.get("/v1/sandbox/messages", &[]).await;
    r.get("/v1/messages", &[]).await;
    r.get("/v1/messages/{id}", &[&id(&messages["data"][0])]).await;
    // Three days before the due date, 09:00 in Port-au-Prince.
    r.post("/v1/sandbox/invoices/{id}/remind", &[&inv], json!({ "at": "2030-03-28T13:00:00Z" })).await;
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    r.post("/v1/sandbox/payment-intents/{id}/pay", &[&intent], json!({})).await;
    app.workers().apply_payments_once().await.unwrap();
    r.get("/v1/invoices/{id}/payments", &[&inv]).await;
    let owing = app.invoice(&cli, json!({ "sendImmediately": true })).await;
    let cash =
        json!({ "amount": 40, "method": "cash", "reference": "REC-2026-0042", "paidAt": "2026-11-28T14:30:00-05:00" });
    let counted = r.post("/v1/invoices/{id}/payments", &[&id(&owing)], cash).await;
    let reason = json!({ "reason": "Counted twice: the branch entered the receipt again" });
    r.post("/v1/invoices/{id}/payments/{paymentId}/reverse", &[&id(&owing), &id(&counted)], reason).await;
    // A late fee waived, then the waiver withdrawn.
    let waiver = json!({ "amount": 25, "reason": "waiver", "memo": "Late fee waived after the storm" });
    let note = r.post("/v1/invoices/{id}/credit-notes", &[&id(&owing)], waiver).await;
    r.get("/v1/invoices/{id}/credit-notes", &[&id(&owing)]).await;
    r.post_empty("/v1/invoices/{id}/credit-notes/{creditNoteId}/void", &[&id(&owing), &id(&note)]).await;
    // Paid 150.00 at the branch for 100.00: the 50.00 beyond is the client's credit balance.
    app.post(&format!("/v1/invoices/{}/payments", id(&owing)), &json!({ "amount": 150, "method": "cash" })).await;
    r.get("/v1/clients/{id}/credit-balance", &[&cli]).await;
    r.get("/v1/clients/{id}/credit-balance/transactions", &[&cli]).await;
    r.get("/v1/invoices/{id}/statement", &[&id(&owing)]).await;
    r.call(Method::GET, "/v1/invoices/{id}/statement", &[&id(&owing)], Body::None, "text/csv").await;
    let voided = app.invoice(&cli, json!({})).await;
    r.post("/v1/invoices/{id}/void", &[&id(&voided)], json!({ "reason": "Issued twice" })).await;

    let link = r
        .post("/v1/payment-links", &[], json!({ "amount": 500, "currency": "HTG", "description": "Membership fee" }))
        .await;
    r.get("/v1/payment-links", &[]).await;
    r.get("/v1/payment-links/{id}", &[&id(&link)]).await;
    r.delete("/v1/payment-links/{id}", &[&id(&link)]).await;

    r.get("/v1/assets", &[]).await;
    r.get("/v1/sandbox/balances", &[]).await;
    r.post("/v1/sandbox/balances/top-up", &[], json!({ "assetCode": "USDC", "amount": 5000 })).await;
    let payout = |memo: &str, wallet: &str| json!({ "walletAccountId": wallet, "assetAmount": 125.5, "assetCode": "USDC", "memo": memo });
    let paid = r
        .post(
            "/v1/payouts",
            &[],
            json!({ "clientId": cli, "assetAmount": 125.5, "assetCode": "USDC", "memo": "Loan 2231" }),
        )
        .await;
    r.post_empty("/v1/payouts/{id}/approve", &[&id(&paid)]).await;
    r.post_empty("/v1/payouts/{id}/approve", &[&id(&paid)]).await;
    let failing = r.post("/v1/payouts", &[], payout("Loan 2232", &magic::address("op_underfunded"))).await;
    app.post(&format!("/v1/payouts/{}/approve", id(&failing)), &json!({})).await;
    app.drain_payouts().await;
    r.post_empty("/v1/payouts/{id}/retry", &[&id(&failing)]).await;
    // A payout waiting for a receiver who has only a phone, called off.
    let ana = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" });
    let ana: Value = app.post("/v1/clients", &ana).await.json().await.unwrap();
    let waiting = json!({ "clientId": ana["id"], "assetAmount": 40, "assetCode": "USDC", "memo": "Loan 2240" });
    let waiting: Value = app.post("/v1/payouts", &waiting).await.json().await.unwrap();
    app.post(&format!("/v1/payouts/{}/approve", id(&waiting)), &json!({})).await;
    r.post_empty("/v1/clients/{id}/invite", &[&id(&ana)]).await;
    r.get("/v1/clients/{id}/invitation", &[&id(&ana)]).await;
    // A receiver locked out by wrong answers, let back in.
    let lisa = json!({ "firstName": "Lisa", "lastName": "Jozèf", "phoneNumber": "+50937000003",
                       "verification": { "type": "pin", "value": "4321" } });
    let (lisa, token) = crate::registration::invited(app, lisa).await;
    crate::registration::submit(app, &token, "code", &[]).await;
    let code = crate::registration::code_in(&crate::registration::last_text(app, &lisa).await);
    crate::registration::submit(app, &token, "confirm", &[("code", &code)]).await;
    for _ in 0..5 {
        crate::registration::submit(app, &token, "verify", &[("answer", "1111")]).await;
    }
    r.post_empty("/v1/clients/{id}/invitation/unlock", &[&lisa]).await;
    r.post_empty("/v1/payouts/{id}/cancel", &[&id(&waiting)]).await;
    let refused = r.post("/v1/payouts", &[], payout("Loan 2233", WALLET)).await;
    r.post("/v1/payouts/{id}/reject", &[&id(&refused)], json!({ "reason": "Paid in cash" })).await;
    r.get("/v1/payouts", &[]).await;
    r.get("/v1/payouts/{id}", &[&id(&paid)]).await;

    let items = json!([
        { "clientId": cli, "assetAmount": 150, "externalId": "stipend-0001" },
        { "walletAccountId": magic::address("op_underfunded"), "assetAmount": 75.25, "memo": "March", "externalId": "stipend-0002" },
    ]);
    let batch = r
        .post("/v1/disbursements", &[], json!({ "name": "March stipends", "assetCode": "USDC", "items": items }))
        .await;
    let dsb = id(&batch);
    r.get("/v1/disbursements/{id}", &[&dsb]).await;
    r.post_empty("/v1/disbursements/{id}/submit", &[&dsb]).await;
    r.post_empty("/v1/disbursements/{id}/approve", &[&dsb]).await;
    app.drain_payouts().await;
    r.post_empty("/v1/disbursements/{id}/retry-failed", &[&dsb]).await;
    app.drain_payouts().await;
    r.get("/v1/disbursements", &[]).await;
    r.get("/v1/disbursements/{id}/items", &[&dsb]).await;
    r.call(Method::GET, "/v1/disbursements/{id}/items", &[&dsb], Body::None, "text/csv").await;
    let csv = "walletAccountId,assetAmount,memo,externalId\n\
               GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H,40.00,April,bonus-0001\n";
    let csv_path = "/v1/disbursements?name=April%20bonuses&assetCode=USDC";
    let april = r.call(Method::POST, csv_path, &[], Body::Csv(csv), "application/json").await;
    r.post_empty("/v1/disbursements/{id}/submit", &[&id(&april)]).await;
    r.post("/v1/disbursements/{id}/reject", &[&id(&april)], json!({ "reason": "Wrong month" })).await;
    let draft = app.post("/v1/disbursements", &json!({ "name": "Draft", "assetCode": "USDC", "items": [{ "walletAccountId": WALLET, "assetAmount": 10 }] })).await;
    let draft: Value = draft.json().await.unwrap();
    r.delete("/v1/disbursements/{id}", &[&id(&draft)]).await;

    let events = r.get("/v1/events", &[]).await;
    r.get("/v1/events/{id}", &[&id(&events["data"][0])]).await;

    // The receiver fails one answer, so a delivery has two attempts and one can be recovered.
    receiver.respond_next(1, 503, &[], "Service Unavailable");
    r.post_empty("/v1/webhook-endpoints/{id}/test", &[&we]).await;
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    let deliveries = r.get("/v1/webhook-endpoints/{id}/deliveries", &[&we]).await;
    let whd = id(&deliveries["data"][0]);
    r.post_empty("/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry", &[&we, &whd]).await;
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    r.get("/v1/webhook-endpoints/{id}/deliveries/{deliveryId}", &[&we, &whd]).await;
    let since = Timestamp::now().plus_millis(-3_600_000);
    r.post("/v1/webhook-endpoints/{id}/recover", &[&we], json!({ "since": since.to_string() })).await;
    r.post_empty("/v1/webhook-endpoints/{id}/rotate-secret", &[&we]).await;
    r.put(
        "/v1/webhook-endpoints/{id}",
        &[&we],
        json!({ "events": ["*"], "description": "Accounting system (all events)" }),
    )
    .await;
    r.delete("/v1/webhook-endpoints/{id}", &[&we]).await;

    // Last, as they switch approval off: a relaxation another approving key asked for,
    // confirmed; another, cancelled.
    let other = app.key(None, lajan_domain::Environment::Test, &["*"]).await;
    for (relax, decision) in [("payoutApprovalRequired", "confirm"), ("requireDistinctApprover", "cancel")] {
        if relax == "requireDistinctApprover" {
            app.put("/v1/settings", &json!({ relax: true })).await;
        }
        let asked: Value = app
            .send_json_with(&other, Method::PUT, "/v1/settings", &json!({ relax: false }))
            .await
            .json()
            .await
            .unwrap();
        let change = asked["pendingChange"]["id"].as_str().unwrap().to_owned();
        r.post_empty(&format!("/v1/settings/changes/{{id}}/{decision}"), &[&change]).await;
    }
}

api_test!(every_example_of_the_document_is_a_real_requests_or_answers_shape, with_dns(), |app| {
    let receiver = WebhookReceiver::start().await;
    let mut recorder = Recorder { app, taken: BTreeMap::new() };
    call_everything(&mut recorder, &receiver).await;
    let made = Value::Object(recorder.taken.into_iter().map(|(k, v)| (k, Value::Object(v))).collect());
    let shown: Value = serde_json::from_str(&std::fs::read_to_string(EXAMPLES).unwrap()).unwrap_or_default();
    let same_operations = shown.as_object().map(|o| o.keys().collect::<Vec<_>>())
        == made.as_object().map(|o| o.keys().collect::<Vec<_>>());
    let stale: Vec<&String> = made
        .as_object()
        .unwrap()
        .iter()
        .filter(|(op, example)| shape(&shown[*op]) != shape(example))
        .map(|(op, _)| op)
        .collect();
    // Rewritten only when a shape changed, so ids and times do not churn; the document embeds
    // the file, so its snapshot is written on the next run.
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() && (!same_operations || !stale.is_empty()) {
        std::fs::write(EXAMPLES, serde_json::to_string_pretty(&made).unwrap() + "\n").unwrap();
        return;
    }
    assert!(same_operations, "the operations with examples changed: rerun with UPDATE_SNAPSHOTS=1 (twice)");
    assert!(
        stale.is_empty(),
        "examples not shaped as the answers are now: {stale:?}: rerun with UPDATE_SNAPSHOTS=1 (twice)"
    );
});
