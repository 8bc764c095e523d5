//! The SSRF guard on live webhook endpoints: https only, public addresses only, at create and
//! update (400 `invalid_url` saying why) and again when a delivery connects (a name that moved to
//! a private address is refused before anything is dialled). Sandbox endpoints are guarded the
//! same way (but may use http) unless the operator allows private addresses, and even then
//! nothing a private address answers is kept.

use lajan_domain::{Environment, Timestamp};
use lajan_services::webhook_guard::FixedResolver;
use lajan_testkit::{TestApp, TestConfig, expect_error, test_config};
use serde_json::{Value, json};
use std::sync::{Arc, LazyLock};

/// One resolver for every app of these tests; each test names hosts under its own organization,
/// so the SQLite and PostgreSQL runs of a test never see each other's answers.
static RESOLVER: LazyLock<Arc<FixedResolver>> = LazyLock::new(Arc::default);

fn guarded() -> TestConfig {
    let mut config = test_config();
    config.services.resolver = RESOLVER.clone();
    config
}

/// As `lajan serve` runs by default: sandbox endpoints reach public addresses only.
fn sandbox_guarded() -> TestConfig {
    let mut config = guarded();
    config.services.sandbox_webhooks_private = false;
    config
}

fn host(app: &TestApp, name: &str) -> String {
    format!("{name}.{}.example", app.org.id.to_ascii_lowercase().replace('_', "-"))
}

api_test!(live_endpoints_must_be_https_and_reach_public_addresses, guarded(), |app| {
    let live = app.key(None, Environment::Live, &["*"]).await;
    let (public, private, nowhere) = (host(app, "hooks"), host(app, "intranet"), host(app, "gone"));
    RESOLVER.set(&public, &["93.184.216.34", "2606:2800:220:1::1"]);
    RESOLVER.set(&private, &["93.184.216.34", "10.0.0.5"]);
    RESOLVER.set(&nowhere, &[]);
    for (url, says) in [
        (format!("http://{public}/h"), "https"),
        ("https://localhost/h".into(), "this machine"),
        ("https://127.0.0.1/h".into(), "loopback"),
        ("https://[::1]/h".into(), "loopback"),
        ("https://[::ffff:10.0.0.1]/h".into(), "private"),
        ("https://[64:ff9b::a9fe:a9fe]/h".into(), "link-local"),
        ("https://169.254.169.254/latest/meta-data".into(), "link-local"),
        ("https://0.0.0.0/h".into(), "unspecified"),
        ("https://[fe80::1]/h".into(), "link-local"),
        ("https://224.0.0.1/h".into(), "multicast"),
        (format!("https://{private}/h"), "resolves to an address that is not public"),
        (format!("https://{nowhere}/h"), "could not be resolved"),
    ] {
        let r = app.post_with(&live, "/v1/webhook-endpoints", &json!({ "url": url, "events": ["*"] })).await;
        let body = expect_error(r, 400, "invalid_url").await;
        assert!(body["message"].as_str().unwrap().contains(says), "{url}: {body}");
    }
    let r = app
        .post_with(&live, "/v1/webhook-endpoints", &json!({ "url": format!("https://{public}/h"), "events": ["*"] }))
        .await;
    assert_eq!(r.status(), 201);
    let id = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    let r = app
        .send_json_with(
            &live,
            reqwest::Method::PUT,
            &format!("/v1/webhook-endpoints/{id}"),
            &json!({ "url": format!("https://{private}/h") }),
        )
        .await;
    expect_error(r, 400, "invalid_url").await;
    let listed: Value = app.get_with(&live, "/v1/webhook-endpoints").await.json().await.unwrap();
    assert_eq!(listed["pagination"]["total"], 1, "nothing stored by a refusal");

    let r = app.post("/v1/webhook-endpoints", &json!({ "url": "http://127.0.0.1:9/h", "events": ["*"] })).await;
    assert_eq!(r.status(), 201, "the sandbox may deliver to a local receiver");
});

api_test!(a_name_that_moves_to_a_private_address_is_refused_at_connect_time, guarded(), |app| {
    let live = app.key(None, Environment::Live, &["*"]).await;
    let name = host(app, "moving");
    RESOLVER.set(&name, &["93.184.216.34"]);
    let r = app
        .post_with(&live, "/v1/webhook-endpoints", &json!({ "url": format!("https://{name}/h"), "events": ["*"] }))
        .await;
    assert_eq!(r.status(), 201);
    let id = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    RESOLVER.set(&name, &["127.0.0.1"]);
    let r = app.post_with(&live, &format!("/v1/webhook-endpoints/{id}/test"), &json!({})).await;
    let delivery = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    let detail: Value =
        app.get_with(&live, &format!("/v1/webhook-endpoints/{id}/deliveries/{delivery}")).await.json().await.unwrap();
    let attempt = &detail["attempts"][0];
    assert_eq!(attempt["httpStatus"], Value::Null, "{detail}");
    let error = attempt["error"].as_str().unwrap();
    assert!(error.contains("resolves to an address that is not public"), "{error}");
    assert!(!error.contains("127.0.0.1"), "the address an internal name has is not told: {error}");
    assert_eq!(detail["status"], "pending", "retried on the schedule, in case the name comes back");
});

api_test!(sandbox_endpoints_reach_public_addresses_unless_the_operator_allows_private_ones, sandbox_guarded(), |app| {
    let receiver = lajan_worker::testing::WebhookReceiver::start().await;
    let (public, internal) = (host(app, "hooks"), host(app, "admin"));
    RESOLVER.set(&public, &["93.184.216.34"]);
    RESOLVER.set(&internal, &["10.1.2.3"]);
    for (url, says) in [
        (receiver.url("/h"), "127.0.0.1 is a loopback address"),
        ("http://localhost:9000/h".into(), "names this machine"),
        ("http://169.254.169.254/latest/meta-data".into(), "link-local"),
        (format!("http://{internal}/h"), "resolves to an address that is not public"),
    ] {
        let r = app.post("/v1/webhook-endpoints", &json!({ "url": url, "events": ["*"] })).await;
        let body = expect_error(r, 400, "invalid_url").await;
        let message = body["message"].as_str().unwrap();
        assert!(message.contains(says) && message.contains("LAJAN_SANDBOX_WEBHOOKS_PRIVATE=allow"), "{url}: {body}");
        assert!(!message.contains("10.1.2.3"), "{body}");
    }
    let r = app.post("/v1/webhook-endpoints", &json!({ "url": format!("http://{public}/h"), "events": ["*"] })).await;
    assert_eq!(r.status(), 201, "http is fine in the sandbox");
    let listed: Value = app.get("/v1/webhook-endpoints").await.json().await.unwrap();
    assert_eq!(listed["pagination"]["total"], 1, "nothing stored by a refusal");
    assert!(receiver.received().is_empty());
});

api_test!(what_a_private_address_answers_is_never_kept, |app| {
    // Allowed (as test_config allows it): the delivery goes, its answer's body is dropped.
    let receiver = lajan_worker::testing::WebhookReceiver::start().await;
    let r = app.post("/v1/webhook-endpoints", &json!({ "url": receiver.url("/admin"), "events": ["*"] })).await;
    assert_eq!(r.status(), 201);
    let id = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    receiver.respond_next(2, 500, &[], "root:x:0:0:internal secret");
    let r = app.post(&format!("/v1/webhook-endpoints/{id}/test"), &json!({})).await;
    let delivery = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    let r = app.post(&format!("/v1/webhook-endpoints/{id}/deliveries/{delivery}/retry"), &json!({})).await;
    assert_eq!(r.status(), 202);
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    assert_eq!(receiver.received().len(), 2);
    let text = app.get(&format!("/v1/webhook-endpoints/{id}/deliveries/{delivery}")).await.text().await.unwrap();
    assert!(!text.contains("internal secret"), "a private address's answer was returned: {text}");
    let detail: Value = serde_json::from_str(&text).unwrap();
    for attempt in detail["attempts"].as_array().unwrap() {
        assert_eq!((attempt["httpStatus"].as_i64(), &attempt["responseBody"]), (Some(500), &Value::Null), "{attempt}");
    }
});
