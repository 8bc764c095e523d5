//! The console's create forms: a maker creates a payout through the API's service method (the
//! event names the user); posting the same form twice, even at once, creates one; bad fields are
//! shown and create nothing; other roles, a missing CSRF value or a missing form key are refused.

use crate::browser::{Browser, location, user};
use lajan_domain::user::Role;
use lajan_testkit::{TestApp, WALLET};
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
    let told = "Amount: must have at most 2 decimal places";
    assert!(page.contains(told) && page.contains("12.345"), "what was wrong, and the values kept: {page}");
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

api_test!(a_maker_pays_a_phone_only_client_from_the_form_and_is_told_they_will_be_invited, |app| {
    let ana = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" });
    let ana: Value = app.post("/v1/clients", &ana).await.json().await.unwrap();
    let nobody: Value =
        app.post("/v1/clients", &json!({ "firstName": "Pòl", "lastName": "San" })).await.json().await.unwrap();
    let wallet = json!({ "firstName": "Woz", "lastName": "Jan", "walletAccountId": WALLET });
    let woz: Value = app.post("/v1/clients", &wallet).await.json().await.unwrap();
    user(app, None, "maker@example.ht", Role::Maker).await;
    let browser = Browser::signed_in(app, "maker@example.ht").await;
    let page = browser.get("/console/payouts/new").await.text().await.unwrap();
    let option = |c: &Value| {
        let at = page.find(&format!("<option value=\"{}\"", c["id"].as_str().unwrap())).expect("listed");
        page[at..].split("</option>").next().unwrap().to_owned()
    };
    assert!(option(&ana).ends_with(">Ana Pyè (no wallet yet: will be invited)"), "{}", option(&ana));
    assert!(option(&woz).ends_with(">Woz Jan"), "{}", option(&woz));
    assert!(option(&nobody).contains(" disabled>") && option(&nobody).contains("no phone or email"), "{page}");
    assert!(page.contains("is sent an invitation by SMS or email to register one"), "what happens next");

    let once = once_of(&page);
    let csrf = browser.csrf().await;
    let id = ana["id"].as_str().unwrap();
    let fields = [("csrf", csrf.as_str()), ("once", &once), ("client", id), ("amount", "12"), ("asset", "USDC")];
    let r = browser.post("/console/payouts", &fields).await;
    assert_eq!(r.status(), 303);
    let made = payouts(app).await;
    assert_eq!(
        (made.len(), made[0]["clientId"].as_str(), made[0]["execStatus"].as_str()),
        (1, Some(id), Some("awaiting_registration"))
    );
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

const W2: &str = "GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ";

api_test!(a_maker_uploads_a_spreadsheet_fixes_its_bad_rows_submits_and_an_approver_approves, |app| {
    let maker = user(app, None, "maker@example.ht", Role::Maker).await;
    user(app, None, "approver@example.ht", Role::Approver).await;
    let browser = Browser::signed_in(app, "maker@example.ht").await;
    assert!(browser.get("/console/disbursements").await.text().await.unwrap().contains("/console/disbursements/new"));
    let page = browser.get("/console/disbursements/new").await.text().await.unwrap();
    assert!(page.contains("enctype=\"multipart/form-data\""));
    let once = once_of(&page);
    let csrf = browser.csrf().await;
    let fields = [("csrf", csrf.as_str()), ("once", once.as_str()), ("name", "June stipends"), ("asset", "USDC")];

    let bad = format!(
        "walletAccountId,assetAmount,externalId\n{WALLET},15,june-1\nGNOTAWALLET,15,june-2\n{W2},1.234,june-3\n"
    );
    let r = browser.upload("/console/disbursements", &fields, bad.as_bytes()).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap();
    let squashed: String = page.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(squashed.contains("Nothing was stored"), "{page}");
    // Each bad row as the spreadsheet numbers it (its header is row 1), with its externalId and
    // the value in the file, and "nothing was stored" said once.
    let row = |n: u32, external: &str, field: &str, value: &str, rule: &str| {
        format!(
            "<td class=\"num\" data-label=\"Row in the spreadsheet\">{n}</td><td data-label=\"External id\"><code>{external}</code></td><td data-label=\"Field\"><code>{field}</code></td><td data-label=\"Value in the file\" class=\"wrap\"><code>{value}</code></td><td data-label=\"What is wrong\">{rule}</td>"
        )
    };
    let stellar = "must be a Stellar account address: 56 characters starting with G";
    assert!(squashed.contains(&row(3, "june-2", "walletAccountId", "GNOTAWALLET", stellar)), "data row 2: {page}");
    let places = "must have at most 2 decimal places";
    assert!(squashed.contains(&row(4, "june-3", "assetAmount", "1.234", places)), "data row 3, at once: {page}");
    assert!(squashed.contains("2 rows are wrong."), "{page}");
    assert_eq!(squashed.to_lowercase().matches("nothing was stored").count(), 1, "said once: {page}");
    assert!(page.contains("value=\"June stipends\""), "the name is kept");
    let none: Value = app.get("/v1/disbursements").await.json().await.unwrap();
    assert_eq!(none["pagination"]["total"], 0);
    let r = browser.upload("/console/disbursements", &fields, b"\xff\xfe").await;
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("not UTF-8"));

    let good =
        format!("walletAccountId,assetAmount,externalId\n{WALLET},15,june-1\n{W2},15,june-2\n{W2},1.25,june-3\n");
    let r = browser.upload("/console/disbursements", &fields, good.as_bytes()).await;
    assert_eq!(r.status(), 303);
    let made = location(&r);
    let id = made.strip_prefix("/console/disbursements/").expect("to the batch's page").to_owned();
    let again = browser.upload("/console/disbursements", &fields, good.as_bytes()).await;
    assert_eq!(location(&again), made, "the same upload again makes nothing more");
    let draft: Value = app.get(&format!("/v1/disbursements/{id}")).await.json().await.unwrap();
    assert_eq!((draft["status"].as_str(), draft["itemCount"].as_u64()), (Some("draft"), Some(3)));
    assert_eq!((draft["source"].as_str(), draft["totalAmount"].as_str()), (Some("csv"), Some("31.25")));

    let detail = browser.get(&made).await.text().await.unwrap();
    assert!(detail.contains("Submit for approval"));
    let asked = browser.post(&format!("{made}/submit"), &[("csrf", &csrf)]).await.text().await.unwrap();
    assert!(asked.contains("3 payouts, 31.25 USDC in all, for approval?"), "what is submitted: {asked}");
    let r = browser.post(&format!("{made}/submit"), &[("csrf", &csrf), ("confirmed", "1")]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, format!("{made}?done=submitted")));
    let events: Value = app.get("/v1/events?type=disbursement.submitted").await.json().await.unwrap();
    assert_eq!(events["data"][0]["actor"], json!({ "type": "user", "id": maker.id }));
    let again = browser.post(&format!("{made}/submit"), &[("csrf", &csrf), ("confirmed", "1")]).await;
    assert_eq!(again.status(), 409, "submitted already");

    let approver = Browser::signed_in(app, "approver@example.ht").await;
    let csrf = approver.csrf().await;
    assert_eq!(approver.post(&format!("{made}/approve"), &[("csrf", &csrf), ("confirmed", "1")]).await.status(), 303);
    let running = approver.get(&made).await.text().await.unwrap();
    assert!(running.contains("<meta http-equiv=\"refresh\" content=\"5\">"), "the page follows the batch");
    app.drain_payouts().await;
    let done: Value = app.get(&format!("/v1/disbursements/{id}")).await.json().await.unwrap();
    assert_eq!(done["status"], "completed");
    let finished = approver.get(&made).await.text().await.unwrap();
    assert!(!finished.contains("http-equiv=\"refresh\""), "and stops when it is done");
    let report = approver.get(&format!("{made}/report.csv")).await.text().await.unwrap();
    assert_eq!(report.lines().count(), 4, "a header and the three items: {report}");
});

api_test!(uploading_and_submitting_need_the_maker_role_and_the_csrf_value, |app| {
    let items = format!("walletAccountId,assetAmount\n{WALLET},15\n");
    let batch =
        json!({ "name": "July", "assetCode": "USDC", "items": [{ "walletAccountId": WALLET, "assetAmount": 15 }] });
    let draft: Value = app.post("/v1/disbursements", &batch).await.json().await.unwrap();
    let draft = draft["id"].as_str().unwrap();
    for role in [Role::Viewer, Role::Approver] {
        let email = format!("{role}@example.ht");
        user(app, None, &email, role).await;
        let browser = Browser::signed_in(app, &email).await;
        assert_eq!(browser.get("/console/disbursements/new").await.status(), 403, "{role}");
        let detail = browser.get(&format!("/console/disbursements/{draft}")).await.text().await.unwrap();
        assert!(!detail.contains("Submit for approval"), "{role}");
        let csrf = browser.csrf().await;
        let once = "b".repeat(64);
        let fields = [("csrf", csrf.as_str()), ("once", &once), ("name", "Sneaky"), ("asset", "USDC")];
        assert_eq!(browser.upload("/console/disbursements", &fields, items.as_bytes()).await.status(), 403, "{role}");
        let r = browser.post(&format!("/console/disbursements/{draft}/submit"), &[("csrf", &csrf)]).await;
        assert_eq!(r.status(), 403, "{role}");
    }
    user(app, None, "maker@example.ht", Role::Maker).await;
    let maker = Browser::signed_in(app, "maker@example.ht").await;
    let once = once_of(&maker.get("/console/disbursements/new").await.text().await.unwrap());
    let fields = [("csrf", "forged"), ("once", once.as_str()), ("name", "Sneaky"), ("asset", "USDC")];
    assert_eq!(maker.upload("/console/disbursements", &fields, items.as_bytes()).await.status(), 403);
    assert_eq!(maker.post(&format!("/console/disbursements/{draft}/submit"), &[("csrf", "x")]).await.status(), 403);
    let all: Value = app.get("/v1/disbursements").await.json().await.unwrap();
    assert_eq!(all["pagination"]["total"], 1, "nothing created");
    let still: Value = app.get(&format!("/v1/disbursements/{draft}")).await.json().await.unwrap();
    assert_eq!(still["status"], "draft");
});
