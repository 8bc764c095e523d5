//! Clients from the console: a maker creates and changes a client through the API's service
//! methods (every bad field at once, the same rules as the API), and the invoice pages warn
//! when the client cannot be sent an invoice.

use crate::browser::{Browser, csrf_of, location, user};
use lajan_domain::user::Role;
use lajan_testkit::WALLET;
use serde_json::Value;

fn once_of(page: &str) -> String {
    let marker = "name=\"once\" value=\"";
    let start = page.find(marker).unwrap_or_else(|| panic!("no once field on {page}")) + marker.len();
    page[start..].split('"').next().unwrap().to_owned()
}

api_test!(a_maker_creates_and_changes_a_client_and_is_warned_when_one_cannot_be_sent_an_invoice, |app| {
    let maker = user(app, None, "maker@example.ht", Role::Maker).await;
    let browser = Browser::signed_in(app, "maker@example.ht").await;
    let list = browser.get("/console/clients").await.text().await.unwrap();
    assert!(list.contains("href=\"/console/clients/new\""), "makers see the way in");
    let page = browser.get("/console/clients/new").await.text().await.unwrap();
    let (once, csrf) = (once_of(&page), csrf_of(&page));

    let bad = [
        ("csrf", csrf.as_str()),
        ("once", &once),
        ("first_name", "Marie"),
        ("last_name", " "),
        ("email", "marie@"),
        ("phone_number", "3700 000"),
        ("wallet_account_id", "GBAD"),
        ("verification_type", "date_of_birth"),
        ("verification_value", "07/05/1990"),
    ];
    let r = browser.post("/console/clients", &bad).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap();
    for field in ["Last name:", "Email:", "Phone number:", "Wallet:", "Answer:"] {
        assert!(page.contains(field), "{field} in one answer: {page}");
    }
    assert!(page.contains("value=\"marie@\""), "what was typed is kept");
    let clients: Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(clients["data"].as_array().unwrap().len(), 0, "nothing created");

    let good = [
        ("csrf", csrf.as_str()),
        ("once", &once),
        ("first_name", "Marie"),
        ("last_name", "Jean"),
        ("email", ""),
        ("phone_number", ""),
        ("wallet_account_id", WALLET),
        ("language", "fr"),
        ("verification_type", "date_of_birth"),
        ("verification_value", "1990-05-07"),
    ];
    let r = browser.post("/console/clients", &good).await;
    assert_eq!(r.status(), 303);
    let edit = location(&r);
    let id = edit.strip_prefix("/console/clients/").and_then(|e| e.strip_suffix("/edit?saved=1")).unwrap().to_owned();
    let again = browser.post("/console/clients", &good).await;
    assert_eq!((again.status().as_u16(), location(&again)), (303, edit.clone()), "posted twice, made once");
    let client: Value = app.get(&format!("/v1/clients/{id}")).await.json().await.unwrap();
    assert_eq!((&client["language"], &client["remindersEnabled"]), (&Value::from("fr"), &Value::from(false)));
    assert_eq!(client["verification"]["type"], "date_of_birth");
    let events: Value = app.get("/v1/events?type=client.created").await.json().await.unwrap();
    assert_eq!(events["data"][0]["actor"]["id"], maker.id.as_str(), "the event names the user");
    let page = browser.get(&edit).await.text().await.unwrap();
    assert!(page.contains("Client saved.") && page.contains(&format!("/console/invoices/new?client={id}")), "{page}");
    assert!(page.contains("The client answers: date of birth") && !page.contains("1990-05-07"), "never the answer");

    // No email, no phone: the invoice form and the invoice say it cannot be sent, before Send.
    let form = browser.get(&format!("/console/invoices/new?client={id}")).await.text().await.unwrap();
    assert!(form.contains("Marie Jean has no email or phone number"), "{form}");
    assert!(form.contains("Marie Jean (no email or phone)"), "{form}");
    let invoice = app.invoice(&id, serde_json::json!({})).await;
    let shown =
        browser.get(&format!("/console/invoices/{}", invoice["id"].as_str().unwrap())).await.text().await.unwrap();
    assert!(shown.contains("cannot be sent until the client has one") && !shown.contains("/send\""), "{shown}");

    // Changing the client: the whole form is the client, an emptied field cleared.
    let change = [
        ("csrf", csrf.as_str()),
        ("first_name", "Marie-Ange"),
        ("last_name", "Jean"),
        ("phone_number", "+50937000000"),
        ("wallet_account_id", ""),
        ("language", "ht"),
        ("reminders_enabled", "on"),
        ("remove_verification", "on"),
    ];
    let r = browser.post(&format!("/console/clients/{id}/edit"), &change).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, edit.clone()));
    let client: Value = app.get(&format!("/v1/clients/{id}")).await.json().await.unwrap();
    assert_eq!(client["firstName"], "Marie-Ange");
    assert_eq!((&client["phoneNumber"], &client["walletAccountId"]), (&Value::from("+50937000000"), &Value::Null));
    assert_eq!((&client["remindersEnabled"], &client["verification"]), (&Value::from(true), &Value::Null));
    let shown =
        browser.get(&format!("/console/invoices/{}", invoice["id"].as_str().unwrap())).await.text().await.unwrap();
    assert!(shown.contains("/send\"") && !shown.contains("cannot be sent"), "sendable now");
    let bad = [("csrf", csrf.as_str()), ("first_name", ""), ("last_name", "Jean"), ("email", "nope")];
    let r = browser.post(&format!("/console/clients/{id}/edit"), &bad).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap();
    assert!(page.contains("First name:") && page.contains("Email:"), "{page}");

    // A viewer reads the list, and may neither create nor change.
    user(app, None, "viewer@example.ht", Role::Viewer).await;
    let viewer = Browser::signed_in(app, "viewer@example.ht").await;
    assert!(!viewer.get("/console/clients").await.text().await.unwrap().contains("/console/clients/new"));
    assert_eq!(viewer.get("/console/clients/new").await.status(), 403);
    let their_csrf = viewer.csrf().await;
    let r = viewer
        .post(
            &format!("/console/clients/{id}/edit"),
            &[("csrf", their_csrf.as_str()), ("first_name", "X"), ("last_name", "Y")],
        )
        .await;
    assert_eq!(r.status(), 403);
    assert_eq!(browser.get("/console/clients/cli_nope/edit").await.status(), 404);
});

api_test!(a_french_clerk_types_phones_dates_and_spreadsheets_as_they_are_written_in_haiti, |app| {
    user(app, None, "komi@example.ht", Role::Maker).await;
    let browser = Browser::speaking(app, "fr-FR,fr;q=0.9");
    assert_eq!(location(&browser.sign_in("komi@example.ht", crate::browser::PASSWORD).await), "/console");
    let page = browser.get("/console/clients/new").await.text().await.unwrap();
    assert!(page.contains("date de naissance (JJ&#x2f;MM&#x2f;AAAA)"), "the form says the page's date form");
    let (once, csrf) = (once_of(&page), csrf_of(&page));
    let form = [
        ("csrf", csrf.as_str()),
        ("once", &once),
        ("first_name", "Rose"),
        ("last_name", "Pyè"),
        ("phone_number", "3710 2030"),
        ("language", "ht"),
        ("verification_type", "date_of_birth"),
        ("verification_value", "07/05/1990"),
    ];
    let r = browser.post("/console/clients", &form).await;
    assert_eq!(r.status(), 303, "{}", r.text().await.unwrap());
    let clients: Value = app.get("/v1/clients").await.json().await.unwrap();
    let rose = &clients["data"][0];
    assert_eq!(
        (rose["phoneNumber"].as_str(), rose["verification"]["type"].as_str()),
        (Some("+50937102030"), Some("date_of_birth"))
    );
    // The answer was kept as the 7th of May: the receiver proves it in the ISO form too.
    let tenant = lajan_domain::Tenant::new(app.org.id.clone(), lajan_domain::Environment::Test);
    let kept = app.store().get_client_including_archived(&tenant, rose["id"].as_str().unwrap()).await.unwrap().unwrap();
    let answer = lajan_domain::verification::VerificationAnswer::parse(
        lajan_domain::verification::VerificationKind::DateOfBirth,
        "1990-05-07",
        lajan_domain::Timestamp::now(),
    )
    .unwrap();
    let hash = kept.verification.unwrap().hash;
    assert!(lajan_services::users::verify_password(answer.secret(), &hash), "07/05/1990 is the 7th of May");

    // A typo is named in French, with the forms that pass.
    let page = browser.get("/console/clients/new").await.text().await.unwrap();
    let (once, csrf) = (once_of(&page), csrf_of(&page));
    let typo = [
        ("csrf", csrf.as_str()),
        ("once", &once),
        ("first_name", "Jan"),
        ("last_name", "Pòl"),
        ("phone_number", "3710 203"),
    ];
    let page = browser.post("/console/clients", &typo).await.text().await.unwrap();
    assert!(page.contains("doit être un numéro de téléphone, comme 3710 2030 ou +509 3710 2030"), "{page}");

    // A French spreadsheet's CSV: semicolons, a BOM, decimal commas, French column names.
    let page = browser.get("/console/disbursements/new").await.text().await.unwrap();
    let once = once_of(&page);
    let fields = [("csrf", csrf.as_str()), ("once", once.as_str()), ("name", "Bous jen"), ("asset", "HTG")];
    let csv =
        "\u{FEFF}Téléphone;Montant;Prénom;Nom\r\n3710 2030;1\u{202f}250,50;Rose;Pyè\r\n+509 3710-2031;500;Jan;Pòl\r\n";
    let r = browser.upload("/console/disbursements", &fields, csv.as_bytes()).await;
    assert_eq!(r.status(), 303, "{}", r.text().await.unwrap());
    let batches: Value = app.get("/v1/disbursements").await.json().await.unwrap();
    let batch = &batches["data"][0];
    assert_eq!((batch["itemCount"].as_u64(), batch["totalAmount"].as_str()), (Some(2), Some("1750.50")));
    let clients: Value = app.get("/v1/clients").await.json().await.unwrap();
    assert_eq!(clients["pagination"]["total"], 2, "Rose's row found Rose; Jan's made Jan");
});
