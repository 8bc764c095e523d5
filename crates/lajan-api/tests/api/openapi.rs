//! The OpenAPI document covers every route and matches its committed snapshot; `/docs` works offline.

use serde_json::{Value, json};

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/openapi.json");

#[test]
fn openapi_document_matches_snapshot() {
    let doc = serde_json::to_string_pretty(&lajan_api::openapi::document()).unwrap() + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(std::path::Path::new(SNAPSHOT).parent().unwrap()).unwrap();
        std::fs::write(SNAPSHOT, &doc).unwrap();
    }
    let stored = std::fs::read_to_string(SNAPSHOT).unwrap_or_default();
    assert!(stored == doc, "the OpenAPI document changed: review it and rerun with UPDATE_SNAPSHOTS=1");
}

#[test]
fn every_operation_has_a_unique_meaningful_operation_id() {
    // Client generators name methods after operationIds: one missing or repeated breaks them.
    let doc = serde_json::to_value(lajan_api::openapi::document()).unwrap();
    let mut ids = Vec::new();
    for section in ["paths", "webhooks"] {
        for (path, item) in doc[section].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                let id = operation["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path} has none"));
                assert!(id.len() > 6 && id.chars().next().unwrap().is_ascii_lowercase(), "{method} {path}: {id}");
                ids.push(id.to_owned());
            }
        }
    }
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "operationIds repeat");
}

#[test]
fn the_framework_error_codes_are_documented() {
    let doc = serde_json::to_value(lajan_api::openapi::document()).unwrap();
    let text = doc.to_string();
    for code in ["invalid_json", "method_not_allowed", "internal_error", "not_ready", "validation_error"] {
        assert!(text.contains(code), "{code} appears nowhere in the document");
    }
    for (path, item) in doc["paths"].as_object().unwrap().iter().filter(|(p, _)| p.starts_with("/v1/")) {
        for (method, operation) in item.as_object().unwrap() {
            for (status, response) in operation["responses"].as_object().unwrap() {
                let described = response["description"].as_str().is_some_and(|d| !d.is_empty());
                assert!(described || status.starts_with('2'), "{method} {path} {status} has no description");
            }
        }
    }
}

api_test!(openapi_and_docs_are_served, |app| {
    let r = app.http.get(app.url("/v1/openapi.json")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let doc: Value = r.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    for path in
        ["/v1/clients", "/v1/clients/{id}", "/v1/events", "/v1/events/{id}", "/v1/settings", "/healthz", "/readyz"]
    {
        assert!(doc["paths"][path].is_object(), "{path} documented");
    }
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    // What every authenticated operation can answer is documented on every one of them.
    for (path, item) in doc["paths"].as_object().unwrap().iter().filter(|(p, _)| p.starts_with("/v1/")) {
        for (method, operation) in item.as_object().unwrap() {
            for status in ["401", "403", "429"] {
                assert!(operation["responses"][status].is_object(), "{method} {path} documents {status}");
            }
            let keyed =
                operation["parameters"].as_array().into_iter().flatten().any(|p| p["name"] == "Idempotency-Key");
            assert_eq!(keyed, method == "post", "{method} {path}: every POST, and only POSTs, take a key");
            if keyed {
                assert!(operation["responses"]["409"].is_object() && operation["responses"]["422"].is_object());
            }
        }
    }
    // `/docs` is the page itself, not a redirect; its relative assets load from /docs/.
    for path in ["/docs", "/docs/"] {
        let html = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(html.status(), 200, "{path}");
        let text = html.text().await.unwrap();
        assert!(text.contains("swagger") && text.contains("<base href=\"/docs/\">"), "Swagger UI page: {text}");
        assert!(!text.contains("cdn") && !text.contains("unpkg"), "no external assets");
    }
    let init = app.http.get(app.url("/docs/swagger-initializer.js")).send().await.unwrap();
    assert_eq!(init.status(), 200);
    assert!(init.text().await.unwrap().contains("/v1/openapi.json"));
    let bundle = app.http.get(app.url("/docs/swagger-ui-bundle.js")).send().await.unwrap();
    assert_eq!(bundle.status(), 200, "assets bundled into the binary");
});

api_test!(each_sandbox_tool_needs_the_scope_its_document_names, |app| {
    let doc: Value = app.http.get(app.url("/v1/openapi.json")).send().await.unwrap().json().await.unwrap();
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), serde_json::json!({ "sendImmediately": true })).await;
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let tools = [
        ("post", "/v1/sandbox/payment-intents/{id}/pay", format!("/v1/sandbox/payment-intents/{intent}/pay")),
        ("get", "/v1/sandbox/messages", "/v1/sandbox/messages".to_owned()),
        ("get", "/v1/sandbox/balances", "/v1/sandbox/balances".to_owned()),
        ("post", "/v1/sandbox/balances/top-up", "/v1/sandbox/balances/top-up".to_owned()),
    ];
    for (method, documented, path) in tools {
        let description = doc["paths"][documented][method]["description"].as_str().unwrap_or_default();
        let scope = description.split("scope `").nth(1).and_then(|s| s.split('`').next());
        let scope = scope.unwrap_or_else(|| panic!("{documented} names its scope: {description:?}"));
        let method: reqwest::Method = method.to_uppercase().parse().unwrap();
        let body = if path.ends_with("top-up") {
            serde_json::json!({ "assetCode": "USDC", "amount": 1 })
        } else {
            serde_json::json!({ "amount": 1 })
        };
        let call = |key: String| {
            let req = app.http.request(method.clone(), app.url(&path)).bearer_auth(key);
            let req = if method == reqwest::Method::POST { req.json(&body) } else { req };
            async move { req.send().await.unwrap() }
        };
        let allowed = call(app.key(None, lajan_domain::Environment::Test, &[scope]).await).await;
        let status = allowed.status();
        assert!(status.is_success(), "{documented} with {scope}: {status} {}", allowed.text().await.unwrap());
        let other = if scope == "clients:write" { "events:read" } else { "clients:write" };
        let refused = call(app.key(None, lajan_domain::Environment::Test, &[other]).await).await;
        lajan_testkit::expect_error(refused, 403, "forbidden").await;
    }
});

/// A schema with its `$ref`s and `allOf`s followed: the properties it names and those it requires.
fn properties_of(doc: &Value, schema: &Value) -> (Vec<String>, Vec<String>) {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap();
        return properties_of(doc, &doc["components"]["schemas"][name]);
    }
    let (mut named, mut required) = (Vec::new(), Vec::new());
    for part in schema["allOf"].as_array().into_iter().flatten() {
        let (n, r) = properties_of(doc, part);
        named.extend(n);
        required.extend(r);
    }
    named.extend(schema["properties"].as_object().into_iter().flatten().map(|(k, _)| k.clone()));
    required.extend(schema["required"].as_array().into_iter().flatten().map(|r| r.as_str().unwrap().to_owned()));
    (named, required)
}

api_test!(each_event_type_has_its_delivery_described_and_real_objects_fit_it, |app| {
    let doc: Value = app.get("/v1/openapi.json").await.json().await.unwrap();
    let webhooks = doc["webhooks"].as_object().expect("a webhooks section");
    assert_eq!(webhooks.len(), lajan_domain::event::EVENT_TYPES.len());
    let ids = |items: Vec<&Value>| -> Vec<String> {
        items
            .into_iter()
            .flat_map(|item| item.as_object().unwrap().values())
            .filter_map(|operation| operation["operationId"].as_str().map(str::to_owned))
            .collect()
    };
    let mut hook_ids = ids(webhooks.values().collect());
    let path_ids = ids(doc["paths"].as_object().unwrap().values().collect());
    hook_ids.sort_unstable();
    hook_ids.dedup();
    assert_eq!(hook_ids.len(), webhooks.len(), "one operationId per event type");
    assert!(hook_ids.iter().all(|id| !path_ids.contains(id)), "none is also a path's");
    let object_schema = |event_type: &str| {
        let post = &webhooks[event_type]["post"];
        assert!(post["description"].as_str().is_some_and(|d| !d.is_empty()), "{event_type} says when");
        let event = &post["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(event["allOf"][0]["$ref"], "#/components/schemas/EventView");
        assert_eq!(event["allOf"][1]["properties"]["type"]["const"], event_type);
        event["allOf"][1]["properties"]["data"]["properties"]["object"].clone()
    };
    for event_type in lajan_domain::event::EVENT_TYPES {
        let (named, _) = properties_of(&doc, &object_schema(event_type));
        assert!(named.contains(&"id".to_owned()) || *event_type == "settings.updated", "{event_type}: {named:?}");
    }

    // One event of each area, made for real: its object has the properties its schema names.
    let client = app.client("Nadège", "Louis").await;
    let client_id = client["id"].as_str().unwrap();
    app.invoice(client_id, json!({})).await;
    app.post("/v1/payment-links", &json!({ "amount": 25, "description": "Fee" })).await;
    let payout = json!({ "walletAccountId": lajan_testkit::WALLET, "assetAmount": 1, "assetCode": "USDC" });
    app.post("/v1/payouts", &payout).await;
    let items = json!([{ "walletAccountId": lajan_testkit::WALLET, "assetAmount": 2 }]);
    app.post("/v1/disbursements", &json!({ "name": "March", "assetCode": "USDC", "items": items })).await;
    app.put("/v1/settings", &json!({ "requireDistinctApprover": true })).await;
    let endpoint: Value = app
        .post("/v1/webhook-endpoints", &json!({ "url": "http://127.0.0.1:9/h", "events": ["*"] }))
        .await
        .json()
        .await
        .unwrap();
    app.post(&format!("/v1/webhook-endpoints/{}/test", endpoint["id"].as_str().unwrap()), &json!({})).await;
    for event_type in [
        "client.created",
        "invoice.created",
        "payment_link.created",
        "payout.created",
        "disbursement.created",
        "settings.updated",
        "webhook_endpoint.test",
    ] {
        let events: Value = app.get(&format!("/v1/events?type={event_type}")).await.json().await.unwrap();
        let object =
            events["data"][0]["data"]["object"].as_object().unwrap_or_else(|| panic!("{event_type}: {events}"));
        let (named, required) = properties_of(&doc, &object_schema(event_type));
        for key in object.keys() {
            assert!(named.contains(key), "{event_type}: {key} is not in its schema");
        }
        for key in &required {
            assert!(object.contains_key(key), "{event_type}: the schema requires {key}");
        }
    }
});

#[test]
fn every_amount_in_an_answer_is_typed_as_an_exact_decimal() {
    // Client libraries read a `format: decimal` string as an exact decimal and any other string as
    // text: an amount left untyped would reach an integrator as text. The examples are real
    // answers (`openapi_examples`), so every amount the API writes is in them.
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(SNAPSHOT).unwrap()).unwrap();
    let mut untyped = Vec::new();
    let mut typed = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            for (status, response) in operation["responses"].as_object().into_iter().flatten() {
                let content = &response["content"]["application/json"];
                let at = format!("{method} {path} {status}");
                amounts_in(&doc, &content["schema"], &content["example"], &at, &mut untyped, &mut typed);
            }
        }
    }
    assert!(typed > 30, "only {typed} amounts in the examples: are they still real answers?");
    assert_eq!(untyped, Vec::<String>::new(), "amounts without `format: decimal`");
}

/// Walks `value` beside its `schema`, counting money-looking strings at `format: decimal`
/// properties in `typed` and naming the others in `untyped`.
fn amounts_in(doc: &Value, schema: &Value, value: &Value, at: &str, untyped: &mut Vec<String>, typed: &mut usize) {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap();
        return amounts_in(doc, &doc["components"]["schemas"][name], value, &format!("{at} {name}"), untyped, typed);
    }
    for part in ["allOf", "oneOf", "anyOf"].iter().flat_map(|k| schema[k].as_array().into_iter().flatten()) {
        amounts_in(doc, part, value, at, untyped, typed);
    }
    match value {
        Value::Array(items) => items.iter().for_each(|v| amounts_in(doc, &schema["items"], v, at, untyped, typed)),
        Value::Object(fields) => {
            for (name, v) in fields {
                let property = &schema["properties"][name];
                if property.is_null() {
                    continue;
                }
                let looks_like_money = v.as_str().is_some_and(|s| {
                    let digits = s.strip_prefix('-').unwrap_or(s);
                    digits.split_once('.').is_some_and(|(whole, cents)| {
                        !whole.is_empty()
                            && cents.len() == 2
                            && (whole.to_owned() + cents).bytes().all(|b| b.is_ascii_digit())
                    })
                });
                if looks_like_money && property["format"] != "decimal" {
                    untyped.push(format!("{at}: {name}"));
                } else if looks_like_money {
                    *typed += 1;
                }
                amounts_in(doc, property, v, &format!("{at}.{name}"), untyped, typed);
            }
        }
        _ => {}
    }
}
