//! Instalment plans: an invoice's total due in parts that sum to it exactly, filled oldest first
//! by every payment, the invoice overdue while one is past due and partly paid again once the
//! past-due ones are paid.

use lajan_domain::Timestamp;
use lajan_store::Change;
use lajan_testkit::{TestApp, expect_error};
use reqwest::Method;
use serde_json::{Value, json};

async fn get(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

async fn cash(app: &TestApp, id: &str, amount: u32) {
    let body = json!({ "amount": amount, "method": "cash" });
    let r = app.req(Method::POST, &format!("/v1/invoices/{id}/payments")).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 201);
}

fn paid_of(invoice: &Value) -> Vec<&str> {
    invoice["installments"].as_array().unwrap().iter().map(|i| i["amountPaid"].as_str().unwrap()).collect()
}

api_test!(payments_fill_instalments_oldest_first_and_a_late_one_makes_the_invoice_overdue, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let plan = json!([{ "amount": 40, "dueDate": "2020-01-31" }, { "amount": 60, "dueDate": "2099-02-28" }]);
    let body = json!({ "clientId": cid, "installments": plan, "sendImmediately": true,
                       "lineItems": [{ "description": "Loan repayment", "quantity": 1, "unitPrice": 100 }] });
    let r = app.post("/v1/invoices", &body).await;
    assert_eq!(r.status(), 201);
    let invoice: Value = r.json().await.unwrap();
    let id = invoice["id"].as_str().unwrap();
    assert_eq!(invoice["dueDate"], "2099-02-28", "the last instalment's");
    assert_eq!(
        invoice["installments"][0],
        json!({ "number": 1, "amount": "40.00", "dueDate": "2020-01-31", "amountCredited": "0.00", "amountPaid": "0.00",
                "amountRemaining": "40.00" })
    );
    assert_eq!(invoice["nextInstallment"]["number"], 1);

    // The first instalment is past due: overdue, and invoice.overdue names it.
    assert_eq!(app.workers().mark_overdue_once(Timestamp::now()).await.unwrap(), 1);
    let late = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!(late["status"], "overdue");
    let overdue = get(app, "/v1/events?type=invoice.overdue").await;
    let named = &overdue["data"][0]["data"]["object"]["nextInstallment"];
    assert_eq!((&named["number"], &named["dueDate"]), (&json!(1), &json!("2020-01-31")));

    // 30.00 leaves 10.00 of it late; 10.00 more pays it, and the invoice waits for the next.
    cash(app, id, 30).await;
    let still = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((still["status"].as_str(), paid_of(&still)), (Some("overdue"), vec!["30.00", "0.00"]));
    cash(app, id, 10).await;
    let caught_up = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((caught_up["status"].as_str(), paid_of(&caught_up)), (Some("partially_paid"), vec!["40.00", "0.00"]));
    assert_eq!(caught_up["nextInstallment"]["number"], 2);
    assert_eq!(app.workers().mark_overdue_once(Timestamp::now()).await.unwrap(), 0, "nothing is late now");
    cash(app, id, 60).await;
    let paid = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((paid["status"].as_str(), paid_of(&paid)), (Some("paid"), vec!["40.00", "60.00"]));
    assert_eq!(paid["nextInstallment"], Value::Null);
});

api_test!(a_plan_that_does_not_sum_to_the_total_is_refused_naming_the_row, |app| {
    let client = app.reachable_client().await;
    let cid = client["id"].as_str().unwrap();
    let lines = json!([{ "description": "Loan repayment", "quantity": 1, "unitPrice": 100 }]);
    let create = |installments: Value, due: Option<&str>| {
        let mut body = json!({ "clientId": cid, "lineItems": lines, "installments": installments });
        if let Some(due) = due {
            body["dueDate"] = json!(due);
        }
        async move { app.post("/v1/invoices", &body).await }
    };
    let short = json!([{ "amount": 40, "dueDate": "2030-01-31" }, { "amount": 50, "dueDate": "2030-02-28" }]);
    let body = expect_error(create(short, None).await, 400, "invalid_installments").await;
    assert_eq!(body["details"][0]["field"], "installments");
    assert!(body["message"].as_str().unwrap().contains("sum to 90.00"), "{body}");
    let bad = json!([{ "amount": 40, "dueDate": "2030-02-28" }, { "amount": 60, "dueDate": "2030-01-31" },
                     { "amount": -1, "dueDate": "2030-03-31" }]);
    let body = expect_error(create(bad, None).await, 400, "invalid_installments").await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["installments[1].dueDate", "installments[2].amount"]);
    let good = json!([{ "amount": 40, "dueDate": "2030-01-31" }, { "amount": 60, "dueDate": "2030-02-28" }]);
    let body = expect_error(create(good.clone(), Some("2030-01-31")).await, 400, "validation_error").await;
    assert_eq!(body["details"][0]["field"], "dueDate");
    let body = expect_error(create(json!([]), None).await, 400, "validation_error").await;
    assert_eq!(body["details"][0]["field"], "dueDate", "no plan: a due date is required");
    assert_eq!(get(app, "/v1/invoices").await["pagination"]["total"], 0, "nothing was made");

    // A draft's plan must still sum when its lines change; given again it replaces the old one,
    // and [] makes the invoice due at once on the date it had.
    let r = create(good, Some("2030-02-28")).await;
    assert_eq!(r.status(), 201);
    let draft: Value = r.json().await.unwrap();
    let path = format!("/v1/invoices/{}", draft["id"].as_str().unwrap());
    let dearer = json!({ "lineItems": [{ "description": "Loan repayment", "quantity": 1, "unitPrice": 120 }] });
    expect_error(app.put(&path, &dearer).await, 400, "invalid_installments").await;
    let mut replan = dearer.clone();
    replan["installments"] =
        json!([{ "amount": 60, "dueDate": "2030-03-31" }, { "amount": 60, "dueDate": "2030-04-30" }]);
    let r = app.put(&path, &replan).await;
    assert_eq!(r.status(), 200);
    let replanned: Value = r.json().await.unwrap();
    assert_eq!((replanned["total"].as_str(), replanned["dueDate"].as_str()), (Some("120.00"), Some("2030-04-30")));
    let r = app.put(&path, &json!({ "installments": [] })).await;
    let at_once: Value = r.json().await.unwrap();
    assert_eq!((at_once["installments"].clone(), at_once["dueDate"].as_str()), (json!([]), Some("2030-04-30")));
});

api_test!(the_page_and_the_messages_ask_for_the_next_instalment, |app| {
    let client = app.reachable_client().await;
    let plan = json!([{ "amount": 40, "dueDate": "2030-01-31" }, { "amount": 60, "dueDate": "2030-02-28" }]);
    let body = json!({ "clientId": client["id"], "installments": plan, "sendImmediately": true,
                       "lineItems": [{ "description": "Loan repayment", "quantity": 1, "unitPrice": 100 }] });
    let invoice: Value = app.post("/v1/invoices", &body).await.json().await.unwrap();
    let id = invoice["id"].as_str().unwrap();
    let pi = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let page = |query: &'static str| {
        let url = app.url(&format!("/pay/{pi}{query}"));
        async move { app.http.get(url).send().await.unwrap().text().await.unwrap() }
    };
    let html = page("").await;
    assert!(html.contains("Instalment 1 of 2") && html.contains("id=\"due\">40.00<"), "{html}");
    assert!(html.contains("amount=40.00"), "the wallet link asks for the instalment");
    let messages = get(app, "/v1/sandbox/messages").await;
    let sms = messages["data"].as_array().unwrap().iter().find(|m| m["channel"] == "sms").unwrap();
    assert!(sms["text"].as_str().unwrap().contains("(HTG 40.00) dwe peye 2030-01-31"), "{sms}");

    // 30.00 paid: the page asks for the 10.00 left of it, and may pay up to all 70.00.
    cash(app, id, 30).await;
    assert!(page("").await.contains("id=\"due\">10.00<"));
    assert!(page("?amount=70").await.contains("id=\"due\">70.00<"));
    assert!(page("?amount=70.01").await.contains("id=\"amount-refused\""));
    // The organization wants the full instalment: no more, no less.
    app.put("/v1/settings", &json!({ "allowPartialPayments": false })).await;
    let html = page("?amount=70").await;
    assert!(html.contains("id=\"due\">10.00<") && html.contains("id=\"amount-refused\""));
    app.http.post(app.url(&format!("/pay/{pi}/simulate?amount=70"))).send().await.unwrap();
    let after = get(app, &format!("/v1/invoices/{id}")).await;
    assert_eq!((after["amountPaid"].as_str(), after["nextInstallment"]["number"].as_u64()), (Some("40.00"), Some(2)));
    assert!(page("").await.contains("Instalment 2 of 2"));
});

api_test!(an_invoice_paid_up_after_the_overdue_job_read_it_is_not_marked_overdue, |app| {
    let client = app.reachable_client().await;
    let plan = json!([{ "amount": 40, "dueDate": "2020-01-31" }, { "amount": 60, "dueDate": "2099-02-28" }]);
    let body = json!({ "clientId": client["id"], "installments": plan, "sendImmediately": true,
                       "lineItems": [{ "description": "Loan repayment", "quantity": 1, "unitPrice": 100 }] });
    let invoice: Value = app.post("/v1/invoices", &body).await.json().await.unwrap();
    let id = invoice["id"].as_str().unwrap();
    // The job read it as a candidate (its first instalment past due); the borrower pays it before
    // the job reaches it. The job then acts on that candidate: the invoice as locked decides.
    let (tenant, now) = (app.tenant(), Timestamp::now());
    let stale = app.store().overdue_candidates("2099-12-31", 100).await.unwrap();
    assert!(stale.iter().any(|(_, candidate, _, _)| candidate == id), "a candidate before the payment");
    cash(app, id, 40).await;
    let event = |d: &lajan_domain::invoice::InvoiceDetail| lajan_store::NewEvent {
        event_type: "invoice.overdue",
        object: json!({ "id": d.invoice.id }),
    };
    let mark = lajan_domain::invoice::InvoiceAction::MarkOverdue;
    let (after, changed) =
        app.store().invoice_action(id, mark, None, Change::unkeyed(&tenant, now, &event)).await.unwrap();
    assert!(!changed, "paid up to an instalment weeks away: not overdue");
    assert_eq!(after.invoice.status.as_str(), "partially_paid");
    assert_eq!(get(app, "/v1/events?type=invoice.overdue").await["pagination"]["total"], 0);
    // Once the next instalment is past due, it is.
    let later = Timestamp::from_millis(4_102_444_800_000); // 2100-01-01
    let (_, changed) =
        app.store().invoice_action(id, mark, None, Change::unkeyed(&tenant, later, &event)).await.unwrap();
    assert!(changed);
});
