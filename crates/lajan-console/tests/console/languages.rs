//! The console and the hosted payment page in French and Creole: every page a finance team uses,
//! with data on it and with its refusals, holds no English word (the user's choice of language,
//! or their browser's), and neither does the page their clients pay on.

use crate::browser::{Browser, csrf_of, location, user};
use lajan_domain::user::Role;
use lajan_testkit::{TestApp, WALLET};
use serde_json::{Value, json};

/// Words of English a French or Creole page never needs (none of them is French or Creole).
const ENGLISH: &[&str] = &[
    "the",
    "and",
    "of",
    "is",
    "was",
    "with",
    "for",
    "from",
    "by",
    "not",
    "this",
    "that",
    "your",
    "you",
    "all",
    "new",
    "sent",
    "paid",
    "draft",
    "pending",
    "failed",
    "approved",
    "rejected",
    "created",
    "search",
    "filter",
    "sandbox",
    "previous",
    "next",
    "back",
    "none",
    "never",
    "waiting",
    "approval",
    "invoice",
    "invoices",
    "payout",
    "payouts",
    "items",
    "amount",
    "status",
    "due",
    "choose",
    "save",
    "send",
    "create",
    "edit",
    "remove",
    "add",
    "line",
    "sign",
    "out",
    "settings",
    "users",
    "keys",
    "events",
    "dashboard",
    "approve",
    "reject",
    "reason",
    "optional",
    "name",
    "email",
    "password",
    "role",
    "wallet",
    "memo",
    "credit",
    "issue",
    "instalments",
    "held",
    "error",
    "attempts",
    "outcome",
    "required",
    "must",
    "found",
    "nothing",
    "here",
    "something",
    "wrong",
    "days",
    "ago",
    "month",
    "november",
    "december",
    "january",
    "latest",
    "deliveries",
    "endpoint",
    "rotate",
    "who",
    "changes",
];

async fn ok(r: reqwest::Response) -> Value {
    let status = r.status();
    let body: Value = r.json().await.unwrap();
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// What a person reads on a page: its text and the attributes read aloud or shown in fields,
/// without code (ids, event types), scripts and styles.
fn readable(html: &str) -> String {
    let strip = |text: &str, open: &str, close: &str| {
        let mut kept = String::new();
        let mut rest = text;
        while let Some(start) = rest.find(open) {
            kept.push_str(&rest[..start]);
            rest = rest[start..].find(close).map_or("", |end| &rest[start + end + close.len()..]);
        }
        kept + rest
    };
    let text = strip(&strip(&strip(html, "<code", "</code>"), "<script", "</script>"), "<style", "</style>");
    let mut shown = String::new();
    let mut inside = text.as_str();
    while let Some(start) = inside.find('<') {
        shown.push_str(&inside[..start]);
        shown.push(' ');
        let end = inside[start..].find('>').map_or(inside.len(), |e| start + e + 1);
        let tag = &inside[start..end];
        for attribute in ["placeholder=\"", "aria-label=\"", "title=\""] {
            if let Some(value) = tag.split(attribute).nth(1).and_then(|v| v.split('"').next()) {
                shown.push_str(value);
                shown.push(' ');
            }
        }
        inside = &inside[end..];
    }
    shown.push_str(inside);
    shown
}

/// The English words of `html`, with where they stand.
fn english_in(html: &str) -> Vec<String> {
    // Identifiers (`invoice.created`, `pending_approval`, a Stellar account whose random letters
    // may spell "OF") are names a developer reads, not words.
    let shown = readable(html);
    let identifier = |w: &&str| w.contains(['.', '_']) || w.contains(|c: char| c.is_ascii_digit());
    let text = shown.split_whitespace().filter(|w| !identifier(w)).collect::<Vec<_>>().join(" ");
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| ENGLISH.contains(&w.to_lowercase().as_str()))
        .map(|w| {
            let at = text.find(w).unwrap_or(0);
            let from = text[..at].char_indices().rev().nth(40).map_or(0, |(i, _)| i);
            format!(
                "{w:?} in “{}”",
                text[from..].chars().take(90).collect::<String>().split_whitespace().collect::<Vec<_>>().join(" ")
            )
        })
        .collect()
}

/// An organization's month: invoices, a paid payout and waiting ones, a submitted batch, a
/// webhook endpoint; named in French, as the finance team would.
async fn a_month_of_work(app: &TestApp) -> (String, String, String, String) {
    let rose =
        json!({ "firstName": "Rose", "lastName": "Délice", "email": "rose@example.ht", "walletAccountId": WALLET });
    let client = ok(app.post("/v1/clients", &rose).await).await;
    let client_id = client["id"].as_str().unwrap();
    let line = json!([{ "description": "Frais de dossier", "quantity": 2, "unitPrice": 1250.5 }]);
    // Due in two instalments, partly credited, then paid beyond what it asks for: every part of
    // the invoice page shows.
    let plan = json!([{ "amount": 1250.5, "dueDate": "2029-12-31" }, { "amount": 1250.5, "dueDate": "2030-01-31" }]);
    let invoice = app.invoice(client_id, json!({ "lineItems": line, "memo": "Merci", "installments": plan })).await;
    let invoice_id = invoice["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/invoices/{invoice_id}/send"), &json!({})).await).await;
    let waiver = json!({ "amount": 100, "reason": "waiver", "memo": "Remise" });
    ok(app.post(&format!("/v1/invoices/{invoice_id}/credit-notes"), &waiver).await).await;
    let cash = json!({ "amount": 2500, "method": "cash", "reference": "REÇU-12" });
    ok(app.post(&format!("/v1/invoices/{invoice_id}/payments"), &cash).await).await;
    app.invoice(client_id, json!({ "lineItems": line })).await;
    let payout = async |amount: Value| {
        let body = json!({ "walletAccountId": WALLET, "assetAmount": amount, "assetCode": "USDC", "memo": "Prime" });
        ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned()
    };
    let paid = payout(json!(1040.05)).await;
    ok(app.post(&format!("/v1/payouts/{paid}/approve"), &json!({})).await).await;
    app.drain_payouts().await;
    payout(json!(12.5)).await;
    let items = [json!({ "walletAccountId": WALLET, "assetAmount": 15, "externalId": "juin-1" })];
    let batch = json!({ "name": "Bourses de juin", "assetCode": "USDC", "items": items });
    let batch_id = ok(app.post("/v1/disbursements", &batch).await).await["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/disbursements/{batch_id}/submit"), &json!({})).await).await;
    let endpoint = json!({ "url": "https://example.ht/lajan", "events": ["*"], "description": "Comptabilité" });
    let endpoint_id = ok(app.post("/v1/webhook-endpoints", &endpoint).await).await["id"].as_str().unwrap().to_owned();
    (invoice_id, paid, batch_id, endpoint_id)
}

api_test!(french_and_creole_pages_hold_no_english, |app| {
    user(app, None, "admin@example.ht", Role::Admin).await;
    user(app, None, "jerome@example.ht", Role::Admin).await;
    let (invoice, payout, batch, endpoint) = a_month_of_work(app).await;
    let clients: serde_json::Value = app.get("/v1/clients?limit=1").await.json().await.unwrap();
    let client = clients["data"][0]["id"].as_str().unwrap().to_owned();
    let pages = [
        "/console".to_owned(),
        "/console/approvals".into(),
        "/console/invoices".into(),
        format!("/console/invoices/{invoice}"),
        "/console/invoices/new".into(),
        "/console/payouts".into(),
        format!("/console/payouts/{payout}"),
        "/console/payouts/new".into(),
        "/console/disbursements".into(),
        format!("/console/disbursements/{batch}"),
        "/console/disbursements/new".into(),
        "/console/clients".into(),
        "/console/clients/new".into(),
        format!("/console/clients/{client}/edit"),
        "/console/events".into(),
        "/console/messages".into(),
        "/console/keys".into(),
        "/console/users".into(),
        "/console/audit".into(),
        "/console/settings".into(),
        "/console/webhooks".into(),
        format!("/console/webhooks/{endpoint}"),
        "/console/invoices/inv_00000000000000000000000000000000".into(),
        "/console/clients?limit=1000".into(),
        "/console/payouts?status=lost".into(),
    ];
    // French from the browser's languages; Creole from the user's own choice, over a browser
    // that asks for English.
    let french = Browser::speaking(app, "fr-FR,fr;q=0.9,en;q=0.5");
    let r = french.sign_in("admin@example.ht", crate::browser::PASSWORD).await;
    assert_eq!(location(&r), "/console");
    let creole = Browser::signed_in(app, "jerome@example.ht").await;
    let csrf = creole.csrf().await;
    let r = creole.post("/console/language", &[("csrf", &csrf), ("language", "ht"), ("back", "/console")]).await;
    assert_eq!(r.status(), 303);
    // A `back` that cannot be a Location header (it answered 500) goes to the dashboard.
    let split = "/console/invoices\r\nSet-Cookie: lajan_console=x";
    let r = creole.post("/console/language", &[("csrf", &csrf), ("language", "ht"), ("back", split)]).await;
    assert_eq!(r.status(), 303, "a back with CR/LF");
    assert_eq!(location(&r), "/console");

    let mut found = Vec::new();
    for (lang, browser) in [("fr", &french), ("ht", &creole)] {
        let html = Browser::speaking(app, lang).get("/console/sign-in").await.text().await.unwrap();
        found.extend(english_in(&html).into_iter().map(|w| format!("{lang} /console/sign-in: {w}")));
        for path in &pages {
            let r = browser.get(path).await;
            let status = r.status().as_u16();
            let html = r.text().await.unwrap();
            assert!(html.contains(&format!("<html lang=\"{lang}\"")), "{path} in {lang}: {status} {html}");
            found.extend(english_in(&html).into_iter().map(|w| format!("{lang} {path} ({status}): {w}")));
        }
        // A refused form: the fields it names, in the language.
        let form = browser.get("/console/invoices/new").await.text().await.unwrap();
        let once = form.split("name=\"once\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
        let fields =
            [("csrf", csrf_of(&form)), ("once", once), ("client", String::new()), ("due_date", "2020-01-01".into())];
        let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = browser.post("/console/invoices", &fields).await;
        assert_eq!(r.status(), 400);
        let html = r.text().await.unwrap();
        found.extend(english_in(&html).into_iter().map(|w| format!("{lang} refused invoice form: {w}")));
    }
    assert!(found.is_empty(), "English on French and Creole pages:\n{}", found.join("\n"));
});

api_test!(the_payment_page_speaks_the_payers_language, |app| {
    let rose = json!({ "firstName": "Rose", "lastName": "Délice", "email": "rose@example.ht" });
    let client = ok(app.post("/v1/clients", &rose).await).await;
    let line = json!([{ "description": "Frais de dossier", "quantity": 2, "unitPrice": 1250.5 }]);
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "lineItems": line })).await;
    let id = invoice["id"].as_str().unwrap();
    let pi = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let get = async |path: &str, languages: &str| {
        let r = app.http.get(app.url(path)).header("accept-language", languages).send().await.unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    };
    let mut found = Vec::new();
    let mut check = |what: &str, html: &str, lang: &str| {
        assert!(html.contains(&format!("lang=\"{lang}\"")), "{what} in {lang}: {html}");
        found.extend(english_in(html).into_iter().map(|w| format!("{what}: {w}")));
    };
    let (_, draft) = get(&format!("/pay/{pi}"), "fr-CA,fr;q=0.9").await;
    assert!(draft.contains("Cette facture n’a pas encore été émise."), "{draft}");
    check("draft, fr", &draft, "fr");
    ok(app.post(&format!("/v1/invoices/{id}/send"), &json!({})).await).await;

    let (status, french) = get(&format!("/pay/{pi}"), "fr-CA,fr;q=0.9").await;
    assert_eq!(status, 200);
    for said in [
        "Facture INV-000001",
        "2\u{202f}501,00",
        "31 janvier 2030",
        "Payer avec un portefeuille Stellar",
        "Simuler le paiement",
    ] {
        assert!(french.contains(said), "{said} on the French page: {french}");
    }
    check("sent, fr", &french, "fr");
    // The link may name the language; the page's own switch does.
    let (_, creole) = get(&format!("/pay/{pi}?lang=ht"), "en-US,en").await;
    assert!(creole.contains("Peye ak yon pòtfèy Stellar") && creole.contains("31 janvye 2030"), "{creole}");
    assert!(french.contains("href=\"?lang=ht\""), "the switch");
    check("sent, ht", &creole, "ht");

    let no_redirects = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let r = no_redirects.post(app.url(&format!("/pay/{pi}/simulate?lang=ht"))).send().await.unwrap();
    assert_eq!(r.headers()["location"], format!("/pay/{pi}?lang=ht"), "back in the language it was shown in");
    let (_, paid) = get(&format!("/pay/{pi}?lang=ht"), "en").await;
    assert!(paid.contains("Peye nèt le"), "{paid}");
    check("paid, ht", &paid, "ht");
    let (status, missing) = get("/pay/pi_00000000000000000000000000000000", "ht").await;
    assert_eq!((status, missing.contains("Paj peman sa a pa egziste.")), (404, true), "{missing}");
    check("missing, ht", &missing, "ht");
    let (_, english) = get(&format!("/pay/{pi}"), "en").await;
    assert!(english.contains("Paid in full on") && english.contains("lang=\"en\""), "English stays the default");
    assert!(found.is_empty(), "English on French and Creole payment pages:\n{}", found.join("\n"));
});

#[test]
fn the_check_sees_english_in_text_and_attributes_but_not_in_code() {
    let html = r#"<p>Factures</p><input placeholder="Search"><code>invoice.created</code><p>Le total is due</p><p>GCCUG4C3PTMFW4EZNBV3IRAUP6OF3BSQ2B4V</p>"#;
    let found: Vec<String> = english_in(html).into_iter().map(|w| w.split(' ').next().unwrap().to_owned()).collect();
    assert_eq!(found, ["\"Search\"", "\"is\"", "\"due\""]);
}

api_test!(the_payment_page_adds_up_after_a_credit_note_and_a_payment_in_one_word_per_thing, |app| {
    let rose = json!({ "firstName": "Rose", "lastName": "Délice", "email": "rose@example.ht" });
    let client = ok(app.post("/v1/clients", &rose).await).await;
    let body = json!({ "sendImmediately": true, "dueDate": "2030-02-28",
                       "lineItems": [{ "description": "Prè", "quantity": 1, "unitPrice": 3751.5 }],
                       "installments": [{ "amount": 1751.5, "dueDate": "2030-01-31" }, { "amount": 2000, "dueDate": "2030-02-28" }] });
    let invoice = app.invoice(client["id"].as_str().unwrap(), body).await;
    let id = invoice["id"].as_str().unwrap();
    ok(app.post(&format!("/v1/invoices/{id}/credit-notes"), &json!({ "amount": 100, "reason": "waiver" })).await).await;
    ok(app.post(&format!("/v1/invoices/{id}/payments"), &json!({ "amount": 500, "method": "cash" })).await).await;
    let pi = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let page = async |lang: &str| {
        let html = app.http.get(app.url(&format!("/pay/{pi}?lang={lang}"))).send().await.unwrap().text().await.unwrap();
        html.replace(['\u{202f}', '\u{a0}'], " ")
    };
    // Total, less the credit note and the payment, is what is left: 3 751,50 − 100,00 − 500,00.
    let french = page("fr").await;
    for row in [
        "Sous-total</td><td class=\"num\">3 751,50",
        "id=\"total\">HTG 3 751,50<",
        "Avoirs</td><td class=\"num\" id=\"credited\">−100,00<",
        "Déjà payé</td><td class=\"num\" id=\"paid-so-far\">−500,00<",
        "Reste à payer</td><td class=\"num\" id=\"left\">HTG 3 151,50<",
        "Échéance 1 sur 2",
    ] {
        assert!(french.contains(row), "{row}: {french}");
    }
    let creole = page("ht").await;
    assert!(
        creole.contains("Nòt kredi") && creole.contains("Rès pou peye") && creole.contains("Tranch 1 sou 2"),
        "{creole}"
    );
    assert!(!creole.contains("Vèsman"), "a payout's word is not an instalment's: {creole}");
});
