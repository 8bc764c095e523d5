//! Payment reminders, driven with an injected clock: each unpaid instalment is reminded on the
//! organization's schedule at its local time of day, in the client's language, exactly once
//! (across a worker that dies after its claim, and two workers at once), never once paid, and
//! never to a client who opted out.

use lajan_domain::Timestamp;
use lajan_testkit::TestApp;
use serde_json::{Value, json};

fn at(rfc3339: &str) -> Timestamp {
    Timestamp::parse_rfc3339(rfc3339).unwrap()
}

/// A moment past the default grace a recorded payment's receipt waits (5 minutes).
fn after_grace() -> Timestamp {
    Timestamp::now().plus_millis(6 * 60_000)
}

async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

/// The reminder events of invoice `id`, oldest first: (instalment, offset, amount due).
async fn reminders_of(app: &TestApp, id: &str) -> Vec<(Value, i64, String)> {
    let events = get(app, "/v1/events?type=invoice.reminder_sent&limit=100").await;
    let mut found: Vec<(Value, i64, String)> = events["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["data"]["object"])
        .filter(|o| o["id"] == id)
        .map(|o| {
            let r = &o["reminder"];
            (r["installment"].clone(), r["offsetDays"].as_i64().unwrap(), r["amountDue"].as_str().unwrap().to_owned())
        })
        .collect();
    found.reverse();
    found
}

api_test!(a_schedule_across_a_payment_reminds_each_instalment_once_in_the_clients_language, |app| {
    let settings = json!({ "timezone": "America/Port-au-Prince", "reminders": { "channels": ["sms", "email"] } });
    let r = app.send_json(reqwest::Method::PUT, "/v1/settings", &settings).await;
    assert_eq!(r.status(), 200);
    let shown: Value = r.json().await.unwrap();
    assert_eq!(
        shown["reminders"],
        json!({ "offsetDays": [-3, 0, 3, 7], "channels": ["sms", "email"], "timeOfDay": "09:00" })
    );
    assert_eq!(shown["paymentReceipts"], true);
    let rose = json!({ "firstName": "Rose", "lastName": "Pyè", "phoneNumber": "+50937000002",
                       "email": "rose@example.ht", "language": "ht" });
    let rose: Value = app.post("/v1/clients", &rose).await.json().await.unwrap();
    assert_eq!(rose["remindersEnabled"], true);
    let plan = json!([{ "amount": 500, "dueDate": "2030-01-10" }, { "amount": 500, "dueDate": "2030-02-10" }]);
    let body = json!({ "clientId": rose["id"], "installments": plan, "sendImmediately": true,
                       "lineItems": [{ "description": "Loan repayment", "quantity": 1, "unitPrice": 1000 }] });
    let invoice: Value = app.post("/v1/invoices", &body).await.json().await.unwrap();
    let id = invoice["id"].as_str().unwrap();
    let remind = |now: &str| {
        let now = at(now);
        async move { app.workers().send_reminders_once(now).await.unwrap() }
    };

    // Three days before the first instalment, 09:00 in Port-au-Prince (14:00Z): not a minute early.
    assert_eq!(remind("2030-01-07T13:59:00Z").await, 0);
    assert_eq!(remind("2030-01-07T14:00:00Z").await, 1);
    assert_eq!(remind("2030-01-07T15:00:00Z").await, 0, "exactly once");
    assert_eq!(reminders_of(app, id).await, [(json!(1), -3, "500.00".to_owned())]);
    let messages = get(app, &format!("/v1/messages?invoiceId={id}")).await;
    let reminders: Vec<&Value> =
        messages["data"].as_array().unwrap().iter().filter(|m| m["template"] == "reminder").collect();
    assert_eq!(reminders.len(), 2, "by SMS and email");
    let sms = reminders.iter().find(|m| m["channel"] == "sms").unwrap();
    assert_eq!(sms["language"], "ht");
    let text = sms["text"].as_str().unwrap();
    assert!(text.contains("raple") && text.contains("HTG 500.00") && text.contains("2030-01-10"), "{text}");
    let link = format!("{}?lang=ht", invoice["paymentLink"]["url"].as_str().unwrap());
    assert!(text.ends_with(&link), "the page opens in the client's language: {text}");

    // The first instalment is paid on its day: none of its later reminders goes.
    let cash = json!({ "amount": 500, "method": "cash" });
    assert_eq!(app.post(&format!("/v1/invoices/{id}/payments"), &cash).await.status(), 201);
    for day in ["2030-01-10T14:00:00Z", "2030-01-13T14:00:00Z", "2030-01-17T14:00:00Z"] {
        assert_eq!(remind(day).await, 0, "{day}");
    }
    // The second has its own schedule.
    assert_eq!(remind("2030-02-07T14:00:00Z").await, 1);
    assert_eq!(reminders_of(app, id).await[1], (json!(2), -3, "500.00".to_owned()));

    // Opted out: no reminder, recorded or sent; back in, the next one goes.
    let path = format!("/v1/clients/{}", rose["id"].as_str().unwrap());
    let r = app.send_json(reqwest::Method::PUT, &path, &json!({ "remindersEnabled": false })).await;
    assert_eq!(r.json::<Value>().await.unwrap()["remindersEnabled"], false);
    assert_eq!(remind("2030-02-10T14:00:00Z").await, 0);
    app.send_json(reqwest::Method::PUT, &path, &json!({ "remindersEnabled": true })).await;
    assert_eq!(remind("2030-02-13T14:00:00Z").await, 1);
    let days: Vec<i64> = reminders_of(app, id).await.iter().map(|r| r.1).collect();
    assert_eq!(days, [-3, -3, 3]);
});

api_test!(a_reminder_is_sent_once_across_a_worker_that_dies_after_its_claim_and_two_at_once, |app| {
    let client = app.reachable_client().await;
    let body = json!({ "dueDate": "2030-03-10", "sendImmediately": true });
    let invoice = app.invoice(client["id"].as_str().unwrap(), body).await;
    let id = invoice["id"].as_str().unwrap();
    // UTC, the default timezone: the day-0 reminder falls at 09:00Z.
    let now = at("2030-03-10T09:05:00Z");
    // A worker claims the invoice and dies before sending: it is left to the lease.
    assert_eq!(app.store().claim_reminders(now, 120_000, 10).await.unwrap().len(), 1);
    assert_eq!(app.workers().send_reminders_once(now).await.unwrap(), 0, "leased to the dead worker");
    let later = now.plus_millis(121_000);
    // Two workers at once after the lease: one sends it.
    let (a, b) = tokio::join!(app.workers().send_reminders_once(later), app.workers().send_reminders_once(later));
    assert_eq!(a.unwrap() + b.unwrap(), 1);
    assert_eq!(app.workers().send_reminders_once(later.plus_millis(300_000)).await.unwrap(), 0);
    assert_eq!(reminders_of(app, id).await, [(Value::Null, 0, "100.00".to_owned())]);

    // Bad schedules are refused field by field, and change nothing.
    let bad = json!({ "reminders": { "offsetDays": [1, 400], "channels": [], "timeOfDay": "25:00" } });
    let r = app.send_json(reqwest::Method::PUT, "/v1/settings", &bad).await;
    let refusal = lajan_testkit::expect_error(r, 400, "validation_error").await;
    let fields: Vec<&str> =
        refusal["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["reminders.offsetDays[1]", "reminders.channels", "reminders.timeOfDay"]);
    assert_eq!(get(app, "/v1/settings").await["reminders"]["offsetDays"], json!([-3, 0, 3, 7]));
});

api_test!(an_invoice_owing_again_after_a_reversal_is_reminded_again, |app| {
    let client = app.reachable_client().await;
    let body = json!({ "dueDate": "2030-04-10", "sendImmediately": true });
    let invoice = app.invoice(client["id"].as_str().unwrap(), body).await;
    let id = invoice["id"].as_str().unwrap();
    let remind = |now: &str| {
        let now = at(now);
        async move { app.workers().send_reminders_once(now).await.unwrap() }
    };
    assert_eq!(remind("2030-04-07T09:00:00Z").await, 1, "three days before");
    let cash = json!({ "amount": 100, "method": "cash" });
    let paid: Value = app.post(&format!("/v1/invoices/{id}/payments"), &cash).await.json().await.unwrap();
    // On the due day the worker sees it paid: nothing goes, and its schedule is cleared.
    assert_eq!(remind("2030-04-10T09:00:00Z").await, 0);
    // The payment was a mistake: reversed, the invoice owes again, and its schedule is back.
    let payment = paid["id"].as_str().unwrap();
    let reversed =
        app.post(&format!("/v1/invoices/{id}/payments/{payment}/reverse"), &json!({ "reason": "bounced" })).await;
    assert_eq!(reversed.status(), 200);
    assert_eq!(get(app, &format!("/v1/invoices/{id}")).await["status"], "sent");
    assert_eq!(remind("2030-04-13T09:00:00Z").await, 1, "three days late, it is reminded");
    let days: Vec<i64> = reminders_of(app, id).await.iter().map(|r| r.1).collect();
    assert_eq!(days, [-3, 3]);
});

api_test!(a_payment_gets_one_receipt_in_the_clients_language_with_what_is_left, |app| {
    let mari = json!({ "firstName": "Mari", "lastName": "Jozèf", "phoneNumber": "+50937000003", "language": "fr" });
    let mari: Value = app.post("/v1/clients", &mari).await.json().await.unwrap();
    let invoice = app.invoice(mari["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let pay = async |amount: i64| {
        let cash = json!({ "amount": amount, "method": "cash" });
        assert_eq!(app.post(&format!("/v1/invoices/{id}/payments"), &cash).await.status(), 201);
    };
    let receipts = async || {
        let messages = get(app, &format!("/v1/messages?invoiceId={id}")).await;
        let all = messages["data"].as_array().unwrap().clone();
        all.into_iter().filter(|m| m["template"] == "receipt").collect::<Vec<Value>>()
    };
    pay(30).await;
    assert_eq!(app.workers().send_receipts_once(after_grace()).await.unwrap(), 1);
    assert_eq!(app.workers().send_receipts_once(after_grace()).await.unwrap(), 0, "once");
    let sent = receipts().await;
    assert_eq!((sent.len(), sent[0]["language"].as_str(), sent[0]["channel"].as_str()), (1, Some("fr"), Some("sms")));
    let text = sent[0]["text"].as_str().unwrap();
    assert!(text.contains("HTG 30.00") && text.contains("Reste à payer : HTG 70.00"), "{text}");

    // Receipts off: the next payment gets none.
    let r = app.send_json(reqwest::Method::PUT, "/v1/settings", &json!({ "paymentReceipts": false })).await;
    assert_eq!(r.status(), 200);
    pay(70).await;
    assert_eq!(app.workers().send_receipts_once(after_grace()).await.unwrap(), 0);
    assert_eq!(receipts().await.len(), 1);
});

api_test!(the_sandbox_runs_an_invoices_reminders_at_a_chosen_time, |app| {
    let client = app.reachable_client().await;
    let invoice =
        app.invoice(client["id"].as_str().unwrap(), json!({ "dueDate": "2030-01-31", "sendImmediately": true })).await;
    let path = format!("/v1/sandbox/invoices/{}/remind", invoice["id"].as_str().unwrap());
    let run = async |at: &str| app.post(&path, &json!({ "at": at })).await;
    // Three days after the due date, 09:00 UTC: the day-3 reminder, by email and SMS.
    let r = run("2030-02-03T09:00:00Z").await;
    assert_eq!(r.status(), 200);
    let sent: Value = r.json().await.unwrap();
    assert_eq!(
        (sent["reminders"][0]["offsetDays"].as_i64(), sent["reminders"][0]["amountDue"].as_str()),
        (Some(3), Some("100.00"))
    );
    assert_eq!(sent["reminders"][0]["messages"].as_array().unwrap().len(), 2);
    let again: Value = run("2030-02-03T10:00:00Z").await.json().await.unwrap();
    assert_eq!(again["reminders"], json!([]), "sent once");
    lajan_testkit::expect_error(run("soon").await, 400, "validation_error").await;
    let missing = app
        .post(
            "/v1/sandbox/invoices/inv_00000000000000000000000000000000/remind",
            &json!({ "at": "2030-02-03T09:00:00Z" }),
        )
        .await;
    lajan_testkit::expect_error(missing, 404, "not_found").await;
    let live = app.key(None, lajan_domain::Environment::Live, &["*"]).await;
    let r = app.send_json_with(&live, reqwest::Method::POST, &path, &json!({ "at": "2030-02-03T09:00:00Z" })).await;
    lajan_testkit::expect_error(r, 403, "forbidden").await;
});

api_test!(a_sandbox_reminder_run_years_ahead_is_recorded_at_the_real_time_and_lists_stay_in_order, |app| {
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let invoice = app.invoice(client_id, json!({ "dueDate": "2030-01-31", "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let before = Timestamp::now();
    let path = format!("/v1/sandbox/invoices/{id}/remind");
    let sent: Value = app.post(&path, &json!({ "at": "2030-02-03T09:00:00Z" })).await.json().await.unwrap();
    let after = Timestamp::now();
    // The text was written at the simulated time: three days after the due date.
    assert_eq!(sent["reminders"][0]["offsetDays"], 3);
    let is_now = |v: &Value| {
        let t = Timestamp::parse_rfc3339(v.as_str().unwrap()).unwrap();
        before <= t && t <= after
    };
    let messages = get(app, &format!("/v1/messages?invoiceId={id}")).await;
    let reminders: Vec<&Value> =
        messages["data"].as_array().unwrap().iter().filter(|m| m["template"] == "reminder").collect();
    assert_eq!(reminders.len(), 2);
    assert!(reminders.iter().all(|m| is_now(&m["createdAt"])), "{reminders:?}");
    let events = get(app, "/v1/events?type=invoice.reminder_sent&limit=1").await;
    assert!(is_now(&events["data"][0]["createdAt"]), "{events}");

    // What happens next is newest in every newest-first list, above the reminders.
    let next = app.invoice(client_id, json!({ "dueDate": "2030-01-31", "sendImmediately": true })).await;
    let newest = get(app, "/v1/messages?limit=1").await;
    assert_eq!(newest["data"][0]["invoiceId"], next["id"], "{newest}");
    let newest = get(app, "/v1/events?limit=1").await;
    assert_ne!(newest["data"][0]["type"], "invoice.reminder_sent", "{newest}");
});

api_test!(each_receipt_tells_what_its_own_payment_left_and_a_reversed_one_is_not_sent, |app| {
    // Three payments land before the receipt worker runs: the last completes the invoice. Each
    // receipt still says what was left right after its own payment; the one reversed before it
    // went out is not sent.
    let client = json!({ "firstName": "Jan", "lastName": "Pòl", "phoneNumber": "+50937000004", "language": "en" });
    let client: Value = app.post("/v1/clients", &client).await.json().await.unwrap();
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let id = invoice["id"].as_str().unwrap();
    let pay = async |amount: i64| -> Value {
        let cash = json!({ "amount": amount, "method": "cash" });
        let r = app.post(&format!("/v1/invoices/{id}/payments"), &cash).await;
        assert_eq!(r.status(), 201);
        r.json().await.unwrap()
    };
    pay(10).await;
    let mistake = pay(5).await;
    let reverse = format!("/v1/invoices/{id}/payments/{}/reverse", mistake["id"].as_str().unwrap());
    assert!(app.post(&reverse, &json!({ "reason": "typed twice" })).await.status().is_success());
    pay(90).await;
    assert_eq!(app.workers().send_receipts_once(after_grace()).await.unwrap(), 2);
    let messages = get(app, &format!("/v1/messages?invoiceId={id}")).await;
    let mut texts: Vec<&str> = messages["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["template"] == "receipt")
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    texts.sort();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts[0].contains("HTG 10.00") && texts[0].contains("Left to pay: HTG 90.00"), "{texts:?}");
    assert!(texts[1].contains("HTG 90.00") && texts[1].contains("It is paid in full"), "{texts:?}");
});

api_test!(a_typo_reversed_within_the_grace_never_reaches_the_client_and_a_later_reversal_is_corrected, |app| {
    let woz = json!({ "firstName": "Woz", "lastName": "Pyè", "phoneNumber": "+50937000005", "language": "ht" });
    let woz: Value = app.post("/v1/clients", &woz).await.json().await.unwrap();
    let body =
        json!({ "sendImmediately": true, "lineItems": [{ "description": "Prè", "quantity": 1, "unitPrice": 2401 }] });
    let invoice = app.invoice(woz["id"].as_str().unwrap(), body).await;
    let id = invoice["id"].as_str().unwrap();
    let settings = get(app, "/v1/settings").await;
    assert_eq!(settings["receiptGraceMinutes"], 5, "a few minutes by default");
    let pay = async |amount: i64| -> String {
        let cash = json!({ "amount": amount, "method": "cash" });
        let r = app.post(&format!("/v1/invoices/{id}/payments"), &cash).await;
        assert_eq!(r.status(), 201);
        r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned()
    };
    let reverse = async |payment: &str| {
        let path = format!("/v1/invoices/{id}/payments/{payment}/reverse");
        assert_eq!(app.post(&path, &json!({ "reason": "typo" })).await.status(), 200);
    };
    let to_client = async || {
        let messages = get(app, &format!("/v1/messages?invoiceId={id}")).await;
        let all = messages["data"].as_array().unwrap().clone();
        all.into_iter().filter(|m| m["template"] != "invoice").collect::<Vec<Value>>()
    };

    // 99 999,00 typed for 2 401,00: nothing goes at once, and reversed within the grace, never.
    let typo = pay(99_999).await;
    assert_eq!(app.workers().send_receipts_once(Timestamp::now()).await.unwrap(), 0, "it waits");
    reverse(&typo).await;
    assert_eq!(app.workers().send_receipts_once(after_grace()).await.unwrap(), 0);
    assert_eq!(to_client().await, Vec::<Value>::new(), "no receipt, no correction");

    // The right amount's receipt goes after the grace; reversed after that, a correction follows
    // in the client's language, saying what is owed again.
    let right = pay(2401).await;
    assert_eq!(app.workers().send_receipts_once(after_grace()).await.unwrap(), 1);
    reverse(&right).await;
    assert_eq!(app.workers().send_receipts_once(Timestamp::now()).await.unwrap(), 1, "at once");
    assert_eq!(app.workers().send_receipts_once(after_grace()).await.unwrap(), 0, "once");
    let sent = to_client().await;
    let templates: Vec<&str> = sent.iter().map(|m| m["template"].as_str().unwrap()).collect();
    assert_eq!(templates, ["receipt_correction", "receipt"]);
    let correction = sent[0]["text"].as_str().unwrap();
    assert_eq!(sent[0]["language"], "ht");
    assert!(correction.contains("koreksyon") && correction.contains("HTG 2401.00"), "{correction}");
    assert!(correction.contains("Rès pou peye: HTG 2401.00"), "{correction}");

    // No grace asked: a receipt goes at once.
    let r = app.put("/v1/settings", &json!({ "receiptGraceMinutes": 0 })).await;
    assert_eq!(r.json::<Value>().await.unwrap()["receiptGraceMinutes"], 0);
    pay(1).await;
    assert_eq!(app.workers().send_receipts_once(Timestamp::now()).await.unwrap(), 1);
    let refused = app.put("/v1/settings", &json!({ "receiptGraceMinutes": 61 })).await;
    lajan_testkit::expect_error(refused, 400, "validation_error").await;
});
