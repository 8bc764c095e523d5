//! Receivers in the console: the clients list shows each one's invitation to register a wallet,
//! and a maker sends it again (not twice in ten minutes) or unlocks one locked by wrong answers;
//! a viewer can do neither.

use crate::browser::{Browser, location, user};
use lajan_domain::Timestamp;
use lajan_domain::user::Role;
use lajan_testkit::TestApp;
use serde_json::{Value, json};

async fn ok(r: reqwest::Response) -> Value {
    let status = r.status();
    let body: Value = r.json().await.unwrap();
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// The last sandbox message's text.
async fn last_text(app: &TestApp) -> String {
    let all = ok(app.get("/v1/sandbox/messages?limit=1").await).await;
    all["data"][0]["text"].as_str().unwrap().to_owned()
}

/// A phone-only client with a PIN and an approved payout waiting, invited: its id and link token.
async fn invited(app: &TestApp) -> (String, String) {
    let body = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001",
                       "verification": { "type": "pin", "value": "4321" } });
    let id = ok(app.post("/v1/clients", &body).await).await["id"].as_str().unwrap().to_owned();
    let body = json!({ "clientId": id, "assetAmount": 12, "assetCode": "USDC" });
    let payout = ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/payouts/{payout}/approve"), &json!({})).await).await;
    assert_eq!(app.workers().send_invitations_once(Timestamp::now()).await.unwrap(), 1);
    let token = last_text(app).await.split("/r/").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    (id, token)
}

async fn on_page(app: &TestApp, token: &str, step: &str, form: &[(&str, &str)]) -> u16 {
    let r = app.http.post(app.url(&format!("/r/{token}/{step}"))).form(form).send().await.unwrap();
    r.status().as_u16()
}

api_test!(a_maker_resends_and_unlocks_invitations_from_the_clients_list, |app| {
    user(app, None, "maker@example.ht", Role::Maker).await;
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let (id, token) = invited(app).await;
    let invite = format!("/console/clients/{id}/invite");

    let viewer = Browser::signed_in(app, "viewer@example.ht").await;
    let page = viewer.get("/console/clients").await.text().await.unwrap();
    assert!(page.contains("Invited") && !page.contains(&invite), "a viewer sees the state, no button: {page}");
    let csrf = viewer.csrf().await;
    assert_eq!(viewer.post(&invite, &[("csrf", &csrf)]).await.status(), 403);

    let maker = Browser::signed_in(app, "maker@example.ht").await;
    let page = maker.get("/console/clients").await.text().await.unwrap();
    assert!(page.contains(&format!("action=\"{invite}\"")) && page.contains("Resend invitation"), "{page}");
    let csrf = maker.csrf().await;
    let r = maker.post(&invite, &[("csrf", &csrf)]).await;
    assert_eq!(r.status(), 429, "sent by the schedule a moment ago");
    assert!(r.text().await.unwrap().contains("Try again in 10 min"));
    assert_eq!(ok(app.get(&format!("/v1/clients/{id}/invitation")).await).await["sends"], 1, "nothing more sent");

    // Five wrong answers on the page lock it; the maker unlocks it from the list.
    assert_eq!(on_page(app, &token, "code", &[]).await, 200);
    let code: String = last_text(app).await.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).unwrap().into();
    assert_eq!(on_page(app, &token, "confirm", &[("code", &code)]).await, 200);
    for _ in 0..5 {
        on_page(app, &token, "verify", &[("answer", "1111")]).await;
    }
    let page = maker.get("/console/clients").await.text().await.unwrap();
    let unlock = format!("/console/clients/{id}/unlock");
    assert!(page.contains("Locked") && page.contains(&format!("action=\"{unlock}\"")), "{page}");
    let r = maker.post(&unlock, &[("csrf", &csrf)]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/clients".to_owned()));
    assert_eq!(ok(app.get(&format!("/v1/clients/{id}/invitation")).await).await["status"], "invited");
    let again = maker.post(&unlock, &[("csrf", &csrf)]).await;
    assert_eq!(again.status(), 409);
    assert!(again.text().await.unwrap().contains("This invitation is not locked"));
    assert_eq!(on_page(app, &token, "verify", &[("answer", "4321")]).await, 200, "the receiver goes on");
});

api_test!(a_payout_page_shows_the_memo_the_receiving_wallet_needs, |app| {
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let body = json!({ "firstName": "Ana", "lastName": "Pyè", "walletAccountId": lajan_testkit::WALLET,
                       "walletMemo": "1234567" });
    let id = ok(app.post("/v1/clients", &body).await).await["id"].as_str().unwrap().to_owned();
    let body = json!({ "clientId": id, "assetAmount": 12, "assetCode": "USDC", "memo": "loan 7" });
    let payout = ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned();
    let viewer = Browser::signed_in(app, "viewer@example.ht").await;
    let page = viewer.get(&format!("/console/payouts/{payout}")).await.text().await.unwrap();
    assert!(page.contains("Wallet memo (sent on the network instead of the memo)"), "{page}");
    assert!(page.contains("<code>1234567</code>") && page.contains("loan 7"), "{page}");
});

api_test!(a_held_payout_says_why_in_the_clerk_s_language, |app| {
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    // The sandbox destination that holds no trustline (docs/payouts.md).
    let untrusting = "GCSUCUJIXTHLLAF5N4OI5ETKREOSB3HD4HWB3OUN5E66DYOHLPTITCYO";
    let body = json!({ "walletAccountId": untrusting, "assetAmount": 12, "assetCode": "USDC" });
    let payout = ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/payouts/{payout}/approve"), &json!({})).await).await;
    app.drain_payouts().await;
    let viewer = Browser::signed_in(app, "viewer@example.ht").await;
    for (lang, words) in
        [("en", "does not accept USDC yet"), ("fr", "n&#x27;accepte pas encore USDC"), ("ht", "pa aksepte USDC ankò")]
    {
        let csrf = viewer.csrf().await;
        let r = viewer.post("/console/language", &[("csrf", &csrf), ("language", lang), ("back", "/console")]).await;
        assert_eq!(r.status(), 303);
        let page = viewer.get(&format!("/console/payouts/{payout}")).await.text().await.unwrap();
        assert!(page.contains("id=\"hold\"") && page.contains(words), "{lang}: {page}");
    }
});

api_test!(a_batch_page_shows_the_wallet_a_receiver_registered_after_the_draft, |app| {
    let body = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" });
    let ana = ok(app.post("/v1/clients", &body).await).await["id"].as_str().unwrap().to_owned();
    let body = json!({ "name": "June", "assetCode": "USDC", "items": [{ "clientId": ana, "assetAmount": 7 }] });
    let dsb = ok(app.post("/v1/disbursements", &body).await).await["id"].as_str().unwrap().to_owned();
    for verb in ["submit", "approve"] {
        ok(app.post(&format!("/v1/disbursements/{dsb}/{verb}"), &json!({})).await).await;
    }
    app.drain_payouts().await;
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let browser = Browser::signed_in(app, "viewer@example.ht").await;
    let page = browser.get(&format!("/console/disbursements/{dsb}")).await.text().await.unwrap();
    assert!(page.contains("none yet: the receiver has not registered one"), "{page}");

    ok(app.put(&format!("/v1/clients/{ana}"), &json!({ "walletAccountId": lajan_testkit::WALLET })).await).await;
    app.drain_payouts().await;
    let page = browser.get(&format!("/console/disbursements/{dsb}")).await.text().await.unwrap();
    assert!(page.contains(&format!("<code>{}…</code>", &lajan_testkit::WALLET[..8])), "the wallet paid: {page}");
    assert!(!page.contains("none yet"), "{page}");
});
