//! The clients area: create, get, list with search, update, archive; both path forms; events.

use lajan_testkit::{WALLET, expect_error};
use serde_json::{Value, json};

api_test!(clients_crud_and_archive, |app| {
    let r = app
        .post(
            "/v1/clients",
            &json!({
                "firstName": " Marie ", "lastName": "Jean-Baptiste", "email": "marie@example.ht",
                "phoneNumber": "+50937000000", "walletAccountId": WALLET
            }),
        )
        .await;
    assert_eq!(r.status(), 201);
    let created: Value = r.json().await.unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("cli_"));
    assert_eq!(created["firstName"], "Marie", "names are trimmed");
    assert_eq!(created["phoneNumber"], "+50937000000");
    assert_eq!(created["walletAccountId"], WALLET);
    let created_at = created["createdAt"].as_str().unwrap();
    assert!(created_at.ends_with('Z') && created_at.len() == 24, "RFC 3339 with millis: {created_at}");
    assert_eq!(created["createdAt"], created["updatedAt"]);

    let got: Value = app.get(&format!("/v1/clients/{id}")).await.json().await.unwrap();
    assert_eq!(got, created);
    let got_mfi: Value = app.get(&format!("/v1/mfi/clients/{id}")).await.json().await.unwrap();
    assert_eq!(got_mfi, created, "both path forms");

    let r = app.put(&format!("/v1/clients/{id}"), &json!({ "lastName": "Pierre", "email": null })).await;
    assert_eq!(r.status(), 200);
    let updated: Value = r.json().await.unwrap();
    assert_eq!(updated["lastName"], "Pierre");
    assert_eq!(updated["email"], Value::Null);
    assert_eq!(updated["phoneNumber"], "+50937000000", "fields left out are kept");
    assert_ne!(updated["updatedAt"], created["updatedAt"]);
    assert_eq!(app.get(&format!("/v1/mfi/clients/{id}")).await.json::<Value>().await.unwrap(), updated);

    let bad = expect_error(
        app.put(&format!("/v1/clients/{id}"), &json!({ "phoneNumber": "555", "firstName": "Ok" })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(bad["details"][0]["field"], "phoneNumber");
    assert_eq!(
        app.get(&format!("/v1/clients/{id}")).await.json::<Value>().await.unwrap(),
        updated,
        "a rejected update changes nothing"
    );
    let bad = expect_error(
        app.put(&format!("/v1/clients/{id}"), &json!({ "firstName": null })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(bad["details"][0]["field"], "firstName");

    let r = app.delete(&format!("/v1/mfi/clients/{id}")).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({ "id": id, "deleted": true }));
    expect_error(app.get(&format!("/v1/clients/{id}")).await, 404, "not_found").await;
    expect_error(app.delete(&format!("/v1/clients/{id}")).await, 404, "not_found").await;
    expect_error(app.put(&format!("/v1/clients/{id}"), &json!({ "firstName": "X" })).await, 404, "not_found").await;
    let list: Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 0, "archived clients leave the list");
    // Resources that reference an archived client can still show it.
    let tenant = lajan_domain::Tenant::new(app.org.id.clone(), lajan_domain::Environment::Test);
    let kept = app.store().get_client_including_archived(&tenant, &id).await.unwrap().unwrap();
    assert_eq!(kept.last_name, "Pierre");

    let events: Value = app.get("/v1/events").await.json().await.unwrap();
    let types: Vec<&str> = events["data"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["client.deleted", "client.updated", "client.created"]);
    assert_eq!(events["data"][1]["data"]["object"], updated, "the event carries the resource as the API showed it");
    assert_eq!(events["data"][2]["data"]["object"], created);
});

api_test!(client_fields_are_validated, |app| {
    let body = expect_error(
        app.post(
            "/v1/clients",
            &json!({
                "firstName": "A", "lastName": "B", "email": "not-an-email", "phoneNumber": "3710 203",
                "walletAccountId": "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2A"
            }),
        )
        .await,
        400,
        "validation_error",
    )
    .await;
    let fields: Vec<&str> = body["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["email", "phoneNumber", "walletAccountId"]);
    for wallet in [
        "GABC",
        "SBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
        "gbrpyhil2ci3fnq4bxlfmndlfjunpu2hy3zmfshonuceoasw7qc7ox2h",
    ] {
        let body = expect_error(
            app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B", "walletAccountId": wallet })).await,
            400,
            "validation_error",
        )
        .await;
        assert_eq!(body["details"][0]["field"], "walletAccountId");
    }
    let body = expect_error(
        app.post("/v1/clients", &json!({ "firstName": "A".repeat(101), "lastName": "B" })).await,
        400,
        "validation_error",
    )
    .await;
    assert_eq!(body["details"][0]["field"], "firstName");
    let list: Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 0, "nothing was created");
    assert_eq!(app.get("/v1/events").await.json::<Value>().await.unwrap()["pagination"]["total"], 0);
    expect_error(app.get("/v1/clients/cli_does_not_exist").await, 404, "not_found").await;
});

api_test!(clients_search_over_name_email_phone_and_wallet, |app| {
    let marie = app.post("/v1/clients", &json!({ "firstName": "Marie", "lastName": "Jean", "email": "mj@example.ht", "phoneNumber": "+50937111111" })).await;
    assert_eq!(marie.status(), 201);
    app.post("/v1/clients", &json!({ "firstName": "Paul", "lastName": "Pierre", "walletAccountId": WALLET })).await;
    app.post("/v1/clients", &json!({ "firstName": "Anne", "lastName": "Marie-Claire" })).await;
    for (search, expected) in [
        ("marie", vec!["Anne", "Marie"]),
        ("MARIE JEAN", vec!["Marie"]),
        ("example.ht", vec!["Marie"]),
        ("37111", vec!["Marie"]),
        (&WALLET[..10], vec!["Paul"]),
        ("nobody", vec![]),
        ("50%", vec![]),
    ] {
        let list: Value = app.get(&format!("/v1/clients?search={}", urlencode(search))).await.json().await.unwrap();
        let names: Vec<&str> =
            list["data"].as_array().unwrap().iter().map(|c| c["firstName"].as_str().unwrap()).collect();
        assert_eq!(names, expected, "search {search:?}");
        assert_eq!(list["pagination"]["total"], expected.len());
    }
    let list: Value = app.get("/v1/mfi/clients?search=marie&limit=1").await.json().await.unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
    assert_eq!(list["pagination"]["totalPages"], 2);
});

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

api_test!(a_client_speaks_creole_unless_given_another_language, |app| {
    let marie = app.client("Marie", "Jean").await;
    assert_eq!(marie["language"], "ht", "the default for a new client");
    let r = app.post("/v1/clients", &json!({ "firstName": "Anne", "lastName": "Roy", "language": "fr" })).await;
    assert_eq!(r.status(), 201);
    let anne: Value = r.json().await.unwrap();
    assert_eq!(anne["language"], "fr");
    for bad in [json!("FR"), json!("de"), json!(""), json!(1)] {
        let r = app.post("/v1/clients", &json!({ "firstName": "X", "lastName": "Y", "language": bad })).await;
        let body = expect_error(r, 400, "validation_error").await;
        assert_eq!(body["details"][0]["field"], "language", "{bad}: {body}");
    }
    let listed: Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(listed["pagination"]["total"], 2, "refusals made no client");
    let id = marie["id"].as_str().unwrap();
    let r = app.put(&format!("/v1/clients/{id}"), &json!({ "language": "en" })).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["language"], "en");
    for bad in [json!(null), json!("es")] {
        let body = expect_error(
            app.put(&format!("/v1/clients/{id}"), &json!({ "language": bad })).await,
            400,
            "validation_error",
        )
        .await;
        assert_eq!(body["details"][0]["field"], "language", "{bad}");
    }
    let got: Value = app.get(&format!("/v1/clients/{id}")).await.json().await.unwrap();
    assert_eq!(got["language"], "en", "a refused change keeps the last one");
    let listed: Value = app.get("/v1/clients?search=anne").await.json().await.unwrap();
    assert_eq!(listed["data"][0]["language"], "fr");
});

api_test!(a_verification_is_asked_kept_only_as_a_slow_hash_and_never_shown, |app| {
    let body = json!({
        "firstName": "Jean", "lastName": "Paul", "phoneNumber": "+50937000002",
        "verification": { "type": "date_of_birth", "value": "1990-5-7" }
    });
    let r = app.post("/v1/clients", &body).await;
    assert_eq!(r.status(), 201);
    let text = r.text().await.unwrap();
    let jean: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(jean["verification"], json!({ "type": "date_of_birth" }));
    assert!(!text.contains("1990"), "the answer is never returned: {text}");
    let id = jean["id"].as_str().unwrap();
    let stored = app.store().get_client(&app.tenant(), id).await.unwrap().unwrap().verification.unwrap();
    assert!(stored.hash.starts_with("$argon2id$") && !stored.hash.contains("1990"), "sealed: {stored:?}");
    let events: Value = app.get("/v1/events?type=client.created").await.json().await.unwrap();
    assert!(!events.to_string().contains("1990-05-07"), "nor in the event");

    for (verification, fields) in [
        (json!({ "type": "passport", "value": "X1" }), vec!["verification.type"]),
        (json!({ "type": "pin", "value": "12" }), vec!["verification.value"]),
        (json!({ "type": "date_of_birth", "value": "2990-01-01" }), vec!["verification.value"]),
        (json!({}), vec!["verification.type", "verification.value"]),
    ] {
        let body = json!({ "firstName": "A", "lastName": "B", "verification": verification });
        let refused = expect_error(app.post("/v1/clients", &body).await, 400, "validation_error").await;
        let named: Vec<&str> =
            refused["details"].as_array().unwrap().iter().map(|d| d["field"].as_str().unwrap()).collect();
        assert_eq!(named, fields, "{verification}");
    }
    let body =
        json!({ "firstName": "A", "lastName": "B", "verification": { "type": "pin", "value": "1234", "hint": "x" } });
    expect_error(app.post("/v1/clients", &body).await, 400, "validation_error").await;
    let listed: Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(listed["pagination"]["total"], 1, "refusals made no client");

    let r = app
        .put(&format!("/v1/clients/{id}"), &json!({ "verification": { "type": "national_id", "value": "ab 123-45" } }))
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["verification"]["type"], "national_id");
    let r = app.put(&format!("/v1/clients/{id}"), &json!({ "verification": null })).await;
    assert_eq!(r.json::<Value>().await.unwrap()["verification"], Value::Null, "null removes the question");
    let plain = app.client("Marie", "Jean").await;
    assert_eq!(plain["verification"], Value::Null, "none unless the organization asks");
});

api_test!(a_wallet_memo_is_kept_with_its_wallet_and_copied_to_its_payouts, |app| {
    let field_of = |e: &Value| e["details"][0]["field"].as_str().unwrap_or_default().to_owned();
    let named = |extra: Value| {
        let mut body = json!({ "firstName": "Ana", "lastName": "Pyè" });
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    for (extra, field) in [
        (json!({ "walletMemo": "42" }), "walletMemo"),
        (json!({ "walletAccountId": WALLET, "walletMemo": "abc", "walletMemoType": "id" }), "walletMemo"),
        (json!({ "walletAccountId": WALLET, "walletMemo": "x".repeat(29) }), "walletMemo"),
        (json!({ "walletAccountId": WALLET, "walletMemo": "42", "walletMemoType": "return" }), "walletMemoType"),
        (json!({ "walletAccountId": WALLET, "walletMemoType": "id" }), "walletMemoType"),
    ] {
        let e = expect_error(app.post("/v1/clients", &named(extra.clone())).await, 400, "validation_error").await;
        assert_eq!(field_of(&e), field, "{extra} {e}");
    }
    assert_eq!(app.get("/v1/clients").await.json::<Value>().await.unwrap()["pagination"]["total"], 0, "none stored");

    // Leading zeros are text: an id would drop them.
    let body = named(json!({ "walletAccountId": WALLET, "walletMemo": "00123" }));
    let ana: Value = app.post("/v1/clients", &body).await.json().await.unwrap();
    assert_eq!((&ana["walletMemo"], &ana["walletMemoType"]), (&json!("00123"), &json!("text")), "{ana}");
    let id = ana["id"].as_str().unwrap();
    let path = format!("/v1/clients/{id}");
    let updated: Value = app.put(&path, &json!({ "walletMemo": "1234567" })).await.json().await.unwrap();
    assert_eq!((&updated["walletMemo"], &updated["walletMemoType"]), (&json!("1234567"), &json!("id")));
    let e = expect_error(app.put(&path, &json!({ "walletMemoType": "text" })).await, 400, "validation_error").await;
    assert_eq!(field_of(&e), "walletMemoType");

    // A payout to the client, direct or in a disbursement, carries the memo; one to the bare
    // address does not (the organization's `memo` is what it asked for).
    let payout = |body: Value| async move { app.post("/v1/payouts", &body).await.json::<Value>().await.unwrap() };
    let to_client = payout(json!({ "clientId": id, "assetAmount": 5, "assetCode": "USDC", "memo": "loan 7" })).await;
    assert_eq!((&to_client["walletMemo"], &to_client["walletMemoType"]), (&json!("1234567"), &json!("id")));
    assert_eq!(to_client["memo"], "loan 7");
    let to_address = payout(json!({ "walletAccountId": WALLET, "assetAmount": 5, "assetCode": "USDC" })).await;
    assert_eq!((&to_address["walletMemo"], &to_address["walletMemoType"]), (&Value::Null, &Value::Null));
    let rows = json!([{ "clientId": id, "assetAmount": 5 }, { "walletAccountId": WALLET, "assetAmount": 5 }]);
    let d: Value = app
        .post("/v1/disbursements", &json!({ "name": "June", "assetCode": "USDC", "items": rows }))
        .await
        .json()
        .await
        .unwrap();
    let d_id = d["id"].as_str().unwrap();
    assert_eq!(app.post(&format!("/v1/disbursements/{d_id}/submit"), &json!({})).await.status(), 200);
    let items: Value = app.get(&format!("/v1/disbursements/{d_id}/items")).await.json().await.unwrap();
    let memo_of = |row: usize| {
        let payout = items["data"][row]["payoutId"].as_str().unwrap().to_owned();
        async move { app.get(&format!("/v1/payouts/{payout}")).await.json::<Value>().await.unwrap()["walletMemo"].clone() }
    };
    assert_eq!((memo_of(0).await, memo_of(1).await), (json!("1234567"), Value::Null));

    // A memo names the receiver at one address: a new address without one drops it.
    let other = lajan_ledger::sandbox::derived_account("clients tests: another wallet");
    let moved: Value = app.put(&path, &json!({ "walletAccountId": other })).await.json().await.unwrap();
    assert_eq!((&moved["walletMemo"], &moved["walletMemoType"]), (&Value::Null, &Value::Null), "{moved}");
    let payout_after = app.get(&format!("/v1/payouts/{}", to_client["id"].as_str().unwrap())).await;
    assert_eq!(payout_after.json::<Value>().await.unwrap()["walletMemo"], "1234567", "a payout keeps what it took");
});

api_test!(phone_numbers_are_taken_as_haitians_write_them_and_kept_in_e164, |app| {
    let create = async |phone: &str| {
        app.post("/v1/clients", &json!({ "firstName": "Rose", "lastName": "Pyè", "phoneNumber": phone })).await
    };
    for typed in ["3710 2030", "+509 3710-2030", "509 37 10 20 30", "00509 (37) 10.20.30"] {
        let r = create(typed).await;
        assert_eq!(r.status(), 201, "{typed}");
        assert_eq!(r.json::<Value>().await.unwrap()["phoneNumber"], "+50937102030", "{typed}");
    }
    // A digit short, a digit too many, a range no Haitian operator has: refused, naming the forms.
    for typo in ["3710 203", "3710 20300", "+509 0710 2030", "371O 2030"] {
        let refused = expect_error(create(typo).await, 400, "validation_error").await;
        assert_eq!(refused["details"][0]["field"], "phoneNumber", "{typo}");
        assert!(refused["details"][0]["message"].as_str().unwrap().contains("3710 2030"), "{refused}");
    }
    let rose: Value = create("3710 2031").await.json().await.unwrap();
    let path = format!("/v1/clients/{}", rose["id"].as_str().unwrap());
    let r = app.put(&path, &json!({ "phoneNumber": "(509) 3710-2032" })).await;
    assert_eq!(r.json::<Value>().await.unwrap()["phoneNumber"], "+50937102032");

    // Another country's organization: its national numbers are its own; a Haitian one needs +509.
    let r = app.put("/v1/settings", &json!({ "country": "fr" })).await;
    assert_eq!(r.json::<Value>().await.unwrap()["country"], "FR");
    let r = create("06 12 34 56 78").await;
    assert_eq!(r.json::<Value>().await.unwrap()["phoneNumber"], "+33612345678");
    assert_eq!(create("+509 3710 2033").await.json::<Value>().await.unwrap()["phoneNumber"], "+50937102033");
    expect_error(create("3710 2033").await, 400, "validation_error").await;
});
