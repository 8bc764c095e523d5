//! `GET/PUT /v1/settings`: defaults, partial updates, validation that changes nothing.

use lajan_testkit::expect_error;
use serde_json::{Value, json};

api_test!(settings_default_update_and_validate, |app| {
    let defaults: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(
        defaults,
        json!({ "defaultCurrency": "HTG", "defaultTaxRate": 0, "payoutApprovalRequired": true,
                "requireDistinctApprover": false, "timezone": "UTC", "pendingChange": null })
    );
    let r = app
        .put(
            "/v1/mfi/settings",
            &json!({ "defaultCurrency": "USD", "defaultTaxRate": 7.125, "timezone": "America/Port-au-Prince" }),
        )
        .await;
    assert_eq!(r.status(), 200);
    let updated: Value = r.json().await.unwrap();
    assert_eq!(updated["defaultCurrency"], "USD");
    assert_eq!(updated["defaultTaxRate"].to_string(), "7.125", "read and written exactly");
    assert_eq!(updated["payoutApprovalRequired"], true, "fields left out are kept");
    assert_eq!(app.get("/v1/settings").await.json::<Value>().await.unwrap(), updated);

    let body = expect_error(
        app.put("/v1/settings", &json!({ "defaultCurrency": "EUR", "defaultTaxRate": 100.5, "timezone": "Mars/Base" }))
            .await,
        400,
        "validation_error",
    )
    .await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["defaultCurrency", "defaultTaxRate", "timezone"]);
    for rate in [json!(-1), json!(1.2345), json!("5")] {
        expect_error(app.put("/v1/settings", &json!({ "defaultTaxRate": rate })).await, 400, "validation_error").await;
    }
    assert_eq!(
        app.get("/v1/settings").await.json::<Value>().await.unwrap(),
        updated,
        "rejected updates change nothing"
    );
    // The organization's one key is the only one with approval rights: a relaxation applies at
    // once, and says no second person could confirm it.
    let r = app.put("/v1/settings", &json!({ "payoutApprovalRequired": false, "requireDistinctApprover": true })).await;
    let flags: Value = r.json().await.unwrap();
    assert_eq!(
        (
            flags["payoutApprovalRequired"].clone(),
            flags["requireDistinctApprover"].clone(),
            flags["pendingChange"].clone()
        ),
        (json!(false), json!(true), Value::Null)
    );
    let events: Value = app.get("/v1/events?type=settings.updated").await.json().await.unwrap();
    let object = &events["data"][0]["data"]["object"];
    assert_eq!(object["secondPerson"], "none_available", "{object}");
    assert_eq!(
        (object["requestedBy"]["id"].as_str(), &object["confirmedBy"]),
        (Some(app.key_id.as_str()), &Value::Null)
    );
    assert_eq!(events["data"][1]["data"]["object"]["secondPerson"], "not_needed");
});
