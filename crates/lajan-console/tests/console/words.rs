//! Words and times: one term per concept in each language (French invoices `envoyée`, payouts
//! `versements`; Creole payouts `vèsman`), times in the organization's timezone with its name,
//! and the sign-in page's own language switch.

use crate::browser::{Browser, PASSWORD, location, user};
use lajan_domain::user::Role;
use serde_json::json;

api_test!(pages_show_times_in_the_organizations_timezone_and_one_word_per_thing, |app| {
    user(app, None, "maker@example.ht", Role::Maker).await;
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let page = format!("/console/invoices/{}", invoice["id"].as_str().unwrap());

    let french = Browser::speaking(app, "fr");
    let r = french.sign_in("maker@example.ht", PASSWORD).await;
    assert_eq!(location(&r), "/console");
    let utc = french.get(&page).await.text().await.unwrap();
    assert!(utc.contains(" UTC</"), "the settings' default timezone is UTC: {utc}");
    let r = app.put("/v1/settings", &json!({ "timezone": "America/Port-au-Prince" })).await;
    assert_eq!(r.status(), 200);
    let local = french.get(&page).await.text().await.unwrap();
    assert!(local.contains("heure de Port-au-Prince") && !local.contains(" UTC</"), "{local}");

    // French: an invoice is `envoyée`, a payout a `versement`.
    let list = french.get("/console/invoices").await.text().await.unwrap();
    assert!(list.contains(">envoyée</option>") && list.contains(">envoyée</span>"), "{list}");
    assert!(list.contains(">Versements</a>") && !list.contains(">Paiements</a>"), "{list}");
    let creole = Browser::speaking(app, "ht");
    creole.sign_in("maker@example.ht", PASSWORD).await;
    let home = creole.get("/console/payouts/new").await.text().await.unwrap();
    assert!(home.contains(">Vèsman</a>") && home.contains("Nouvo vèsman"), "{home}");
    assert!(!home.contains(">Peman</a>"), "payments and payouts are two words: {home}");
});

api_test!(the_sign_in_page_switches_language_and_keeps_the_choice, |app| {
    let visitor = Browser::speaking(app, "en-US,en");
    let page = visitor.get("/console/sign-in").await.text().await.unwrap();
    assert!(page.contains("<html lang=\"en\""));
    assert!(
        page.contains("href=\"&#x2f;console&#x2f;sign-in?lang=ht\"")
            || page.contains("href=\"/console/sign-in?lang=ht\""),
        "{page}"
    );
    let r = visitor.get("/console/sign-in?lang=ht").await;
    let cookies: Vec<&str> = r.headers().get_all("set-cookie").iter().map(|c| c.to_str().unwrap()).collect();
    assert!(cookies.iter().any(|c| c.starts_with("lajan_lang=ht;")), "kept for the visit: {cookies:?}");
    assert!(r.text().await.unwrap().contains("<html lang=\"ht\""));
    let again = visitor.get("/console/sign-in").await.text().await.unwrap();
    assert!(again.contains("<html lang=\"ht\""), "the choice holds over the browser's: {again}");
    // A wrong password is told in the chosen language too.
    user(app, None, "rose@example.ht", Role::Viewer).await;
    let refused = visitor.sign_in("rose@example.ht", "not the password").await.text().await.unwrap();
    assert!(refused.contains("<html lang=\"ht\""), "{refused}");
    let unknown = visitor.get("/console/sign-in?lang=de").await.text().await.unwrap();
    assert!(unknown.contains("<html lang=\"ht\""), "an unknown language changes nothing");
});
