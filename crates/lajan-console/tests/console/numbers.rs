//! Forms in the clerk's language: numbers typed as French and Creole write them (`1 234,50`),
//! an ambiguous one refused in words (never guessed), every domain rule in the page's language,
//! and every bad field of a form in one answer.

use crate::browser::{Browser, PASSWORD, csrf_of, location, user};
use lajan_domain::user::Role;
use lajan_testkit::{TestApp, WALLET};
use serde_json::{Value, json};

fn once_of(page: &str) -> String {
    let marker = "name=\"once\" value=\"";
    let start = page.find(marker).unwrap_or_else(|| panic!("no once field on {page}")) + marker.len();
    page[start..].split('"').next().unwrap().to_owned()
}

async fn signed_in_speaking(app: &TestApp, email: &str, languages: &str) -> Browser {
    let browser = Browser::speaking(app, languages);
    let r = browser.sign_in(email, PASSWORD).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console".to_owned()));
    browser
}

/// The payout form posted with `amount`, `wallet` and `memo`: its answer.
async fn post_payout(browser: &Browser, wallet: &str, amount: &str, memo: &str) -> reqwest::Response {
    let page = browser.get("/console/payouts/new").await.text().await.unwrap();
    let (once, csrf) = (once_of(&page), csrf_of(&page));
    let fields = [
        ("csrf", csrf.as_str()),
        ("once", &once),
        ("wallet", wallet),
        ("amount", amount),
        ("asset", "USDC"),
        ("memo", memo),
    ];
    browser.post("/console/payouts", &fields).await
}

api_test!(french_and_creole_forms_read_numbers_as_they_are_written_there, |app| {
    user(app, None, "maker@example.ht", Role::Maker).await;
    let french = signed_in_speaking(app, "maker@example.ht", "fr-FR,fr;q=0.9").await;
    let r = post_payout(&french, WALLET, "1\u{202f}234,50", "").await;
    assert_eq!(r.status(), 303, "{}", r.text().await.unwrap());
    let id = location(&r).rsplit('/').next().unwrap().to_owned();
    let payout: Value = app.get(&format!("/v1/payouts/{id}")).await.json().await.unwrap();
    assert_eq!(payout["assetAmount"], "1234.50");
    let r = post_payout(&french, WALLET, "12.50", "").await;
    assert_eq!(r.status(), 303, "a keypad's point with two decimals is a decimal point");

    // "1.000": a thousand, or one? Refused in French, with how to write it, beside every other
    // bad field of the form in the one answer.
    let accents = "é".repeat(15);
    let r = post_payout(&french, "GBAD", "1.000", &accents).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap();
    for said in [
        "Montant : « 1.000 » peut se lire de deux façons",
        "Portefeuille",
        "Mémo : doit faire au plus 28 octets, le maximum d'un mémo Stellar : une lettre accentuée (é, ò) compte pour 2. Celui-ci fait 30 octets (15 caractères).",
    ] {
        assert!(page.contains(&said.replace('\'', "&#x27;")), "{said:?} in {page}");
    }
    assert!(!page.contains("bytes") && !page.contains("must "), "nothing in English: {page}");
    let list: Value = app.get("/v1/payouts").await.json().await.unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 2, "nothing more created");

    // The same in Creole, and an invoice's lines and instalments typed with commas.
    let creole = signed_in_speaking(app, "maker@example.ht", "ht").await;
    let client = app.reachable_client().await;
    let page = creole.get("/console/invoices/new").await.text().await.unwrap();
    let (once, csrf) = (once_of(&page), csrf_of(&page));
    let client_id = client["id"].as_str().unwrap();
    let fields = [
        ("csrf", csrf.as_str()),
        ("once", &once),
        ("client", client_id),
        ("currency", "HTG"),
        ("due_date", "2030-01-31"),
        ("description", "Frè dosye"),
        ("quantity", "1,5"),
        ("unit_price", "1 000,10"),
        ("tax_rate", ""),
    ];
    let r = creole.post("/console/invoices", &fields).await;
    assert_eq!(r.status(), 303, "{}", r.text().await.unwrap());
    let id = location(&r).rsplit('/').next().unwrap().to_owned();
    let invoice: Value = app.get(&format!("/v1/invoices/{id}")).await.json().await.unwrap();
    assert_eq!((&invoice["lineItems"][0]["quantity"], &invoice["subtotal"]), (&json!(1.5), &json!("1500.15")));
    let ambiguous = [("quantity", "2"), ("unit_price", "1.500")];
    let fields: Vec<(&str, &str)> =
        fields.iter().map(|(k, v)| ambiguous.iter().find(|(a, _)| a == k).map_or((*k, *v), |a| *a)).collect();
    let page = creole.get("/console/invoices/new").await.text().await.unwrap();
    let once = once_of(&page);
    let fields: Vec<(&str, &str)> =
        fields.into_iter().map(|(k, v)| if k == "once" { (k, once.as_str()) } else { (k, v) }).collect();
    let r = creole.post("/console/invoices", &fields).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap();
    assert!(page.contains("“1.500” ka li de fason"), "{page}");
});
