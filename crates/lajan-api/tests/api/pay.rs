//! Getting paid: the hosted payment page, simulated sandbox payments through the payment
//! watcher, the overdue job, payment links, and live delivery of invoice email and SMS.

use lajan_domain::Environment;
use lajan_testkit::{TestApp, expect_error, test_config};
use reqwest::Method;
use serde_json::{Value, json};

fn intent_id(invoice: &Value) -> String {
    invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned()
}

async fn page(app: &TestApp, intent: &str) -> (u16, String) {
    let r = app.http.get(app.url(&format!("/pay/{intent}"))).send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

async fn simulate(app: &TestApp, intent: &str, body: Value) -> reqwest::Response {
    app.send_json(Method::POST, &format!("/v1/sandbox/payment-intents/{intent}/pay"), &body).await
}

async fn count(app: &TestApp, event_type: &str) -> u64 {
    let v: Value = app.get(&format!("/v1/events?type={event_type}")).await.json().await.unwrap();
    v["pagination"]["total"].as_u64().unwrap()
}

api_test!(the_payment_page_shows_how_to_pay_and_marks_viewed_once, |app| {
    let client = app.reachable_client().await;
    let inv = app.invoice(client["id"].as_str().unwrap(), json!({ "memo": "<b>Merci</b>" })).await;
    let id = inv["id"].as_str().unwrap();
    let pi = intent_id(&inv);
    let (status, html) = page(app, &pi).await;
    assert_eq!(status, 200);
    assert!(html.contains("not been issued yet"), "a draft cannot be paid");
    assert!(!html.contains("id=\"simulate\""));
    app.req(Method::POST, &format!("/v1/invoices/{id}/send")).send().await.unwrap();

    let (status, html) = page(app, &pi).await;
    assert_eq!(status, 200);
    assert!(html.contains("Invoice INV-000001") && html.contains("Acme"));
    assert!(html.contains("HTG 100.00"), "the total");
    assert!(html.contains("January 31, 2030"), "the due date, written out");
    assert!(html.contains("<svg"), "a server-rendered QR code");
    assert!(html.contains("web+stellar:pay?destination=G"), "a SEP-0007 URI");
    assert!(html.contains("memo_type=MEMO_TEXT"));
    assert!(html.contains("&lt;b&gt;Merci") && !html.contains("<b>Merci"), "escaped");
    assert!(html.contains("id=\"simulate\""), "sandbox pages can simulate a payment");
    // On a phone the wallet is on the same device: its button (and the sandbox's simulate)
    // come first, the account and memo with copy buttons next, the QR code for another device last.
    let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("no {needle} on the page"));
    assert!(at("id=\"wallet-link\"") < at("id=\"simulate\""));
    assert!(at("id=\"simulate\"") < at("id=\"destination\""));
    assert!(at("id=\"memo\"") < at("id=\"qr\""));
    assert!(html.contains("data-copy=\"destination\"") && html.contains("data-copy=\"memo\""));
    assert!(!html.contains("http://") || !html.contains("<script src"), "no external assets");
    let got: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
    assert_eq!(got["status"], "viewed");
    page(app, &pi).await;
    assert_eq!(count(app, "invoice.viewed").await, 1, "only the first view counts");
    let (status, _) = page(app, "pi_00000000000000000000000000000000").await;
    assert_eq!(status, 404);
    let (status, _) = page(app, "../etc/passwd").await;
    assert_eq!(status, 404);
});

api_test!(sandbox_payments_underpay_then_pay_through_the_watcher, |app| {
    let client = app.reachable_client().await;
    let inv = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = inv["id"].as_str().unwrap();
    let pi = intent_id(&inv);
    let r = simulate(app, &pi, json!({ "amount": 40 })).await;
    assert_eq!(r.status(), 201);
    let first: Value = r.json().await.unwrap();
    assert_eq!(first["txHash"].as_str().unwrap().len(), 64);
    assert_eq!(first["paymentIntent"]["amountReceived"], "40.00");
    assert_eq!(first["paymentIntent"]["status"], "active");
    let under: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
    assert_eq!(
        (under["status"].as_str(), under["amountPaid"].as_str(), under["paidAt"].clone()),
        (Some("partially_paid"), Some("40.00"), Value::Null)
    );
    let (_, html) = page(app, &pi).await;
    assert!(html.contains("id=\"paid-so-far\">−40.00<") && html.contains("Pay HTG <span id=\"due\">60.00"), "{html}");
    assert!(html.contains("id=\"total\">HTG 100.00<") && html.contains("id=\"left\">HTG 60.00<"), "it adds up: {html}");

    let r = simulate(app, &pi, json!({ "amount": 70 })).await;
    let second: Value = r.json().await.unwrap();
    assert!(second["ledgerSeq"].as_i64().unwrap() > first["ledgerSeq"].as_i64().unwrap(), "ledger sequence rises");
    assert_eq!(second["paymentIntent"]["status"], "paid");
    let paid: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
    assert_eq!(
        (paid["status"].as_str(), paid["amountPaid"].as_str()),
        (Some("paid"), Some("110.00")),
        "overpayment recorded"
    );
    assert!(paid["paidAt"].is_string());
    assert_eq!(count(app, "invoice.paid").await, 1);
    let event: Value = app.get("/v1/events?type=invoice.paid").await.json().await.unwrap();
    assert_eq!(event["data"][0]["data"]["object"]["status"], "paid");

    expect_error(simulate(app, &pi, json!({})).await, 400, "cannot_pay").await;
    expect_error(app.req(Method::POST, &format!("/v1/invoices/{id}/void")).send().await.unwrap(), 400, "cannot_void")
        .await;
    let (_, html) = page(app, &pi).await;
    assert!(html.contains("Paid in full on") && !html.contains("id=\"simulate\""));
    // The time in UTC for readers without JavaScript, and machine-readable for the local time.
    let (_, rest) = html.split_once("<time id=\"paid-at\" datetime=\"").expect("a <time> for the payment");
    let (iso, rest) = rest.split_once("\">").unwrap();
    assert!(iso.len() == 24 && iso.ends_with('Z') && iso.starts_with("20"), "datetime {iso:?}");
    assert!(rest.split_once("</time>").unwrap().0.ends_with(" UTC"), "UTC without JavaScript");
    assert!(html.contains("Received: HTG 110.00"));
    expect_error(simulate(app, "pi_nope", json!({})).await, 404, "not_found").await;
    expect_error(simulate(app, &pi, json!({ "amount": 0 })).await, 400, "invalid_amount").await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    let r = app
        .http
        .post(app.url(&format!("/v1/sandbox/payment-intents/{pi}/pay")))
        .bearer_auth(&live)
        .send()
        .await
        .unwrap();
    expect_error(r, 403, "forbidden").await;
    let r = app.get_with(&live, "/v1/sandbox/messages").await;
    expect_error(r, 403, "forbidden").await;
});

api_test!(the_simulate_button_pays_and_void_or_draft_pages_refuse, |app| {
    let client = app.reachable_client().await;
    let inv = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let pi = intent_id(&inv);
    let no_redirects = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let r = no_redirects.post(app.url(&format!("/pay/{pi}/simulate"))).send().await.unwrap();
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], format!("/pay/{pi}"));
    let (_, html) = page(app, &pi).await;
    assert!(html.contains("Paid in full on"));
    let got: Value = app.get(&format!("/v1/invoices/{}", inv["id"].as_str().unwrap())).await.json().await.unwrap();
    assert_eq!(got["status"], "paid");

    let draft = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    expect_error(simulate(app, &intent_id(&draft), json!({})).await, 400, "cannot_pay").await;
    app.req(Method::POST, &format!("/v1/invoices/{}/void", draft["id"].as_str().unwrap())).send().await.unwrap();
    let (_, html) = page(app, &intent_id(&draft)).await;
    assert!(html.contains("voided"));
    expect_error(simulate(app, &intent_id(&draft), json!({})).await, 400, "cannot_pay").await;
});

api_test!(the_overdue_job_moves_each_invoice_once, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let late = app.invoice(cid, json!({ "dueDate": "2020-01-01", "sendImmediately": true })).await;
    let viewed = app.invoice(cid, json!({ "dueDate": "2020-01-01", "sendImmediately": true })).await;
    page(app, &intent_id(&viewed)).await;
    let future = app.invoice(cid, json!({ "dueDate": "2099-12-31", "sendImmediately": true })).await;
    let draft = app.invoice(cid, json!({ "dueDate": "2020-01-01" })).await;
    let now = lajan_domain::Timestamp::now();
    let (a, b) = tokio::join!(app.workers().mark_overdue_once(now), app.workers().mark_overdue_once(now));
    assert_eq!(a.unwrap() + b.unwrap(), 2, "two processes at once still move each invoice once");
    assert_eq!(app.workers().mark_overdue_once(now).await.unwrap(), 0);
    for (inv, status) in [(&late, "overdue"), (&viewed, "overdue"), (&future, "sent"), (&draft, "draft")] {
        let got: Value = app.get(&format!("/v1/invoices/{}", inv["id"].as_str().unwrap())).await.json().await.unwrap();
        assert_eq!(got["status"], status);
    }
    assert_eq!(count(app, "invoice.overdue").await, 2);
    // Overdue invoices can still be sent again and paid.
    let r = simulate(app, &intent_id(&late), json!({})).await;
    assert_eq!(r.json::<Value>().await.unwrap()["paymentIntent"]["status"], "paid");
});

api_test!(the_due_date_is_judged_in_the_organizations_timezone, |app| {
    let client = app.reachable_client().await;
    let yesterday_utc =
        jiff::Zoned::now().with_time_zone(jiff::tz::TimeZone::UTC).date().yesterday().unwrap().to_string();
    let inv =
        app.invoice(client["id"].as_str().unwrap(), json!({ "dueDate": yesterday_utc, "sendImmediately": true })).await;
    // In a timezone 12 hours behind UTC, "yesterday in UTC" may still be today: only UTC+0 and
    // later zones see it as past for certain, so judge with a zone far ahead.
    app.put("/v1/settings", &json!({ "timezone": "Pacific/Kiritimati" })).await;
    app.workers().mark_overdue_once(lajan_domain::Timestamp::now()).await.unwrap();
    let got: Value = app.get(&format!("/v1/invoices/{}", inv["id"].as_str().unwrap())).await.json().await.unwrap();
    assert_eq!(got["status"], "overdue");
    let today_far_west =
        jiff::Zoned::now().with_time_zone(jiff::tz::TimeZone::get("Pacific/Pago_Pago").unwrap()).date().to_string();
    let not_yet = app
        .invoice(client["id"].as_str().unwrap(), json!({ "dueDate": today_far_west, "sendImmediately": true }))
        .await;
    app.put("/v1/settings", &json!({ "timezone": "Pacific/Pago_Pago" })).await;
    app.workers().mark_overdue_once(lajan_domain::Timestamp::now()).await.unwrap();
    let got: Value = app.get(&format!("/v1/invoices/{}", not_yet["id"].as_str().unwrap())).await.json().await.unwrap();
    assert_eq!(got["status"], "sent", "due today in the organization's zone is not overdue");
});

api_test!(payment_links_create_deactivate_and_get_paid, |app| {
    let r = app
        .post("/v1/payment-links", &json!({ "amount": 250.5, "currency": "USD", "description": "Membership 2027" }))
        .await;
    assert_eq!(r.status(), 201);
    let link: Value = r.json().await.unwrap();
    let id = link["id"].as_str().unwrap();
    assert!(id.starts_with("pl_"));
    assert_eq!(
        (link["amount"].as_str(), link["status"].as_str(), link["currency"].as_str()),
        (Some("250.50"), Some("active"), Some("USD"))
    );
    assert!(link["url"].as_str().unwrap().contains("/pay/pi_"));
    assert_eq!(link["expiresAt"], Value::Null);
    let got: Value = app.get(&format!("/v1/mfi/payment-links/{id}")).await.json().await.unwrap();
    assert_eq!(got, link);
    let pi = link["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let (_, html) = page(app, &pi).await;
    assert!(html.contains("Membership 2027") && html.contains("USD 250.50"));

    let other: Value = app
        .post("/v1/payment-links", &json!({ "amount": 10, "description": "Fee", "expiresAt": "2099-01-01T00:00:00Z" }))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (other["currency"].as_str(), other["expiresAt"].as_str()),
        (Some("HTG"), Some("2099-01-01T00:00:00.000Z"))
    );
    let r = app.delete(&format!("/v1/payment-links/{}", other["id"].as_str().unwrap())).await;
    assert_eq!(r.json::<Value>().await.unwrap(), json!({ "id": other["id"], "deleted": true }));
    // Deleted: out of the API, as a deleted client is (found by Schemathesis's check that a
    // deleted resource is not still served); its page stays, and takes no payment.
    let r = app.get(&format!("/v1/payment-links/{}", other["id"].as_str().unwrap())).await;
    expect_error(r, 404, "not_found").await;
    let off_pi = other["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    expect_error(simulate(app, &off_pi, json!({})).await, 400, "cannot_pay").await;
    let (_, html) = page(app, &off_pi).await;
    assert!(html.contains("no longer active"));

    let paid: Value = simulate(app, &pi, json!({})).await.json().await.unwrap();
    assert_eq!(paid["paymentIntent"]["status"], "paid");
    let after: Value = app.get(&format!("/v1/payment-links/{id}")).await.json().await.unwrap();
    assert_eq!((after["status"].as_str(), after["amountPaid"].as_str()), (Some("paid"), Some("250.50")));
    let list: Value = app.get("/v1/payment-links").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 1, "the deleted one is not listed");
    for t in ["payment_link.created", "payment_link.deactivated", "payment_link.paid"] {
        assert!(count(app, t).await >= 1, "{t}");
    }
    assert_eq!(count(app, "payment_link.deactivated").await, 1);
    let again = app.delete(&format!("/v1/payment-links/{}", other["id"].as_str().unwrap())).await;
    expect_error(again, 404, "not_found").await;
    assert_eq!(count(app, "payment_link.deactivated").await, 1, "deleting twice writes one event");

    for (body, code) in [
        (json!({ "description": "x" }), "validation_error"),
        (json!({ "amount": 1 }), "validation_error"),
        (json!({ "amount": 0, "description": "x" }), "invalid_amount"),
        (json!({ "amount": 1.001, "description": "x" }), "invalid_amount"),
        (json!({ "amount": 1, "description": "x", "currency": "EUR" }), "invalid_currency"),
        (json!({ "amount": 1, "description": "x", "expiresAt": "2001-01-01T00:00:00Z" }), "validation_error"),
        (json!({ "amount": 1, "description": "x", "expiresAt": "tomorrow" }), "validation_error"),
    ] {
        expect_error(app.post("/v1/payment-links", &body).await, 400, code).await;
    }
    expect_error(app.get("/v1/payment-links/pl_nope").await, 404, "not_found").await;
    expect_error(app.delete("/v1/payment-links/pl_nope").await, 404, "not_found").await;
});

/// Live invoices go out through real SMTP and SMS servers (loopback ones the test starts).
#[tokio::test]
async fn live_invoices_are_delivered_by_email_and_sms() {
    use lajan_worker::notify::{SmsConfig, SmtpConfig, SmtpTls};
    use lajan_worker::testing::{SmsProvider, SmtpMode, SmtpSink};
    let smtp = SmtpSink::start(SmtpMode::Accept).await;
    let sms = SmsProvider::start().await;
    let mut config = test_config();
    config.workers.smtp = Some(SmtpConfig {
        host: smtp.addr().ip().to_string(),
        port: smtp.addr().port(),
        tls: SmtpTls::None,
        username: None,
        password: None,
        from: "Acme <billing@acme.test>".into(),
        timeout: std::time::Duration::from_secs(5),
    });
    config.workers.sms = Some(SmsConfig {
        base_url: sms.base_url(),
        account_sid: sms.account_sid().to_owned(),
        auth_token: sms.auth_token().to_owned().into(),
        from: "+15005550006".into(),
        timeout: std::time::Duration::from_secs(5),
    });
    let app = TestApp::spawn(lajan_store::testing::sqlite().await, config).await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    let marie =
        json!({ "firstName": "Marie", "lastName": "Jean", "email": "marie@example.ht", "phoneNumber": "+50937000000" });
    let client: Value = app.post_with(&live, "/v1/clients", &marie).await.json().await.unwrap();
    let body = json!({ "clientId": client["id"], "dueDate": "2030-01-31", "sendImmediately": true,
                       "lineItems": [{ "description": "Loan fee", "quantity": 2, "unitPrice": 625 }] });
    let inv: Value = app.post_with(&live, "/v1/invoices", &body).await.json().await.unwrap();
    assert_eq!(inv["status"], "sent");
    let link = inv["paymentLink"]["url"].as_str().unwrap();
    assert_eq!(app.workers().deliver_messages_once(lajan_domain::Timestamp::now()).await.unwrap(), 2);

    let emails = smtp.messages();
    assert_eq!(emails.len(), 1);
    assert_eq!(emails[0].to, ["marie@example.ht"]);
    assert!(emails[0].subject().unwrap().contains("INV-000001"));
    let text = emails[0].text_body().unwrap();
    assert!(text.contains(link) && text.contains("1250.00") && text.contains("2030-01-31"), "{text}");
    assert!(emails[0].html_body().unwrap().contains(link));
    let texts = sms.messages();
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].to, "+50937000000");
    assert!(texts[0].body.contains(link) && texts[0].body.contains("1250.00"));
    assert!(texts[0].body.chars().count() <= 160);
    assert_eq!(
        app.workers().deliver_messages_once(lajan_domain::Timestamp::now()).await.unwrap(),
        0,
        "each is delivered once"
    );

    // A provider outage is retried later; the outcome of every attempt is recorded.
    sms.respond_next(1, 503, r#"{"code":20500,"message":"Service unavailable"}"#);
    let r = app
        .post_with(
            &live,
            &format!("/v1/invoices/{}/send", inv["id"].as_str().unwrap()),
            &json!({ "channels": ["sms"] }),
        )
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(app.workers().deliver_messages_once(lajan_domain::Timestamp::now()).await.unwrap(), 1);
    assert_eq!(sms.messages().len(), 1, "the failed attempt delivered nothing");
    let later = lajan_domain::Timestamp::now().plus_millis(31_000);
    assert_eq!(app.workers().deliver_messages_once(later).await.unwrap(), 1, "retried after the backoff");
    assert_eq!(sms.messages().len(), 2);
    let tenant = lajan_domain::Tenant::new(app.org.id.clone(), Environment::Live);
    let stored = app.store().list_messages(&tenant, &Default::default()).await.unwrap();
    assert!(stored.items.iter().all(|m| m.status == lajan_domain::message::MessageStatus::Sent));
    assert!(stored.items.iter().any(|m| m.attempts == 2));
    let events = |kind: &'static str| {
        let (app, live) = (&app, &live);
        async move {
            let found: Value = app.get_with(live, &format!("/v1/events?type={kind}")).await.json().await.unwrap();
            found["data"].as_array().unwrap().iter().map(|e| e["data"]["object"].clone()).collect::<Vec<_>>()
        }
    };
    assert_eq!(events("message.sent").await.len(), 3, "one per message the provider took");

    // A number the provider refuses: failed at once with its reason, never reported as sent.
    sms.respond_next(1, 400, r#"{"code":21211,"message":"The 'To' number +50937000000 is not a valid phone number."}"#);
    let send = format!("/v1/invoices/{}/send", inv["id"].as_str().unwrap());
    let answer: Value = app.post_with(&live, &send, &json!({ "channels": ["sms"] })).await.json().await.unwrap();
    assert_eq!(answer["messages"][0]["status"], "queued", "the send answers what it queued, not a delivery");
    let refused = answer["messages"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.workers().deliver_messages_once(lajan_domain::Timestamp::now()).await.unwrap(), 1);
    let failed: Value = app.get_with(&live, "/v1/messages?status=failed").await.json().await.unwrap();
    assert_eq!(failed["data"].as_array().unwrap().len(), 1);
    assert_eq!(
        (failed["data"][0]["id"].as_str(), failed["data"][0]["providerId"].as_str()),
        (Some(refused.as_str()), None)
    );
    let reason = failed["data"][0]["failureReason"].as_str().unwrap();
    assert!(reason.contains("not a valid phone number") && reason.contains("21211"), "{reason}");
    let failures = events("message.failed").await;
    assert_eq!(failures.len(), 1);
    assert_eq!((failures[0]["id"].as_str(), failures[0]["status"].as_str()), (Some(refused.as_str()), Some("failed")));
    assert_eq!(failures[0]["failureReason"].as_str(), Some(reason));
    assert_eq!(events("message.sent").await.len(), 3, "a refused message was never sent");
    app.stop().await;
}

/// With background jobs on (as `serve` runs them), a send is delivered without anyone asking.
#[tokio::test]
async fn the_background_sender_delivers_right_after_a_send() {
    use lajan_worker::notify::{SmtpConfig, SmtpTls};
    use lajan_worker::testing::{SmtpMode, SmtpSink, wait_for};
    let smtp = SmtpSink::start(SmtpMode::Accept).await;
    let mut config = test_config();
    config.background = true;
    config.workers.smtp = Some(SmtpConfig {
        host: smtp.addr().ip().to_string(),
        port: smtp.addr().port(),
        tls: SmtpTls::None,
        username: None,
        password: None,
        from: "billing@acme.test".into(),
        timeout: std::time::Duration::from_secs(5),
    });
    let app = TestApp::spawn(lajan_store::testing::sqlite().await, config).await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    let client: Value = app
        .post_with(&live, "/v1/clients", &json!({ "firstName": "A", "lastName": "B", "email": "a@example.ht" }))
        .await
        .json()
        .await
        .unwrap();
    let body = json!({ "clientId": client["id"], "dueDate": "2030-01-31", "sendImmediately": true,
                       "lineItems": [{ "description": "Fee", "quantity": 1, "unitPrice": 5 }] });
    let r = app.post_with(&live, "/v1/invoices", &body).await;
    assert_eq!(r.status(), 201);
    let arrived = wait_for(|| smtp.messages().into_iter().next(), std::time::Duration::from_secs(10)).await;
    assert!(arrived.is_some_and(|m| m.to == ["a@example.ht"]), "delivered within seconds of the send");
    app.stop().await;
}

api_test!(a_payer_pays_part_of_an_invoice_unless_the_organization_asks_for_all_of_it, |app| {
    let client = app.reachable_client().await;
    let inv = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let (id, pi) = (inv["id"].as_str().unwrap(), intent_id(&inv));
    let status = || async move {
        let got: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
        (got["status"].as_str().unwrap().to_owned(), got["amountRemaining"].as_str().unwrap().to_owned())
    };
    let (_, html) = page(app, &pi).await;
    assert!(html.contains("id=\"choose-amount\""), "the page offers to pay part of it");
    assert!(html.contains("amount=100.00") && !html.contains("id=\"owed\""));

    // 25,50 typed with a decimal comma: the wallet link, the QR code and Simulate ask for it.
    let (_, html) = page(app, &format!("{pi}?amount=25,50")).await;
    assert!(html.contains("id=\"due\">25.50<") && html.contains("amount=25.50"), "{html}");
    assert!(html.contains("id=\"owed\"") && html.contains("HTG 100.00 still due"));
    assert!(!html.contains("amount=100.00"));
    let r = app.http.post(app.url(&format!("/pay/{pi}/simulate?amount=25.50"))).send().await.unwrap();
    assert_eq!(r.status(), 200, "back on the page");
    assert_eq!(status().await, ("partially_paid".to_owned(), "74.50".to_owned()));

    // More than is due, or not an amount: the page asks for all of it and says why.
    for bad in ["74.51", "0", "1,000.00", "lots"] {
        let (_, html) = page(app, &format!("{pi}?amount={bad}")).await;
        assert!(html.contains("id=\"amount-refused\"") && html.contains("id=\"due\">74.50<"), "{bad}");
    }

    // An organization that asks for the whole amount: no choice, and Simulate pays it all.
    app.put("/v1/settings", &json!({ "allowPartialPayments": false })).await;
    let settings: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(settings["allowPartialPayments"], false);
    let (_, html) = page(app, &format!("{pi}?amount=10")).await;
    assert!(!html.contains("id=\"choose-amount\"") && html.contains("asks for the whole amount due"));
    assert!(html.contains("id=\"due\">74.50<"));
    app.http.post(app.url(&format!("/pay/{pi}/simulate?amount=10"))).send().await.unwrap();
    assert_eq!(status().await, ("paid".to_owned(), "0.00".to_owned()));

    // A payment link asks for its amount.
    app.put("/v1/settings", &json!({ "allowPartialPayments": true })).await;
    let link: Value = app
        .post("/v1/payment-links", &json!({ "amount": 30, "currency": "HTG", "description": "Fee" }))
        .await
        .json()
        .await
        .unwrap();
    let link_pi = link["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let (_, html) = page(app, &format!("{link_pi}?amount=5")).await;
    assert!(!html.contains("id=\"choose-amount\"") && html.contains("id=\"due\">30.00<"));
});
