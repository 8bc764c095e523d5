//! 401 for missing, malformed, unknown or revoked keys; 403 for missing scopes; isolation.

use lajan_domain::Environment;
use lajan_domain::org::Tier;
use lajan_testkit::{expect_error, test_config};
use reqwest::Method;
use serde_json::json;

api_test!(missing_bad_unknown_and_revoked_keys_are_401, uncached_keys(), |app| {
    expect_error(app.http.get(app.url("/v1/clients")).send().await.unwrap(), 401, "unauthorized").await;
    for header in ["Basic abc", "Bearer", "Bearer sk_test_short", "sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"] {
        let r = app.http.get(app.url("/v1/clients")).header("authorization", header).send().await.unwrap();
        expect_error(r, 401, "unauthorized").await;
    }
    let unknown = format!("sk_test_{}", "a".repeat(32));
    expect_error(app.get_with(&unknown, "/v1/clients").await, 401, "unauthorized").await;
    // 401 comes before body checks.
    let r = app.http.post(app.url("/v1/clients")).body("not json").send().await.unwrap();
    expect_error(r, 401, "unauthorized").await;

    let (key, id) = app.key_with_id(None, Environment::Test, &["*"]).await;
    assert_eq!(app.get_with(&key, "/v1/clients").await.status(), 200);
    // As `lajan keys revoke` does, from outside the server: no cache here, so at once.
    app.store().revoke_api_key(&id, lajan_domain::Timestamp::now(), &lajan_testkit::operator()).await.unwrap();
    expect_error(app.get_with(&key, "/v1/clients").await, 401, "unauthorized").await;
});

fn uncached_keys() -> lajan_testkit::TestConfig {
    let mut config = test_config();
    config.api.auth_cache_ms = 0;
    config
}

fn short_key_cache() -> lajan_testkit::TestConfig {
    let mut config = test_config();
    config.api.auth_cache_ms = 300;
    config
}

api_test!(a_revoked_key_stops_working_once_its_cache_entry_expires, short_key_cache(), |app| {
    let (key, id) = app.key_with_id(None, Environment::Test, &["*"]).await;
    assert_eq!(app.get_with(&key, "/v1/clients").await.status(), 200);
    let revoked_at = std::time::Instant::now();
    app.store().revoke_api_key(&id, lajan_domain::Timestamp::now(), &lajan_testkit::operator()).await.unwrap();
    loop {
        let status = app.get_with(&key, "/v1/clients").await.status();
        if status == 401 {
            break;
        }
        assert_eq!(status, 200);
        // The window is 300 ms; the slack covers a request that began inside it.
        assert!(revoked_at.elapsed() < std::time::Duration::from_secs(1), "still accepted after the cache window");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // A key the cache has not seen is looked up, and an unknown one is never kept.
    let unknown = format!("sk_test_{}", "b".repeat(32));
    expect_error(app.get_with(&unknown, "/v1/clients").await, 401, "unauthorized").await;
});

api_test!(keys_without_the_scope_are_403, |app| {
    let reader = app.key(None, Environment::Test, &["clients:read"]).await;
    assert_eq!(app.get_with(&reader, "/v1/clients").await.status(), 200);
    let r = app.post_with(&reader, "/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await;
    let body = expect_error(r, 403, "forbidden").await;
    assert!(body["message"].as_str().unwrap().contains("clients:write"));
    expect_error(app.get_with(&reader, "/v1/events").await, 403, "forbidden").await;
    expect_error(app.get_with(&reader, "/v1/settings").await, 403, "forbidden").await;
    // 403 comes before body validation.
    let r = app.post_with(&reader, "/v1/clients", &json!({})).await;
    expect_error(r, 403, "forbidden").await;

    let writer = app.key(None, Environment::Test, &["clients:write", "events:read"]).await;
    let r = app.post_with(&writer, "/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await;
    assert_eq!(r.status(), 201);
    assert_eq!(app.get_with(&writer, "/v1/clients").await.status(), 200, "write includes read");
    assert_eq!(app.get_with(&writer, "/v1/events").await.status(), 200);
    let r = app.send_json_with(&writer, Method::PUT, "/v1/settings", &json!({})).await;
    expect_error(r, 403, "forbidden").await;
});

api_test!(organizations_and_environments_are_isolated, |app| {
    let mine = app.client("Marie", "Jean").await;
    let id = mine["id"].as_str().unwrap();
    let other_org = app.org("Other MFI", Tier::Standard).await;
    let other = app.key(Some(&other_org.id), Environment::Test, &["*"]).await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    assert!(live.starts_with("sk_live_"));
    for key in [&other, &live] {
        expect_error(app.get_with(key, &format!("/v1/clients/{id}")).await, 404, "not_found").await;
        let list: serde_json::Value = app.get_with(key, "/v1/clients").await.json().await.unwrap();
        assert_eq!(list["pagination"]["total"], 0);
        let events: serde_json::Value = app.get_with(key, "/v1/events").await.json().await.unwrap();
        assert_eq!(events["pagination"]["total"], 0);
        let r = app
            .http
            .put(app.url(&format!("/v1/clients/{id}")))
            .bearer_auth(key)
            .json(&json!({ "firstName": "X" }))
            .send()
            .await
            .unwrap();
        expect_error(r, 404, "not_found").await;
        let r = app.http.delete(app.url(&format!("/v1/clients/{id}"))).bearer_auth(key).send().await.unwrap();
        expect_error(r, 404, "not_found").await;
    }
    let still: serde_json::Value = app.get(&format!("/v1/clients/{id}")).await.json().await.unwrap();
    assert_eq!(still, mine, "untouched by the other tenants");
    let r = app.send_json_with(&live, Method::PUT, "/v1/settings", &json!({ "defaultCurrency": "USD" })).await;
    assert_eq!(r.status(), 200);
    let test_settings: serde_json::Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(test_settings["defaultCurrency"], "HTG", "settings are per environment");
});

api_test!(last_used_at_is_recorded, |app| {
    let (key, id) = app.key_with_id(None, Environment::Test, &["*"]).await;
    assert_eq!(app.get_with(&key, "/v1/clients").await.status(), 200);
    let mut used = false;
    for _ in 0..50 {
        let keys = app.store().list_api_keys(Some(&app.org.id)).await.unwrap();
        if keys.iter().any(|k| k.id == id && k.last_used_at.is_some()) {
            used = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(used, "last_used_at set after a request");
});
