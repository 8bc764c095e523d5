//! The SSRF guard on live webhook endpoints: https only, public addresses only, at create and
//! update (400 `invalid_url` saying why) and again when a delivery connects (a name that moved to
//! a private address is refused before anything is dialled). Sandbox endpoints may be local.

use crate::common::{TestApp, TestConfig, expect_error, test_config};
use lajan_domain::{Environment, Timestamp};
use lajan_services::webhook_guard::FixedResolver;
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
        (format!("https://{private}/h"), "resolves to 10.0.0.5, a private address"),
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
    assert!(error.contains("resolves to 127.0.0.1, a loopback address"), "{error}");
    assert_eq!(detail["status"], "pending", "retried on the schedule, in case the name comes back");
});
