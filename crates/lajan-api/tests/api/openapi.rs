//! The OpenAPI document covers every route and matches its committed snapshot; `/docs` works offline.

use serde_json::Value;

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
    let html = app.http.get(app.url("/docs/")).send().await.unwrap();
    assert_eq!(html.status(), 200);
    let text = html.text().await.unwrap();
    assert!(text.contains("swagger"), "Swagger UI page");
    assert!(!text.contains("cdn") && !text.contains("unpkg"), "no external assets");
    let init = app.http.get(app.url("/docs/swagger-initializer.js")).send().await.unwrap();
    assert_eq!(init.status(), 200);
    assert!(init.text().await.unwrap().contains("/v1/openapi.json"));
    let bundle = app.http.get(app.url("/docs/swagger-ui-bundle.js")).send().await.unwrap();
    assert_eq!(bundle.status(), 200, "assets bundled into the binary");
});
