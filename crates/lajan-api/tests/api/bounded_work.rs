//! What anonymous and unauthenticated callers can make Lajan do is bounded: SEP-24 deposits per
//! account and per client address (one SEP-10 token once filled the deployment-wide cap and
//! blocked every registration for half an hour).

use crate::sep10::wallet_token;
use crate::sep24::start;
use lajan_domain::wallet_deposit::OPEN_DEPOSITS_PER_ACCOUNT;
use lajan_testkit::TestApp;
use serde_json::json;

async fn start_usdc(app: &TestApp, token: &str) -> (u16, serde_json::Value) {
    start(app, token, json!({ "asset_code": "USDC" })).await
}

api_test!(one_account_holds_a_bounded_number_of_open_deposits, |app| {
    let (_, token) = wallet_token(app, 61, None).await;
    for n in 0..OPEN_DEPOSITS_PER_ACCOUNT {
        let (status, body) = start_usdc(app, &token).await;
        assert_eq!(status, 200, "deposit {n}: {body}");
    }
    let url = app.url("/sep24/transactions/deposit/interactive");
    let r = app.http.post(url).bearer_auth(&token).json(&json!({ "asset_code": "USDC" })).send().await.unwrap();
    assert_eq!(r.status(), 429, "the account's twenty-first open deposit");
    assert!(r.headers().contains_key("retry-after"));
    let body: serde_json::Value = r.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("20 registrations in progress"), "{body}");
    // With a memo, the same account is the same account.
    let (_, with_memo) = wallet_token(app, 61, Some(7)).await;
    assert_eq!(start_usdc(app, &with_memo).await.0, 429);
    // Another account is not held back.
    let (_, other) = wallet_token(app, 62, None).await;
    assert_eq!(start_usdc(app, &other).await.0, 200);
});

fn three_deposits_an_hour() -> lajan_testkit::TestConfig {
    let mut config = lajan_testkit::test_config();
    config.api.deposit_limit = 3;
    config
}

api_test!(one_address_starts_a_bounded_number_of_deposits_whatever_its_accounts, three_deposits_an_hour(), |app| {
    for byte in 63..66 {
        let (_, token) = wallet_token(app, byte, None).await;
        assert_eq!(start_usdc(app, &token).await.0, 200, "account {byte}");
    }
    // A fresh account costs nothing; the address is what is counted.
    let (_, fresh) = wallet_token(app, 66, None).await;
    let url = app.url("/sep24/transactions/deposit/interactive");
    let r = app.http.post(url).bearer_auth(&fresh).json(&json!({ "asset_code": "USDC" })).send().await.unwrap();
    assert_eq!(r.status(), 429);
    let wait: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=3600).contains(&wait), "{wait}");
    // Reading what was started is not a start.
    let r = app.http.get(app.url("/sep24/transactions?asset_code=USDC")).bearer_auth(&fresh).send().await.unwrap();
    assert_eq!(r.status(), 200);
});
