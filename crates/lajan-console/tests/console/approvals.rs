//! Approvals in the console: the page lists what waits with the balance check, approvers
//! approve and reject payouts and disbursements through the API's service methods (the event
//! names the user), the distinct-approver rule holds for users, and every other role, a missing
//! CSRF value and another organization's id change nothing.

use crate::browser::{Browser, location, user};
use lajan_domain::org::Tier;
use lajan_domain::user::Role;
use lajan_domain::{Actor, Environment};
use lajan_services::Services;
use lajan_services::payouts::PayoutRequest;
use lajan_testkit::{TestApp, WALLET, test_config};
use serde_json::{Value, json};

async fn ok(r: reqwest::Response) -> Value {
    let status = r.status();
    let body: Value = r.json().await.unwrap();
    assert!(status.is_success(), "{status}: {body}");
    body
}

async fn payout(app: &TestApp, amount: f64) -> String {
    let body = json!({ "walletAccountId": WALLET, "assetAmount": amount, "assetCode": "USDC", "memo": "Loan 2231" });
    ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned()
}

async fn submitted_batch(app: &TestApp, name: &str) -> String {
    let items = [json!({ "walletAccountId": WALLET, "assetAmount": 15, "externalId": format!("{name}-1") })];
    let batch = json!({ "name": name, "assetCode": "USDC", "items": items });
    let id = ok(app.post("/v1/disbursements", &batch).await).await["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/disbursements/{id}/submit"), &json!({})).await).await;
    id
}

async fn get(app: &TestApp, path: &str) -> Value {
    ok(app.get(path).await).await
}

/// The newest event about `id`.
async fn last_event(app: &TestApp, id: &str) -> Value {
    let events = get(app, "/v1/events?limit=100").await;
    events["data"].as_array().unwrap().iter().find(|e| e["data"]["object"]["id"] == id).unwrap().clone()
}

api_test!(an_approver_decides_from_the_approvals_page_and_the_items_pages, |app| {
    let approver = user(app, None, "approver@example.ht", Role::Approver).await;
    let first = payout(app, 40.05).await;
    let second = payout(app, 10.0).await;
    let batch = submitted_batch(app, "June stipends").await;
    let browser = Browser::signed_in(app, "approver@example.ht").await;

    let r = browser.get("/console/approvals").await;
    assert_eq!(r.status(), 200);
    let page: String = r.text().await.unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    for shown in [
        "<h2>Payouts (2)</h2>",
        "<h2>Disbursements (1)</h2>",
        "data-label=\"Waiting\">65.05 USDC</td>",
        "1,000,000.00 USDC",
        "s-completed\">covered",
        "June stipends",
        &format!("action=\"/console/payouts/{first}/approve\""),
        &format!("action=\"/console/disbursements/{batch}/reject\""),
    ] {
        assert!(page.contains(shown), "{shown} on the approvals page: {page}");
    }

    let csrf = browser.csrf().await;
    // Approving asks first, saying what it approves; nothing is decided until confirmed.
    let r = browser.post(&format!("/console/payouts/{first}/approve"), &[("csrf", &csrf), ("back", "approvals")]).await;
    assert_eq!(r.status(), 200);
    let asked = r.text().await.unwrap();
    assert!(asked.contains("Approve the payout of 40.05 USDC to GBRPY") && asked.contains("Yes, approve"), "{asked}");
    assert!(
        asked.contains("name=\"confirmed\" value=\"1\"") && asked.contains("&#x2f;console&#x2f;approvals\">Go back"),
        "{asked}"
    );
    assert_eq!(get(app, &format!("/v1/payouts/{first}")).await["approvalStatus"], "pending", "not yet");
    let confirmed = [("csrf", csrf.as_str()), ("back", "approvals"), ("confirmed", "1")];
    let r = browser.post(&format!("/console/payouts/{first}/approve"), &confirmed).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/approvals?done=approved".to_owned()));
    let after = browser.get("/console/approvals?done=approved").await.text().await.unwrap();
    assert!(after.contains("role=\"status\">Approved.</p>"), "a message after the act: {after}");
    assert_eq!(get(app, &format!("/v1/payouts/{first}")).await["approvalStatus"], "approved");
    let approved = last_event(app, &first).await;
    assert_eq!(approved["type"], "payout.approved");
    assert_eq!(approved["actor"], json!({ "type": "user", "id": approver.id }), "the event names the user");

    let fields = [("csrf", csrf.as_str()), ("reason", "Paid twice"), ("back", "item")];
    let asked = browser.post(&format!("/console/payouts/{second}/reject"), &fields).await.text().await.unwrap();
    assert!(
        asked.contains("Reject the payout of") && asked.contains("value=\"Paid twice\""),
        "the reason carried: {asked}"
    );
    let fields = [("csrf", csrf.as_str()), ("reason", "Paid twice"), ("back", "item"), ("confirmed", "1")];
    let r = browser.post(&format!("/console/payouts/{second}/reject"), &fields).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("/console/payouts/{second}?done=rejected")));
    let page = browser.get(&location(&r)).await.text().await.unwrap();
    assert!(page.contains(">Rejected.</p>"), "{page}");
    let rejected = get(app, &format!("/v1/payouts/{second}")).await;
    assert_eq!(rejected["approvalStatus"], "rejected");

    let detail = browser.get(&format!("/console/disbursements/{batch}")).await.text().await.unwrap();
    assert!(detail.contains("<h2>Decision</h2>"), "the batch's own page offers the decision");
    let asked = browser.post(&format!("/console/disbursements/{batch}/approve"), &[("csrf", &csrf)]).await;
    let asked = asked.text().await.unwrap();
    assert!(asked.contains("Approve “June stipends”: 1 payout, 15.00 USDC in all?"), "its size and total: {asked}");
    let r =
        browser.post(&format!("/console/disbursements/{batch}/approve"), &[("csrf", &csrf), ("confirmed", "1")]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("/console/disbursements/{batch}?done=approved")));
    assert!(browser.get(&location(&r)).await.text().await.unwrap().contains(">Approved.</p>"));
    let approved = get(app, &format!("/v1/disbursements/{batch}")).await;
    assert_ne!(approved["status"], "pending_approval", "{approved}");
    assert_eq!(last_event(app, &batch).await["actor"]["id"], approver.id.as_str());
    let detail = browser.get(&format!("/console/disbursements/{batch}")).await.text().await.unwrap();
    assert!(!detail.contains("<h2>Decision</h2>"), "nothing left to decide");

    // Deciding again, or on another organization's payout: refused, nothing changes.
    let r = browser.post(&format!("/console/payouts/{first}/reject"), &[("csrf", &csrf), ("confirmed", "1")]).await;
    assert_eq!(r.status(), 409);
    assert!(r.text().await.unwrap().contains("Not done"));
    assert_eq!(get(app, &format!("/v1/payouts/{first}")).await["approvalStatus"], "approved");
    let other = app.org("Other MFI", Tier::Standard).await;
    let other_key = app.key(Some(&other.id), Environment::Test, &["*"]).await;
    let body = json!({ "walletAccountId": WALLET, "assetAmount": 5, "assetCode": "USDC" });
    let foreign = ok(app.post_with(&other_key, "/v1/payouts", &body).await).await;
    let foreign = foreign["id"].as_str().unwrap();
    let r = browser.post(&format!("/console/payouts/{foreign}/approve"), &[("csrf", &csrf)]).await;
    assert_eq!(r.status(), 404);
    let still = ok(app.get_with(&other_key, &format!("/v1/payouts/{foreign}")).await).await;
    assert_eq!(still["approvalStatus"], "pending");
    let (path, long) = (format!("/console/payouts/{second}/reject"), "x".repeat(501));
    let r = browser.post(&path, &[("csrf", &csrf), ("reason", &long)]).await;
    assert_eq!(r.status(), 400, "a reason over 500 characters");
});

api_test!(the_distinct_approver_rule_holds_for_users, |app| {
    user(app, None, "admin@example.ht", Role::Admin).await;
    user(app, None, "other-admin@example.ht", Role::Admin).await;
    ok(app.put("/v1/settings", &json!({ "requireDistinctApprover": true })).await).await;
    // The admin creates a payout through the same service method the console's form will use.
    let services = Services::new(app.store().clone(), test_config().services).unwrap();
    let admin = app.store().user_by_email("admin@example.ht").await.unwrap().unwrap().0;
    let as_admin = app.tenant().acting_as(Actor::User(admin.id.clone()));
    let request = PayoutRequest {
        wallet_account_id: Some(WALLET.into()),
        asset_amount: Some("12.00".into()),
        asset_code: Some("USDC".into()),
        ..Default::default()
    };
    let own = services.create_payout(&as_admin, request, None).await.unwrap().payout.id;

    let browser = Browser::signed_in(app, "admin@example.ht").await;
    let page = browser.get("/console/approvals").await.text().await.unwrap();
    assert!(page.contains("You created this payout; this organization requires someone else to approve it."));
    assert!(!page.contains(&format!("/console/payouts/{own}/approve")), "no approve button for their own");
    let detail = browser.get(&format!("/console/payouts/{own}")).await.text().await.unwrap();
    assert!(detail.contains("You created this payout"));
    let csrf = browser.csrf().await;
    let r = browser.post(&format!("/console/payouts/{own}/approve"), &[("csrf", &csrf), ("confirmed", "1")]).await;
    assert_eq!(r.status(), 409, "posting anyway is refused");
    assert!(r.text().await.unwrap().contains("requires someone else to approve it"));
    assert_eq!(get(app, &format!("/v1/payouts/{own}")).await["approvalStatus"], "pending");

    let other = Browser::signed_in(app, "other-admin@example.ht").await;
    let csrf = other.csrf().await;
    let r = other.post(&format!("/console/payouts/{own}/approve"), &[("csrf", &csrf), ("confirmed", "1")]).await;
    assert_eq!(r.status(), 303, "a second person approves it");
    assert_eq!(get(app, &format!("/v1/payouts/{own}")).await["approvalStatus"], "approved");
});

api_test!(deciding_needs_the_approver_role_and_the_csrf_value, |app| {
    let pending = payout(app, 5.0).await;
    let batch = submitted_batch(app, "July stipends").await;
    for role in [Role::Viewer, Role::Maker] {
        let email = format!("{role}@example.ht");
        user(app, None, &email, role).await;
        let browser = Browser::signed_in(app, &email).await;
        assert_eq!(browser.get("/console/approvals").await.status(), 403, "{role}");
        let home = browser.get("/console").await.text().await.unwrap();
        assert!(!home.contains("href=\"/console/approvals\""), "{role}: no link");
        let detail = browser.get(&format!("/console/payouts/{pending}")).await.text().await.unwrap();
        assert!(!detail.contains("<h2>Decision</h2>"), "{role}: no forms");
        let csrf = browser.csrf().await;
        for path in [
            format!("/console/payouts/{pending}/approve"),
            format!("/console/payouts/{pending}/reject"),
            format!("/console/disbursements/{batch}/approve"),
            format!("/console/disbursements/{batch}/reject"),
        ] {
            assert_eq!(browser.post(&path, &[("csrf", &csrf)]).await.status(), 403, "{role}: {path}");
        }
    }
    user(app, None, "approver@example.ht", Role::Approver).await;
    let approver = Browser::signed_in(app, "approver@example.ht").await;
    let r = approver.post(&format!("/console/payouts/{pending}/approve"), &[("csrf", "forged")]).await;
    assert_eq!(r.status(), 403, "without the session's csrf value");
    let csrf = approver.csrf().await;
    let mut foreign_page = Browser::signed_in(app, "approver@example.ht").await;
    foreign_page.origin = Some("https://evil.example".into());
    let csrf_too = foreign_page.csrf().await;
    let r = foreign_page.post(&format!("/console/disbursements/{batch}/approve"), &[("csrf", &csrf_too)]).await;
    assert_eq!(r.status(), 403, "from another site's page");
    assert!(!csrf.is_empty());
    assert_eq!(get(app, &format!("/v1/payouts/{pending}")).await["approvalStatus"], "pending");
    assert_eq!(get(app, &format!("/v1/disbursements/{batch}")).await["status"], "pending_approval");
});

api_test!(the_approvals_page_speaks_french_and_creole, |app| {
    user(app, None, "approver@example.ht", Role::Approver).await;
    let pending = payout(app, 12.0).await;
    for (languages, shown) in [
        ("fr", ["Vérification du solde", "Approuver", "Rejeter", "Motif (facultatif)", "couvert"]),
        ("ht", ["Verifikasyon balans", "Apwouve", "Rejte", "Rezon (si ou vle)", "kouvri"]),
    ] {
        let browser = Browser::speaking(app, languages);
        browser.sign_in("approver@example.ht", crate::browser::PASSWORD).await;
        let page = browser.get("/console/approvals").await.text().await.unwrap();
        for text in shown {
            assert!(page.contains(text), "{languages}: {text} on {page}");
        }
        let detail = browser.get(&format!("/console/payouts/{pending}")).await.text().await.unwrap();
        assert!(detail.contains(shown[1]), "{languages}: the decision on the payout's page");
    }
});

api_test!(a_maker_cancels_a_payout_waiting_for_its_receiver_and_a_viewer_cannot, |app| {
    let maker = user(app, None, "maker@example.ht", Role::Maker).await;
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let ana = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" });
    let ana = ok(app.post("/v1/clients", &ana).await).await;
    let body = json!({ "clientId": ana["id"], "assetAmount": 12, "assetCode": "USDC" });
    let id = ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/payouts/{id}/approve"), &json!({})).await).await;

    let viewer = Browser::signed_in(app, "viewer@example.ht").await;
    let csrf = viewer.csrf().await;
    let r = viewer.post(&format!("/console/payouts/{id}/cancel"), &[("csrf", &csrf)]).await;
    assert_eq!(r.status(), 403);
    assert_eq!(get(app, &format!("/v1/payouts/{id}")).await["execStatus"], "awaiting_registration");

    let browser = Browser::signed_in(app, "maker@example.ht").await;
    let page = browser.get(&format!("/console/payouts/{id}")).await.text().await.unwrap();
    assert!(page.contains(&format!("action=\"/console/payouts/{id}/cancel\"")), "{page}");
    assert!(page.contains("Waiting for the receiver") && page.contains("none yet"), "{page}");
    let csrf = browser.csrf().await;
    let r = browser.post(&format!("/console/payouts/{id}/cancel"), &[("csrf", &csrf)]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("/console/payouts/{id}?done=canceled")));
    let canceled = get(app, &format!("/v1/payouts/{id}")).await;
    assert_eq!((&canceled["execStatus"], &canceled["cancelReason"]), (&json!("canceled"), &json!("requested")));
    let event = last_event(app, &id).await;
    assert_eq!(
        (&event["type"], &event["actor"]),
        (&json!("payout.canceled"), &json!({ "type": "user", "id": maker.id }))
    );
    let page = browser.get(&format!("/console/payouts/{id}")).await.text().await.unwrap();
    assert!(!page.contains("/cancel\""), "no cancel once canceled");
    let again = browser.post(&format!("/console/payouts/{id}/cancel"), &[("csrf", &csrf)]).await;
    assert_eq!(again.status(), 409, "cannot_cancel, said on a page");
});
