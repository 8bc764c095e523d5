//! Secrets stay out of reads: an invitation's link and a registration code are hidden (`***`)
//! in `GET /v1/messages`, in `message.*` events (and so in their webhooks, which carry the same
//! body), for every key; only the sandbox's own endpoint, with `sandbox:read`, reads them whole.

use crate::registration::{code_in, invited, last_text, shown, submit};
use lajan_domain::Environment;
use lajan_testkit::TestApp;
use serde_json::{Value, json};

async fn read(app: &TestApp, key: &str, path: &str) -> (u16, Value) {
    let r = app.get_with(key, path).await;
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

api_test!(invitation_links_and_codes_are_hidden_wherever_messages_are_read, |app| {
    let rose = json!({ "firstName": "Rose", "lastName": "Pyè", "phoneNumber": "+50937000031" });
    let (client_id, link) = invited(app, rose).await;
    shown(submit(app, &link, "code", &[]).await, 200).await;
    let code = code_in(&last_text(app, &client_id).await);

    let reader = app.key(None, Environment::Test, &["invoices:read"]).await;
    let (_, listed) = read(app, &reader, &format!("/v1/messages?clientId={client_id}")).await;
    let texts: Vec<String> = listed["data"].as_array().unwrap().iter().map(|m| m.to_string()).collect();
    assert_eq!(texts.len(), 2, "the invitation and the code: {listed}");
    for text in &texts {
        assert!(!text.contains(&link) && !text.contains(&code), "a read-only key reads no secret: {text}");
        assert!(text.contains("***"), "{text}");
    }
    assert!(texts.iter().any(|t| t.contains("/r/***")), "{texts:?}");
    let id = listed["data"][0]["id"].as_str().unwrap();
    let (_, one) = read(app, &reader, &format!("/v1/messages/{id}")).await;
    assert!(!one.to_string().contains(&code) && !one.to_string().contains(&link), "{one}");

    let events = app.key(None, Environment::Test, &["events:read"]).await;
    let (_, sent) = read(app, &events, "/v1/events?type=message.sent").await;
    assert!(sent["pagination"]["total"].as_i64().unwrap() >= 2, "{sent}");
    let body = sent.to_string();
    assert!(!body.contains(&link) && !body.contains(&code) && body.contains("/r/***"), "{body}");

    // The sandbox's own endpoint reads them whole, with its own scope only.
    let (status, _) = read(app, &reader, "/v1/sandbox/messages").await;
    assert_eq!(status, 403, "invoices:read is not enough");
    let tester = app.key(None, Environment::Test, &["sandbox:read"]).await;
    let (status, whole) = read(app, &tester, "/v1/sandbox/messages").await;
    assert_eq!(status, 200);
    assert!(whole.to_string().contains(&link) && whole.to_string().contains(&code));
    let live = app.key(None, Environment::Live, &["sandbox:read"]).await;
    assert_eq!(read(app, &live, "/v1/sandbox/messages").await.0, 403, "never live");
});
