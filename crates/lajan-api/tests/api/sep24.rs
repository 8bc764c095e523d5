//! SEP-24 for wallets: what Lajan offers (`/sep24/info`), a deposit started with a SEP-10 token
//! (JSON, form or multipart, as wallets send it) answering the interactive page's link, and the
//! wallet's own deposits read back in the SEP's transaction shape; every refusal in the SEP's
//! shapes, and one account never sees another's.

use crate::sep10::wallet_token;
use lajan_testkit::TestApp;
use serde_json::{Value, json};

async fn call(r: reqwest::RequestBuilder) -> (u16, Value) {
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub(crate) async fn start(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    let url = app.url("/sep24/transactions/deposit/interactive");
    call(app.http.post(url).bearer_auth(token).json(&body)).await
}

async fn read(app: &TestApp, token: &str, path: &str) -> (u16, Value) {
    call(app.http.get(app.url(path)).bearer_auth(token)).await
}

api_test!(info_offers_a_deposit_of_each_asset_paid_out_and_no_withdrawal, |app| {
    let (status, info) = call(app.http.get(app.url("/sep24/info"))).await;
    assert_eq!(status, 200);
    assert_eq!(info["deposit"]["USDC"]["enabled"], true, "{info}");
    assert_eq!(info["deposit"]["HTG"]["authentication_required"], true, "{info}");
    assert_eq!((&info["withdraw"], &info["fee"]["enabled"]), (&json!({}), &json!(false)));
    assert_eq!(info["features"]["account_creation"], false);
});

api_test!(a_deposit_starts_with_a_token_and_reads_back_as_the_wallet_s_own, |app| {
    let (account, token) = wallet_token(app, 31, None).await;
    let (status, started) = start(app, &token, json!({ "asset_code": "USDC", "account": account, "lang": "fr" })).await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["type"], "interactive_customer_info_needed");
    let url = started["url"].as_str().unwrap();
    assert!(url.starts_with("https://pay.lajan.test/wallet-registration/") && url.len() > 60, "{url}");
    let id = started["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("wdp_"), "{id}");

    let (status, found) = read(app, &token, &format!("/sep24/transaction?id={id}")).await;
    assert_eq!(status, 200, "{found}");
    let t = &found["transaction"];
    assert_eq!(
        (t["id"].as_str(), t["kind"].as_str(), t["status"].as_str()),
        (Some(id.as_str()), Some("deposit"), Some("incomplete"))
    );
    assert_eq!((t["to"].as_str(), t["refunded"].as_bool()), (Some(account.as_str()), Some(false)));
    assert!(t["message"].as_str().is_some_and(|m| m.contains("inscription")), "in the wallet's language: {t}");
    assert!(t["stellar_transaction_id"].is_null() && t["amount_in"].is_null(), "nothing paid yet: {t}");

    // A form and a multipart form start deposits too; the list is newest first.
    let form = app
        .http
        .post(app.url("/sep24/transactions/deposit/interactive"))
        .bearer_auth(&token)
        .form(&[("asset_code", "HTG")]);
    let (status, second) = call(form).await;
    assert_eq!(status, 200, "{second}");
    let boundary = "lajanboundary";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"asset_code\"\r\n\r\nUSDC\r\n--{boundary}--\r\n"
    );
    let multipart = app
        .http
        .post(app.url("/sep24/transactions/deposit/interactive"))
        .bearer_auth(&token)
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body);
    let (status, third) = call(multipart).await;
    assert_eq!(status, 200, "{third}");
    let ids = |list: &Value| -> Vec<String> {
        list["transactions"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap().to_owned()).collect()
    };
    let (second, third) = (second["id"].as_str().unwrap().to_owned(), third["id"].as_str().unwrap().to_owned());
    let (_, all) = read(app, &token, "/sep24/transactions").await;
    assert_eq!(ids(&all), [third.as_str(), second.as_str(), id.as_str()]);
    let (_, usdc) = read(app, &token, "/sep24/transactions?asset_code=USDC&limit=1").await;
    assert_eq!(ids(&usdc), [third.as_str()]);
    let (_, older) = read(app, &token, &format!("/sep24/transactions?paging_id={second}")).await;
    assert_eq!(ids(&older), [id.as_str()]);
    let (_, withdrawals) = read(app, &token, "/sep24/transactions?kind=withdrawal").await;
    assert_eq!(ids(&withdrawals), Vec::<String>::new());

    // Another account, or another user of the same account (a memo), sees none of them.
    let (_, stranger) = wallet_token(app, 32, None).await;
    let (status, body) = read(app, &stranger, &format!("/sep24/transaction?id={id}")).await;
    assert_eq!((status, body["error"].is_string()), (404, true), "{body}");
    let (_, shared) = wallet_token(app, 31, Some(7)).await;
    assert_eq!(ids(&read(app, &shared, "/sep24/transactions").await.1), Vec::<String>::new());
});

api_test!(every_bad_request_is_refused_in_the_sep_s_shape, |app| {
    let (_, token) = wallet_token(app, 31, None).await;
    let (other, _) = lajan_ledger::testing::keypair(33);
    for (body, words) in [
        (json!({}), "asset_code is required"),
        (json!({ "asset_code": "BTC" }), "not an asset"),
        (json!({ "asset_code": "USDC", "account": other }), "not the authenticated account"),
    ] {
        let (status, refused) = start(app, &token, body).await;
        assert_eq!((status, refused["error"].as_str().is_some_and(|e| e.contains(words))), (400, true), "{refused}");
    }
    let url = app.url("/sep24/transactions/deposit/interactive");
    for r in [
        app.http.post(&url).json(&json!({ "asset_code": "USDC" })),
        app.http.post(&url).bearer_auth("not-a-token").json(&json!({ "asset_code": "USDC" })),
        app.http.get(app.url("/sep24/transactions")),
    ] {
        let (status, refused) = call(r).await;
        assert_eq!((status, refused), (403, json!({ "type": "authentication_required" })));
    }
    let withdraw = app.http.post(app.url("/sep24/transactions/withdraw/interactive")).bearer_auth(&token);
    let (status, refused) = call(withdraw.json(&json!({ "asset_code": "USDC" }))).await;
    assert_eq!((status, refused["error"].as_str().is_some_and(|e| e.contains("Withdrawals"))), (400, true));
    for (path, words) in [
        ("/sep24/transaction", "id is required"),
        ("/sep24/transaction?stellar_transaction_id=ab", "not supported"),
        ("/sep24/transactions?limit=0", "limit"),
        ("/sep24/transactions?no_older_than=yesterday", "no_older_than"),
    ] {
        let (status, refused) = read(app, &token, path).await;
        assert_eq!(
            (status, refused["error"].as_str().is_some_and(|e| e.contains(words))),
            (400, true),
            "{path}: {refused}"
        );
    }
});

/// The step a page shows, and the page.
pub(crate) async fn page_step(r: reqwest::Response, status: u16) -> (String, String) {
    let got = r.status().as_u16();
    let html = r.text().await.unwrap();
    assert_eq!(got, status, "{html}");
    let step = html.split("data-step=\"").nth(1).map(|s| s.split('"').next().unwrap().to_owned()).unwrap_or_default();
    (step, html)
}

pub(crate) async fn post_step(app: &TestApp, page: &str, step: &str, form: &[(&str, &str)]) -> reqwest::Response {
    app.http.post(app.url(&format!("{page}/{step}"))).form(form).send().await.unwrap()
}

/// A deposit started for the wallet of `token`: its id and its page's path.
pub(crate) async fn interactive(app: &TestApp, token: &str) -> (String, String) {
    let (status, started) = start(app, token, json!({ "asset_code": "USDC", "lang": "en" })).await;
    assert_eq!(status, 200, "{started}");
    let path = started["url"].as_str().unwrap().strip_prefix("https://pay.lajan.test").unwrap().to_owned();
    (started["id"].as_str().unwrap().to_owned(), path)
}

api_test!(a_wallet_registers_its_account_on_the_interactive_page_and_follows_the_payout_until_paid, |app| {
    let rose = json!({ "firstName": "Rose", "lastName": "Pyè", "phoneNumber": "+50937000011",
                       "verification": { "type": "pin", "value": "4321" } });
    let (client_id, _) = crate::registration::invited(app, rose).await;
    let (account, token) = wallet_token(app, 34, None).await;
    let (id, page) = interactive(app, &token).await;
    let (step, _) = page_step(app.http.get(app.url(&page)).send().await.unwrap(), 200).await;
    assert_eq!(step, "contact");

    // The number as a person types it; the page then asks for the code without naming anyone.
    let (step, html) = page_step(post_step(app, &page, "contact", &[("contact", "3700 0011")]).await, 200).await;
    assert_eq!(step, "confirm_contact");
    assert!(html.contains("If a payment is waiting") && !html.contains("Acme"), "{html}");
    let code = crate::registration::code_in(&crate::registration::last_text(app, &client_id).await);
    let (step, html) = page_step(post_step(app, &page, "confirm", &[("code", &code)]).await, 200).await;
    assert_eq!(step, "verify", "{html}");
    assert!(html.contains("Acme"), "confirmed: the organization is named");
    let (step, html) = page_step(post_step(app, &page, "verify", &[("answer", "4321")]).await, 200).await;
    assert_eq!(step, "registered", "the wallet's account, no address typed: {html}");
    assert!(html.contains(&account) && html.contains("id=\"return\""), "{html}");
    let client: Value = app.get(&format!("/v1/clients/{client_id}")).await.json().await.unwrap();
    assert_eq!(client["walletAccountId"], account.as_str());

    let (_, found) = read(app, &token, &format!("/sep24/transaction?id={id}")).await;
    let t = &found["transaction"];
    assert_eq!((t["status"].as_str(), t["amount_in"].as_str()), (Some("pending_anchor"), Some("25.00")), "{t}");
    let payout_id = t["external_transaction_id"].as_str().unwrap().to_owned();
    app.drain_payouts().await;
    let (_, found) = read(app, &token, &format!("/sep24/transaction?id={id}")).await;
    let t = &found["transaction"];
    let payout: Value = app.get(&format!("/v1/payouts/{payout_id}")).await.json().await.unwrap();
    assert_eq!(t["status"], "completed", "{t}");
    assert_eq!(t["stellar_transaction_id"], payout["attempts"][0]["txHash"]);
    assert!(t["completed_at"].is_string() && t["message"].is_null(), "{t}");

    // The page stays registered; wallets find all of it from the toml.
    let (step, _) = page_step(app.http.get(app.url(&page)).send().await.unwrap(), 200).await;
    assert_eq!(step, "registered");
    let toml: toml::Value =
        toml::from_str(&app.http.get(app.url("/.well-known/stellar.toml")).send().await.unwrap().text().await.unwrap())
            .unwrap();
    assert_eq!(toml["TRANSFER_SERVER_SEP0024"].as_str(), Some("https://pay.lajan.test/sep24"));
});

api_test!(a_contact_without_an_invitation_gets_the_same_page_and_no_code_works, |app| {
    let (_, token) = wallet_token(app, 35, None).await;
    let (id, page) = interactive(app, &token).await;
    let (step, html) = page_step(post_step(app, &page, "contact", &[("contact", "+50937009999")]).await, 200).await;
    assert_eq!(step, "confirm_contact");
    assert!(html.contains("If a payment is waiting"), "{html}");
    let (step, html) = page_step(post_step(app, &page, "confirm", &[("code", "123456")]).await, 400).await;
    assert_eq!(step, "confirm_contact");
    assert!(html.contains("id=\"refusal\""), "{html}");
    let (_, found) = read(app, &token, &format!("/sep24/transaction?id={id}")).await;
    assert_eq!(found["transaction"]["status"], "incomplete");

    // A page takes five contacts, then sends the receiver back to the wallet.
    let (_, page) = interactive(app, &token).await;
    let (_, html) = page_step(post_step(app, &page, "contact", &[("contact", "not a number")]).await, 400).await;
    assert!(html.contains("+509 3700 0000"), "{html}");
    // A contact that is not one is refused without counting.
    for _ in 0..5 {
        post_step(app, &page, "contact", &[("contact", "+50937009999")]).await;
    }
    let (_, html) = page_step(post_step(app, &page, "contact", &[("contact", "+50937009998")]).await, 400).await;
    assert!(html.contains("Too many numbers"), "{html}");
    let r = app.http.get(app.url("/wallet-registration/AAAAAAAAAAAAAAAAAAAAAA")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 404, "a link Lajan never made");
});
