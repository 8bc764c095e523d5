//! Four eyes means two people: a relaxation of the approval policy is confirmed only by someone
//! who had approval rights before it was asked for and was not made by its asker for the
//! occasion (a key minted after the request, or by the asker; a user the asker just made).

use lajan_domain::Environment;
use lajan_domain::scope::Scope;
use lajan_testkit::{TestApp, expect_error};
use serde_json::{Value, json};

/// A sandbox key with `scopes`, recorded in the access trail as made by `by`.
async fn key_made_by(app: &TestApp, by: &lajan_domain::Actor, scopes: Vec<Scope>) -> String {
    let (secret, key) = lajan_api::keys::issue_key(&app.org.id, Environment::Test, scopes, "minted");
    app.store().create_api_key(&key, by).await.unwrap();
    secret
}

api_test!(a_relaxation_is_confirmed_only_by_a_second_person_who_was_there_before, |app| {
    let (asker, asker_id) = app.key_with_id(None, Environment::Test, &["*"]).await;
    let colleague = app.key(None, Environment::Test, &["payouts:approve"]).await;
    let asked: Value = app
        .send_json_with(&asker, reqwest::Method::PUT, "/v1/settings", &json!({ "payoutApprovalRequired": false }))
        .await
        .json()
        .await
        .unwrap();
    let id = asked["pendingChange"]["id"].as_str().expect("waits for a second person").to_owned();
    let confirm = format!("/v1/settings/changes/{id}/confirm");

    // A key the asker mints now, or anyone's key minted after the request, is not a second person.
    let minted = key_made_by(app, &lajan_domain::Actor::ApiKey(asker_id.clone()), vec![Scope::ApprovePayouts]).await;
    let e = expect_error(app.post_with(&minted, &confirm, &json!({})).await, 403, "forbidden").await;
    assert!(e["message"].as_str().unwrap().contains("someone else"), "{e}");
    let later = app.key(None, Environment::Test, &["payouts:approve"]).await;
    expect_error(app.post_with(&later, &confirm, &json!({})).await, 403, "forbidden").await;
    let settings: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(settings["payoutApprovalRequired"], true, "still waiting");

    // A colleague whose key was there before confirms.
    let r = app.post_with(&colleague, &confirm, &json!({})).await;
    assert_eq!(r.status(), 200);
    let settings: Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(settings["payoutApprovalRequired"], false);
});
