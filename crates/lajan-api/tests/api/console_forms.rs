//! The console's create forms: a maker creates a payout through the API's service method (the
//! event names the user); posting the same form twice, even at once, creates one; bad fields are
//! shown and create nothing; other roles, a missing CSRF value or a missing form key are refused.

use crate::common::{TestApp, WALLET};
use crate::console_browser::{Browser, location, user};
use lajan_domain::user::Role;
use serde_json::{Value, json};

/// The form's one-time key, from its page.
fn once_of(page: &str) -> String {
    let marker = "name=\"once\" value=\"";
    let start = page.find(marker).unwrap_or_else(|| panic!("no once field on {page}")) + marker.len();
    page[start..].split('"').next().unwrap().to_owned()
}

async fn payouts(app: &TestApp) -> Vec<Value> {
    let list: Value = app.get("/v1/payouts?limit=100").await.json().await.unwrap();
    list["data"].as_array().unwrap().clone()
}

api_test!(a_maker_creates_a_payout_once_however_often_the_form_is_posted, |app| {
    let maker = user(app, None, "maker@example.ht", Role::Maker).await;
    let browser = Browser::signed_in(app, "maker@example.ht").await;
    let list = browser.get("/console/payouts").await.text().await.unwrap();
    assert!(list.contains("href=\"/console/payouts/new\""), "makers see the way in");
    let r = browser.get("/console/payouts/new").await;
    assert_eq!(r.status(), 200);
    let once = once_of(&r.text().await.unwrap());
    let csrf = browser.csrf().await;

    let bad = [("csrf", csrf.as_str()), ("once", &once), ("wallet", WALLET), ("amount", "12.345"), ("asset", "USDC")];
    let r = browser.post("/console/payouts", &bad).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap();
    assert!(page.contains("assetAmount") && page.contains("12.345"), "what was wrong, and the values kept: {page}");
    assert!(payouts(app).await.is_empty(), "nothing created");

    let fields = [
        ("csrf", csrf.as_str()),
        ("once", &once),
        ("wallet", WALLET),
        ("amount", "12.50"),
        ("asset", "USDC"),
        ("memo", "Loan 7"),
    ];
    let r = browser.post("/console/payouts", &fields).await;
    assert_eq!(r.status(), 303);
    let made = location(&r);
    let id = made.strip_prefix("/console/payouts/").expect("to the payout's page").to_owned();
    let payout: Value = app.get(&format!("/v1/payouts/{id}")).await.json().await.unwrap();
    assert_eq!((payout["assetAmount"].as_str(), payout["approvalStatus"].as_str()), (Some("12.50"), Some("pending")));
    assert_eq!(payout["memo"], "Loan 7");
    let events: Value = app.get("/v1/events?type=payout.created").await.json().await.unwrap();
    assert_eq!(events["data"][0]["actor"], json!({ "type": "user", "id": maker.id }));

    // The same form again (a double click), and twice at once: the payout it made, no other.
    let again = browser.post("/console/payouts", &fields).await;
    assert_eq!((again.status().as_u16(), location(&again)), (303, made.clone()));
    let second = once_of(&browser.get("/console/payouts/new").await.text().await.unwrap());
    assert_ne!(second, once, "each form its own key");
    let fields_2 = [("csrf", csrf.as_str()), ("once", &second), ("wallet", WALLET), ("amount", "3"), ("asset", "XLM")];
    let (a, b) = tokio::join!(browser.post("/console/payouts", &fields_2), browser.post("/console/payouts", &fields_2));
    assert_eq!((a.status(), b.status()), (reqwest::StatusCode::SEE_OTHER, reqwest::StatusCode::SEE_OTHER));
    assert_eq!(location(&a), location(&b), "both posts land on the one payout");
    assert_eq!(payouts(app).await.len(), 2);

    // A key from no form, or another form's key: nothing is created.
    let stale = [("csrf", csrf.as_str()), ("wallet", WALLET), ("amount", "1"), ("asset", "USDC")];
    let r = browser.post("/console/payouts", &stale).await;
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("This form is out of date"));
    let forged = [
        ("csrf", csrf.as_str()),
        ("once", &"0".repeat(64)),
        ("client", "cli_nope"),
        ("amount", "1"),
        ("asset", "USDC"),
    ];
    assert_eq!(browser.post("/console/payouts", &forged).await.status(), 400, "an unknown client");
    assert_eq!(payouts(app).await.len(), 2);
});

api_test!(creating_a_payout_needs_the_maker_role_and_the_csrf_value, |app| {
    for role in [Role::Viewer, Role::Approver] {
        let email = format!("{role}@example.ht");
        user(app, None, &email, role).await;
        let browser = Browser::signed_in(app, &email).await;
        assert_eq!(browser.get("/console/payouts/new").await.status(), 403, "{role}");
        assert!(!browser.get("/console/payouts").await.text().await.unwrap().contains("/console/payouts/new"));
        let csrf = browser.csrf().await;
        let once = "a".repeat(64);
        let fields = [("csrf", csrf.as_str()), ("once", &once), ("wallet", WALLET), ("amount", "1"), ("asset", "USDC")];
        assert_eq!(browser.post("/console/payouts", &fields).await.status(), 403, "{role}");
    }
    user(app, None, "maker@example.ht", Role::Maker).await;
    let maker = Browser::signed_in(app, "maker@example.ht").await;
    let once = once_of(&maker.get("/console/payouts/new").await.text().await.unwrap());
    let fields = [("csrf", "forged"), ("once", &once), ("wallet", WALLET), ("amount", "1"), ("asset", "USDC")];
    assert_eq!(maker.post("/console/payouts", &fields).await.status(), 403, "without the session's csrf value");
    assert!(payouts(app).await.is_empty());
});
