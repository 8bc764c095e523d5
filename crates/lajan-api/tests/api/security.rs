//! What an attacker's probe found: a narrow key getting around scopes through
//! `Idempotency-Key`, and a settings key switching approval off.

use lajan_domain::Environment;
use lajan_testkit::{TestApp, WALLET, expect_error};
use serde_json::{Value, json};

async fn post_keyed(
    app: &TestApp,
    api_key: &str,
    path: &str,
    idempotency_key: &str,
    body: &Value,
) -> reqwest::Response {
    app.http
        .post(app.url(path))
        .bearer_auth(api_key)
        .header("idempotency-key", idempotency_key)
        .json(body)
        .send()
        .await
        .unwrap()
}

api_test!(a_key_without_the_scope_never_touches_an_idempotency_key, |app| {
    let reader = app.key(None, Environment::Test, &["events:read"]).await;
    let payout = json!({ "walletAccountId": WALLET, "assetAmount": 5, "assetCode": "USDC" });
    // A 403 is not kept: the caller who has the scope gets its own answer under the key.
    let r = post_keyed(app, &reader, "/v1/payouts", "payroll-2026-11", &payout).await;
    expect_error(r, 403, "forbidden").await;
    let r = post_keyed(app, &app.key, "/v1/payouts", "payroll-2026-11", &payout).await;
    assert_eq!(r.status(), 201, "the real request runs");
    let created: Value = r.json().await.unwrap();

    // A used key is neither replayed to nor reported to a key without the scope.
    let client = json!({ "firstName": "Marie", "lastName": "Jean" });
    assert_eq!(post_keyed(app, &app.key, "/v1/clients", "onboard-marie", &client).await.status(), 201);
    for body in [&client, &json!({ "firstName": "Other", "lastName": "Body" })] {
        let r = post_keyed(app, &reader, "/v1/clients", "onboard-marie", body).await;
        assert!(r.headers().get("idempotent-replayed").is_none());
        expect_error(r, 403, "forbidden").await;
    }
    let id = created["id"].as_str().unwrap();
    let approver = app.key(None, Environment::Test, &["payouts:approve"]).await;
    let approve = format!("/v1/payouts/{id}/approve");
    assert_eq!(post_keyed(app, &approver, &approve, "approve-1", &json!({})).await.status(), 200);
    let payouts_reader = app.key(None, Environment::Test, &["payouts:read"]).await;
    expect_error(post_keyed(app, &payouts_reader, &approve, "approve-1", &json!({})).await, 403, "forbidden").await;
    let replay = post_keyed(app, &approver, &approve, "approve-1", &json!({})).await;
    assert_eq!(replay.headers()["idempotent-replayed"], "true", "a key with the scope still gets the replay");
});

api_test!(the_approval_policy_is_the_approvers_to_change, |app| {
    let settings_key = app.key(None, Environment::Test, &["settings:write", "settings:read"]).await;
    let put = |key: String, body: Value| async move {
        app.http.put(app.url("/v1/settings")).bearer_auth(key).json(&body).send().await.unwrap()
    };
    for body in [
        json!({ "payoutApprovalRequired": false }),
        json!({ "requireDistinctApprover": true }),
        json!({ "timezone": "America/Port-au-Prince", "payoutApprovalRequired": false }),
    ] {
        let e = expect_error(put(settings_key.clone(), body).await, 403, "forbidden").await;
        assert!(e["message"].as_str().unwrap().contains("payouts:approve"), "{e}");
    }
    let now: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!((now["payoutApprovalRequired"].as_bool(), now["timezone"].as_str()), (Some(true), Some("UTC")));
    assert_eq!(
        app.get("/v1/events?type=settings.updated").await.json::<Value>().await.unwrap()["pagination"]["total"],
        0
    );
    // Naming the policy as it stands is no change: a settings key may send the whole document back.
    let same = json!({ "payoutApprovalRequired": true, "requireDistinctApprover": false, "timezone": "America/Port-au-Prince" });
    assert_eq!(put(settings_key.clone(), same).await.status(), 200);

    let (approver, approver_id) =
        app.key_with_id(None, Environment::Test, &["settings:write", "payouts:approve"]).await;
    let r = put(approver.clone(), json!({ "payoutApprovalRequired": false, "defaultCurrency": "USD" })).await;
    assert_eq!(r.status(), 200);
    let asked: Value = r.json().await.unwrap();
    assert_eq!(
        (asked["payoutApprovalRequired"].as_bool(), asked["defaultCurrency"].as_str()),
        (Some(true), Some("USD")),
        "the currency applies, the relaxation waits: {asked}"
    );
    let change = asked["pendingChange"].clone();
    let id = change["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (change["status"].as_str(), change["requestedBy"]["id"].as_str()),
        (Some("pending"), Some(approver_id.as_str()))
    );
    assert_eq!(
        (&change["changes"], &change["previous"]),
        (&json!({ "payoutApprovalRequired": false }), &json!({ "payoutApprovalRequired": true }))
    );
    let requested: Value = app.get("/v1/events?type=settings.change_requested").await.json().await.unwrap();
    assert_eq!(requested["data"][0]["data"]["object"]["id"], id.as_str());
    let confirm = |key: String| {
        let id = id.clone();
        async move { app.post_with(&key, &format!("/v1/settings/changes/{id}/confirm"), &json!({})).await }
    };
    // The asker is not a second person; a key without payouts:approve is nobody's.
    let e = expect_error(confirm(approver.clone()).await, 403, "forbidden").await;
    assert!(e["message"].as_str().unwrap().contains("cannot be its second person"), "{e}");
    expect_error(confirm(settings_key.clone()).await, 403, "forbidden").await;
    expect_error(
        app.post("/v1/settings/changes/stc_00000000000000000000000000000000/confirm", &json!({})).await,
        404,
        "not_found",
    )
    .await;
    assert_eq!(app.get("/v1/settings").await.json::<Value>().await.unwrap()["payoutApprovalRequired"], true);

    let r = confirm(app.key.clone()).await;
    assert_eq!(r.status(), 200);
    let confirmed: Value = r.json().await.unwrap();
    assert_eq!(
        (confirmed["status"].as_str(), confirmed["decidedBy"]["id"].as_str()),
        (Some("confirmed"), Some(app.key_id.as_str()))
    );
    expect_error(confirm(app.key.clone()).await, 400, "settings_change_not_pending").await;
    let now: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!((now["payoutApprovalRequired"].as_bool(), &now["pendingChange"]), (Some(false), &Value::Null));
    let events: Value = app.get("/v1/events?type=settings.updated").await.json().await.unwrap();
    assert_eq!(events["pagination"]["total"], 3, "the timezone, the currency, the confirmed relaxation");
    let latest = &events["data"][0]["data"]["object"];
    assert_eq!(latest["payoutApprovalRequired"], false);
    assert_eq!(latest["secondPerson"], "confirmed");
    assert_eq!(
        (latest["requestedBy"]["id"].as_str(), latest["confirmedBy"]["id"].as_str()),
        (Some(approver_id.as_str()), Some(app.key_id.as_str()))
    );
    assert_eq!(latest["updatedByKey"], app.key_id.as_str());
    assert_eq!(latest["previous"], json!({ "payoutApprovalRequired": true }), "only what changed, as it was");
    assert_eq!(events["data"][1]["data"]["object"]["previous"], json!({ "defaultCurrency": "HTG" }));

    // Tightening applies at once; a relaxation asked again can be cancelled by its asker.
    let r = put(approver.clone(), json!({ "payoutApprovalRequired": true, "requireDistinctApprover": true })).await;
    let tight: Value = r.json().await.unwrap();
    assert_eq!((tight["payoutApprovalRequired"].as_bool(), &tight["pendingChange"]), (Some(true), &Value::Null));
    let asked: Value = put(app.key.clone(), json!({ "requireDistinctApprover": false })).await.json().await.unwrap();
    let again = asked["pendingChange"]["id"].as_str().unwrap().to_owned();
    let r = app.post(&format!("/v1/settings/changes/{again}/cancel"), &json!({})).await;
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "cancelled");
    let now: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!((now["requireDistinctApprover"].as_bool(), &now["pendingChange"]), (Some(true), &Value::Null));
    let cancelled: Value = app.get("/v1/events?type=settings.change_cancelled").await.json().await.unwrap();
    assert_eq!(cancelled["data"][0]["data"]["object"]["id"], again.as_str());
});

api_test!(text_that_hides_itself_is_refused_naming_the_field, |app| {
    let hidden = ["\u{3164}", "Jean\u{E0041}", "Jean\u{2060}", "Je\u{00AD}an", "\u{FFA0}", "Jean\u{206A}", "\u{115F}"];
    for name in hidden {
        let r = app.post("/v1/clients", &json!({ "firstName": name, "lastName": "Pierre" })).await;
        let e = expect_error(r, 400, "validation_error").await;
        assert_eq!(e["details"][0]["field"], "firstName", "{name:?}: {e}");
    }
    let r = app.post("/v1/clients", &json!({ "firstName": "\u{3164}", "lastName": "\u{3164}" })).await;
    assert_eq!(expect_error(r, 400, "validation_error").await["details"].as_array().unwrap().len(), 2);
    let r =
        app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B", "email": "a,evil@evil.example" })).await;
    assert_eq!(expect_error(r, 400, "validation_error").await["details"][0]["field"], "email");
    let memo = json!({ "walletAccountId": WALLET, "assetAmount": 1, "assetCode": "USDC", "memo": "pay\u{2062}me" });
    expect_error(app.post("/v1/payouts", &memo).await, 400, "invalid_memo").await;
    // Joiners stay: scripts and emoji need them.
    let r = app.post("/v1/clients", &json!({ "firstName": "Ann\u{200C}a", "lastName": "👩\u{200D}👩" })).await;
    assert_eq!(r.status(), 201);
    let list: Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(list["pagination"]["total"], 1, "nothing else was stored");
});

api_test!(robots_keep_out_of_the_console_and_the_payment_pages, |app| {
    let r = app.http.get(app.url("/robots.txt")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let text = r.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, ["User-agent: *", "Disallow: /console", "Disallow: /pay"], "{text}");
});

api_test!(answers_travel_gzipped_and_every_page_names_its_icon_and_says_what_it_is, |app| {
    for path in ["/favicon.ico", "/favicon.svg"] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers()["content-type"], "image/svg+xml", "{path}");
        assert!(r.text().await.unwrap().starts_with("<svg"), "{path}");
    }
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let pay = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    for (path, description) in [
        (format!("/pay/{pay}"), "Pay what you owe"),
        (format!("/pay/{pay}?lang=fr"), "Réglez ce que vous devez"),
        (format!("/pay/{pay}?lang=ht"), "Peye sa ou dwe"),
        ("/console/sign-in".to_owned(), "Sign in to the Lajan console"),
    ] {
        let html = app.http.get(app.url(&path)).send().await.unwrap().text().await.unwrap();
        assert!(html.contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#), "{path}");
        assert!(html.contains(&format!(r#"<meta name="description" content="{description}"#)), "{path}: {html}");
    }

    // What the client accepts gzipped comes gzipped, and decodes to what it would have read.
    let plain: Value = app.get("/v1/clients").await.json().await.unwrap();
    let r = app.req(reqwest::Method::GET, "/v1/clients").header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(r.headers()["content-encoding"], "gzip");
    let bytes = r.bytes().await.unwrap();
    let mut json = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut json).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), plain);
    let r = app.http.get(app.url("/console/sign-in")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(r.headers()["content-encoding"], "gzip");
    let bytes = r.bytes().await.unwrap();
    let mut html = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut html).unwrap();
    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.len() > bytes.len(), "{} bytes gzipped from {}", bytes.len(), html.len());
});

api_test!(pages_and_answers_carry_headers_that_keep_them_to_themselves, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let pi = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let page = app.http.get(app.url(&format!("/pay/{pi}"))).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let headers = page.headers().clone();
    let html = page.text().await.unwrap();
    let policy = headers["content-security-policy"].to_str().unwrap().to_owned();
    let nonce = policy.split("'nonce-").nth(1).and_then(|rest| rest.split('\'').next()).unwrap().to_owned();
    assert!(nonce.len() >= 22, "a nonce of at least 128 bits: {policy}");
    for directive in ["default-src 'none'", "img-src data:", "form-action 'self'", "frame-ancestors 'none'"] {
        assert!(policy.contains(directive), "{directive} in {policy}");
    }
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert!(
        html.contains(&format!("<style nonce=\"{nonce}\">")) && html.contains(&format!("<script nonce=\"{nonce}\">"))
    );
    assert_eq!(html.matches("<script").count(), 1, "no script the policy does not let in");
    assert!(!html.contains(" style=\""), "no inline style attribute, which the policy would block");
    for (name, value) in
        [("x-frame-options", "DENY"), ("x-content-type-options", "nosniff"), ("referrer-policy", "no-referrer")]
    {
        assert_eq!(headers[name], value, "{name}");
    }
    let again = app.http.get(app.url(&format!("/pay/{pi}"))).send().await.unwrap();
    assert!(!again.headers()["content-security-policy"].to_str().unwrap().contains(&nonce), "a nonce per answer");
    let missing = app.http.get(app.url("/pay/pi_00000000000000000000000000000000")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["x-frame-options"], "DENY");
    assert!(missing.headers()["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));

    let docs = app.http.get(app.url("/docs/")).send().await.unwrap();
    assert_eq!(docs.status(), 200);
    assert_eq!(docs.headers()["x-frame-options"], "DENY");
    assert_eq!(docs.headers()["content-security-policy"], "frame-ancestors 'none'");
    for path in ["/v1/clients", "/v1/mfi/settings", "/v1/clients/cli_nope"] {
        let r = app.get(path).await;
        assert_eq!(r.headers()["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(r.headers()["cache-control"], "no-store", "{path}: tenant data is never cached");
    }
    let unauthenticated = app.http.get(app.url("/v1/clients")).send().await.unwrap();
    assert_eq!(unauthenticated.status(), 401);
    assert_eq!(unauthenticated.headers()["cache-control"], "no-store");
    assert_eq!(app.get("/v1/nope").await.headers()["x-content-type-options"], "nosniff", "every answer");
});

fn guarded() -> lajan_testkit::TestConfig {
    let mut config = lajan_testkit::test_config();
    config.api.pay_miss_limit = 3;
    config
}

api_test!(payment_pages_are_unguessable_and_guessing_is_throttled, guarded(), |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let page_url = invoice["paymentLink"]["url"].as_str().unwrap().to_owned();
    let pi = page_url.rsplit('/').next().unwrap().to_owned();
    let invoice_hex = &invoice["id"].as_str().unwrap()["inv_".len()..];
    assert_eq!(pi.len(), "pi_".len() + 32, "{pi}");
    assert_ne!(&pi[3..15], &invoice_hex[..12], "the page id does not carry the invoice's time: {pi} {invoice_hex}");
    let open = |id: String| async move { app.http.get(app.url(&format!("/pay/{id}"))).send().await.unwrap() };
    assert_eq!(open(pi.clone()).await.status(), 200);
    for guess in 0..3 {
        let r = open(format!("pi_{guess:032x}")).await;
        assert_eq!(r.status(), 404, "guess {guess} is a plain miss");
    }
    let r = open("pi_not_even_plausible".into()).await;
    assert_eq!(r.status(), 429, "the fourth miss in a minute");
    let retry_after: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    assert_eq!(open(pi.clone()).await.status(), 429, "a real page too, so a hit looks like a miss");
    let simulate = app.http.post(app.url(&format!("/pay/{pi}/simulate"))).send().await.unwrap();
    assert_eq!(simulate.status(), 429);
    // The API is not the page: keys keep working.
    assert_eq!(app.get(&format!("/v1/invoices/{}", invoice["id"].as_str().unwrap())).await.status(), 200);
});

fn guarded_behind_a_proxy() -> lajan_testkit::TestConfig {
    let mut config = guarded();
    config.api.trusted_proxies = lajan_api::client_address::parse_trusted_proxies("127.0.0.0/8, ::1").unwrap();
    config
}

api_test!(behind_a_trusted_proxy_each_client_has_its_own_guesses, guarded_behind_a_proxy(), |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let pi = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let open = |id: String, from: &'static str| async move {
        app.http.get(app.url(&format!("/pay/{id}"))).header("x-forwarded-for", from).send().await.unwrap()
    };
    for guess in 0..4 {
        open(format!("pi_{guess:032x}"), "198.51.100.7").await;
    }
    assert_eq!(open(pi.clone(), "198.51.100.7").await.status(), 429, "the guesser");
    assert_eq!(open(pi.clone(), "198.51.100.8").await.status(), 200, "another client behind the same proxy");
});

api_test!(concurrent_payments_of_one_intent_make_one_payment_and_head_changes_nothing, |app| {
    let link: Value =
        app.post("/v1/payment-links", &json!({ "amount": 5, "description": "Fee" })).await.json().await.unwrap();
    let pi = link["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let clicks = (0..6).map(|_| app.http.post(app.url(&format!("/pay/{pi}/simulate"))).send());
    for r in futures::future::join_all(clicks).await {
        assert_eq!(r.unwrap().status(), 200, "each click lands back on the page");
    }
    let after: Value =
        app.get(&format!("/v1/payment-links/{}", link["id"].as_str().unwrap())).await.json().await.unwrap();
    assert_eq!((after["status"].as_str(), after["amountPaid"].as_str()), (Some("paid"), Some("5.00")), "one payment");

    let second: Value =
        app.post("/v1/payment-links", &json!({ "amount": 5, "description": "Fee" })).await.json().await.unwrap();
    let pi = second["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let path = format!("/v1/sandbox/payment-intents/{pi}/pay");
    let empty = json!({});
    let posts = (0..6).map(|_| app.send_json(reqwest::Method::POST, &path, &empty));
    let statuses: Vec<u16> = futures::future::join_all(posts).await.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s < 300).count(), 1, "{statuses:?}");
    assert!(statuses.iter().all(|s| *s < 300 || *s == 400), "the others are cannot_pay: {statuses:?}");
    let after: Value =
        app.get(&format!("/v1/payment-links/{}", second["id"].as_str().unwrap())).await.json().await.unwrap();
    assert_eq!(after["amountPaid"], "5.00");

    // A HEAD of a sent invoice's page (a link preview) does not mark it viewed; a GET does.
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let id = invoice["id"].as_str().unwrap();
    app.req(reqwest::Method::POST, &format!("/v1/invoices/{id}/send")).send().await.unwrap();
    let page = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let head = app.http.head(app.url(&format!("/pay/{page}"))).send().await.unwrap();
    assert_eq!(head.status(), 200);
    let status = |v: Value| v["status"].as_str().unwrap().to_owned();
    assert_eq!(status(app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap()), "sent");
    app.http.get(app.url(&format!("/pay/{page}"))).send().await.unwrap();
    assert_eq!(status(app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap()), "viewed");
});
