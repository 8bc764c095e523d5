//! `GET/PUT /v1/settings`: defaults, partial updates, validation that changes nothing.

use lajan_testkit::expect_error;
use serde_json::{Value, json};

api_test!(settings_default_update_and_validate, |app| {
    let defaults: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(
        defaults,
        json!({ "defaultCurrency": "HTG", "defaultTaxRate": 0, "payoutApprovalRequired": true,
                "requireDistinctApprover": false, "timezone": "UTC", "country": "HT", "allowPartialPayments": true, "pendingChange": null,
                "reminders": { "offsetDays": [-3, 0, 3, 7], "channels": ["sms", "email"], "timeOfDay": "09:00" },
                "paymentReceipts": true, "receiptGraceMinutes": 5,
                "defaultClientLanguage": "ht", "invitationResendDays": 3, "invitationResends": 2,
                "registrationWindowDays": 14, "whatsappInvitations": false, "recommendedWallets": [],
                "homeDomain": null, "orgUrl": null, "orgLogo": null, "orgDescription": null,
                "orgOfficialEmail": null, "orgSupportEmail": null })
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
        app.put(
            "/v1/settings",
            &json!({ "defaultCurrency": "EUR", "defaultTaxRate": 100.5, "timezone": "Mars/Base", "country": "Haiti" }),
        )
        .await,
        400,
        "validation_error",
    )
    .await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["defaultCurrency", "defaultTaxRate", "timezone", "country"]);
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

api_test!(receiver_settings_update_validate_and_give_new_clients_their_language, |app| {
    let wallets = json!([{ "name": "Beans", "url": "https://www.beansapp.com/", "assets": ["USDC", "XLM"],
                              "deepLink": "beans://sdp" }]);
    let r = app
        .put(
            "/v1/settings",
            &json!({ "defaultClientLanguage": "fr", "invitationResendDays": 2, "invitationResends": 0,
                     "registrationWindowDays": 30, "whatsappInvitations": true, "recommendedWallets": wallets }),
        )
        .await;
    assert_eq!(r.status(), 200);
    let updated: Value = r.json().await.unwrap();
    assert_eq!(
        (&updated["defaultClientLanguage"], &updated["invitationResends"], &updated["recommendedWallets"]),
        (&json!("fr"), &json!(0), &wallets)
    );
    let events: Value = app.get("/v1/events?type=settings.updated").await.json().await.unwrap();
    let object = &events["data"][0]["data"]["object"];
    assert_eq!((&object["registrationWindowDays"], &object["recommendedWallets"]), (&json!(30), &wallets), "{object}");
    assert_eq!(
        (&object["previous"]["registrationWindowDays"], &object["previous"]["recommendedWallets"]),
        (&json!(14), &json!([]))
    );

    let bad = json!({ "defaultClientLanguage": "de", "invitationResendDays": 0, "invitationResends": 11,
                      "registrationWindowDays": 91,
                      "recommendedWallets": [{ "name": " ", "url": "javascript:alert(1)", "assets": ["US-D"] }] });
    let body = expect_error(app.put("/v1/settings", &bad).await, 400, "validation_error").await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(
        fields,
        [
            "defaultClientLanguage",
            "invitationResendDays",
            "invitationResends",
            "registrationWindowDays",
            "recommendedWallets[0].name",
            "recommendedWallets[0].url",
            "recommendedWallets[0].assets[0]"
        ]
    );
    for bad in [
        json!({ "whatsappInvitations": null }),
        json!({ "recommendedWallets": [{ "name": "A", "url": "https://a.example", "extra": 1 }] }),
    ] {
        expect_error(app.put("/v1/settings", &bad).await, 400, "validation_error").await;
    }
    assert_eq!(app.get("/v1/settings").await.json::<Value>().await.unwrap(), updated, "refusals change nothing");

    let told = app.post("/v1/clients", &json!({ "firstName": "Ana", "lastName": "Pyè", "language": "ht" })).await;
    let untold = app.post("/v1/clients", &json!({ "firstName": "Ana", "lastName": "Pyè" })).await;
    assert_eq!(told.json::<Value>().await.unwrap()["language"], "ht");
    assert_eq!(untold.json::<Value>().await.unwrap()["language"], "fr", "the settings' default");
});
