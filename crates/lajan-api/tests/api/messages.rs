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
            (&json!(id), &json!("invoice"), &json!("ht"), &json!("delivered")),
            "in the client's language (Creole by default), delivered at once, simulated: {m}"
        );
        assert!(m["providerId"].as_str().unwrap().starts_with("sandbox_"), "{m}");
    }
    let sms = get(app, &key, &format!("/v1/messages?channel=sms&invoiceId={id}")).await;
    assert_eq!(sms["pagination"]["total"], 1);
    let one = get(app, &key, &format!("/v1/messages/{}", sms["data"][0]["id"].as_str().unwrap())).await;
    assert_eq!((&one["channel"], &one["to"]), (&json!("sms"), &client["phoneNumber"]));
    assert_eq!(get(app, &key, "/v1/messages?status=failed").await["pagination"]["total"], 0);
    let theirs = get(app, &key, &format!("/v1/messages?clientId={}", client["id"].as_str().unwrap())).await;
    assert_eq!(theirs["data"], listed["data"], "a client's messages are their invoices' too");
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

api_test!(the_sandbox_test_numbers_fail_as_live_messages_do_with_their_events, |app| {
    use lajan_domain::message::{SANDBOX_FAILING_PHONE, SANDBOX_UNREACHABLE_PHONE};
    let key = app.key.clone();
    let send_to = async |phone: &str| {
        let body = json!({ "firstName": "Paul", "lastName": "Michel", "phoneNumber": phone });
        let client: Value = app.post("/v1/clients", &body).await.json().await.unwrap();
        let invoice = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
        let send = format!("/v1/invoices/{}/send", invoice["id"].as_str().unwrap());
        let answer: Value = app.post(&send, &json!({})).await.json().await.unwrap();
        answer["messages"][0].clone()
    };
    let refused = send_to(SANDBOX_FAILING_PHONE).await;
    let unreachable = send_to(SANDBOX_UNREACHABLE_PHONE).await;
    assert_eq!((&refused["status"], &unreachable["status"]), (&json!("failed"), &json!("undeliverable")));
    let refused = get(app, &key, &format!("/v1/messages/{}", refused["id"].as_str().unwrap())).await;
    assert_eq!(refused["providerId"], Value::Null, "a refused message was never taken");
    assert!(refused["failureReason"].as_str().unwrap().contains("21211"), "{refused}");
    let unreachable = get(app, &key, &format!("/v1/messages/{}", unreachable["id"].as_str().unwrap())).await;
    assert!(unreachable["providerId"].as_str().unwrap().starts_with("sandbox_"), "{unreachable}");

    // Each move has its event, as live records them: refused (failed); taken, then undeliverable.
    let moves = |id: &str| {
        let (app, id) = (&app, id.to_owned());
        async move {
            let mut found = Vec::new();
            for kind in ["message.sent", "message.delivered", "message.failed"] {
                let events = get(app, &app.key, &format!("/v1/events?type={kind}")).await;
                for e in events["data"].as_array().unwrap().iter().filter(|e| e["data"]["object"]["id"] == id) {
                    found.push((kind, e["data"]["object"]["status"].as_str().unwrap().to_owned()));
                }
            }
            found
        }
    };
    assert_eq!(moves(refused["id"].as_str().unwrap()).await, [("message.failed", "failed".to_owned())]);
    assert_eq!(
        moves(unreachable["id"].as_str().unwrap()).await,
        [("message.sent", "sent".to_owned()), ("message.failed", "undeliverable".to_owned())]
    );
    let failed = get(app, &key, "/v1/messages?status=failed").await;
    assert_eq!(failed["pagination"]["total"], 1);
});

api_test!(an_invoice_is_sent_in_its_clients_language_with_a_link_that_opens_in_it, |app| {
    let page_lang = async |link: &str, accept: &str| {
        // The public host is the deployment's; the test server answers the same path.
        let path = &link[link.find("/pay/").unwrap()..];
        let r = app.http.get(app.url(path)).header("accept-language", accept).send().await.unwrap();
        let html = r.text().await.unwrap();
        html.split("<html lang=\"").nth(1).unwrap().split('"').next().unwrap().to_owned()
    };
    for (lang, sms_words, subject_words) in
        [("ht", "fakti INV-", "pou peye"), ("fr", "à régler le", "à régler le"), ("en", "due 20", "due 20")]
    {
        let body = json!({ "firstName": "Woz", "lastName": "Pyè", "phoneNumber": "+50937000009",
                           "email": "woz@example.ht", "language": lang });
        let client: Value = app.post("/v1/clients", &body).await.json().await.unwrap();
        let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
        let id = invoice["id"].as_str().unwrap();
        let key = app.key.clone();
        let sent = get(app, &key, &format!("/v1/messages?invoiceId={id}")).await;
        let sent = sent["data"].as_array().unwrap();
        assert!(sent.iter().all(|m| m["language"] == lang), "{sent:?}");
        let sms = sent.iter().find(|m| m["channel"] == "sms").unwrap()["text"].as_str().unwrap();
        let email = sent.iter().find(|m| m["channel"] == "email").unwrap();
        assert!(sms.contains(sms_words), "{lang}: {sms}");
        assert!(email["subject"].as_str().unwrap().contains(subject_words), "{lang}: {email}");
        assert!(email["html"].as_str().unwrap().contains(&format!("<html lang=\"{lang}\">")), "{email}");
        // The link opens the page in the client's language, whatever the phone's browser asks.
        let link = sms.rsplit(' ').next().unwrap();
        assert_eq!(link, format!("{}?lang={lang}", invoice["paymentLink"]["url"].as_str().unwrap()));
        assert_eq!(page_lang(link, "en-US,en;q=0.9").await, lang, "{link}");
    }
});
