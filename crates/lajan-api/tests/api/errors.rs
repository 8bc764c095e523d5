//! Every framework-level rejection answers in the documented error shape.

use lajan_testkit::expect_error;
use reqwest::Method;
use serde_json::json;

api_test!(malformed_json_is_invalid_json, |app| {
    for body in ["{", "", "{\"firstName\": }", "{} trailing", "{'a': 1}"] {
        let r = app
            .req(Method::POST, "/v1/clients")
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        expect_error(r, 400, "invalid_json").await;
    }
    assert_eq!(app.get("/v1/clients").await.json::<serde_json::Value>().await.unwrap()["pagination"]["total"], 0);
});

api_test!(a_body_that_is_an_array_is_refused_not_read_as_fields, |app| {
    // Found by Schemathesis: serde reads a struct from an array of its fields, so `[]` passed as
    // an empty change and `["A", "B"]` could have named a client.
    for (method, path, body) in
        [(Method::PUT, "/v1/settings", "[]"), (Method::POST, "/v1/clients", r#" ["Marie", "Jean"]"#)]
    {
        let r = app.req(method, path).header("content-type", "application/json").body(body).send().await.unwrap();
        let e = expect_error(r, 400, "validation_error").await;
        assert_eq!(e["details"][0], json!({ "field": "body", "message": "must be a JSON object" }));
    }
    assert_eq!(app.get("/v1/clients").await.json::<serde_json::Value>().await.unwrap()["pagination"]["total"], 0);
});

api_test!(missing_or_wrong_content_type_is_415, |app| {
    let r = app.req(Method::POST, "/v1/clients").body(r#"{"firstName":"A","lastName":"B"}"#).send().await.unwrap();
    expect_error(r, 415, "unsupported_media_type").await;
    let r = app.req(Method::PUT, "/v1/settings").header("content-type", "text/plain").body("{}").send().await.unwrap();
    expect_error(r, 415, "unsupported_media_type").await;
    let r = app
        .req(Method::POST, "/v1/clients")
        .header("content-type", "application/json; charset=utf-8")
        .body(r#"{"firstName":"A","lastName":"B"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201, "parameters on the media type are fine");
});

api_test!(unknown_route_is_404_and_wrong_method_405, |app| {
    expect_error(app.get("/v1/nothing-here").await, 404, "not_found").await;
    expect_error(app.http.get(app.url("/nowhere")).send().await.unwrap(), 404, "not_found").await;
    expect_error(app.req(Method::PATCH, "/v1/clients").send().await.unwrap(), 405, "method_not_allowed").await;
    expect_error(app.req(Method::DELETE, "/v1/mfi/events").send().await.unwrap(), 405, "method_not_allowed").await;
});

api_test!(bodies_over_one_mebibyte_are_413, |app| {
    let big = format!(r#"{{"firstName":"{}","lastName":"B"}}"#, "a".repeat(1024 * 1024));
    let r = app
        .req(Method::POST, "/v1/clients")
        .header("content-type", "application/json")
        .body(big.clone())
        .send()
        .await
        .unwrap();
    expect_error(r, 413, "payload_too_large").await;
    let r = app
        .req(Method::POST, "/v1/clients")
        .header("content-type", "application/json")
        .header("idempotency-key", "big-one")
        .body(big)
        .send()
        .await
        .unwrap();
    expect_error(r, 413, "payload_too_large").await;
});

api_test!(ill_typed_missing_and_unknown_fields_are_validation_errors, |app| {
    let body = expect_error(
        app.post("/v1/clients", &json!({ "firstName": 12, "lastName": "B" })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "firstName");
    let body = expect_error(app.post("/v1/clients", &json!({})).await, 400, "validation_error").await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["firstName", "lastName"]);
    let body = expect_error(
        app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B", "nickname": "x" })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "nickname");
    let body =
        expect_error(app.post("/v1/clients", &json!(["not", "an", "object"])).await, 400, "validation_error").await;
    assert_eq!(body["details"][0]["field"], "body");
    let body = expect_error(
        app.put("/v1/settings", &json!({ "payoutApprovalRequired": "yes" })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "payoutApprovalRequired");
});

api_test!(server_errors_leak_nothing_and_roll_back, |app| {
    app.store().fail_next_commit();
    let body = expect_error(
        app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await,
        500,
        "internal_error",
    )
    .await;
    let text = body.to_string().to_lowercase();
    for leak in ["injected", "sql", "database", "fault"] {
        assert!(!text.contains(leak), "500 body leaks {leak:?}: {body}");
    }
    let clients: serde_json::Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(clients["pagination"]["total"], 0, "the change rolled back");
    let events: serde_json::Value = app.get("/v1/events").await.json().await.unwrap();
    assert_eq!(events["pagination"]["total"], 0, "and its event with it");
    assert_eq!(app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await.status(), 201);
    let events: serde_json::Value = app.get("/v1/events").await.json().await.unwrap();
    assert_eq!(events["pagination"]["total"], 1);
});

api_test!(request_ids_are_echoed_or_generated, |app| {
    let r = app.http.get(app.url("/healthz")).header("x-request-id", "req-abc-123").send().await.unwrap();
    assert_eq!(r.headers()["x-request-id"], "req-abc-123");
    let r = app.get("/v1/clients/cli_missing").await;
    let generated = r.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(generated.len(), 36, "a UUID: {generated}");
    let body = expect_error(r, 404, "not_found").await;
    assert_eq!(body["requestId"], generated.as_str(), "the error body names the request");

    // The caller's id is kept when usable, in the header and the body; otherwise replaced.
    let r = app.req(Method::GET, "/v1/clients/cli_missing").header("x-request-id", "req-abc-124").send().await.unwrap();
    assert_eq!(r.headers()["x-request-id"], "req-abc-124");
    assert_eq!(expect_error(r, 404, "not_found").await["requestId"], "req-abc-124");
    for unusable in ["two words", &"x".repeat(129)] {
        let r = app.req(Method::GET, "/v1/nowhere").header("x-request-id", unusable).send().await.unwrap();
        let replaced = r.headers()["x-request-id"].to_str().unwrap().to_owned();
        assert_eq!(replaced.len(), 36, "a UUID instead of {unusable:?}: {replaced}");
        assert_eq!(expect_error(r, 404, "not_found").await["requestId"], replaced.as_str());
    }
});

api_test!(health_and_readiness_need_no_key, |app| {
    let r = app.http.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let r = app.http.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<serde_json::Value>().await.unwrap()["status"], "ready");
    let applied = app.store().pending_migrations().await.unwrap();
    assert!(applied.is_empty(), "a started server has applied every migration: {applied:?}");

    // A database behind the binary (its newest migration not applied) is not ready, and says why.
    app.db.forget_newest_migration().await;
    let pending = app.store().pending_migrations().await.unwrap();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let r = app.http.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(r.status(), 503);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["code"], "not_ready");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains(&format!("{:04} {}", pending[0].0, pending[0].1)), "names the migration: {message}");
    assert_eq!(app.http.get(app.url("/healthz")).send().await.unwrap().status(), 200, "still alive");
});
