//! The registration page: a receiver with only a phone opens the link of their invitation,
//! confirms the phone with a code, answers the organization's question, gives a Stellar address
//! the network accepts, and their waiting payout is sent exactly once; wrong answers lock the
//! link until the organization unlocks it; every refusal is a 4xx page that changes nothing.

use lajan_domain::Timestamp;
use lajan_ledger::sandbox::magic;
use lajan_testkit::{TestApp, WALLET, expect_error};
use reqwest::Response;
use serde_json::{Value, json};

async fn get(app: &TestApp, path: &str) -> Value {
    app.get(path).await.json().await.unwrap()
}

/// A client (`body`) with an approved payout of 25 USDC waiting, invited: its id and link token.
pub(crate) async fn invited(app: &TestApp, body: Value) -> (String, String) {
    let client: Value = app.post("/v1/clients", &body).await.json().await.unwrap();
    let id = client["id"].as_str().unwrap().to_owned();
    let payout = json!({ "clientId": id, "assetAmount": 25, "assetCode": "USDC" });
    let payout: Value = app.post("/v1/payouts", &payout).await.json().await.unwrap();
    let approve = app.post(&format!("/v1/payouts/{}/approve", payout["id"].as_str().unwrap()), &json!({})).await;
    assert_eq!(approve.status(), 200);
    assert_eq!(app.workers().send_invitations_once(Timestamp::now()).await.unwrap(), 1);
    let token = link_of(app, &id).await;
    (id, token)
}

/// The text of the last sandbox message to client `id`.
pub(crate) async fn last_text(app: &TestApp, id: &str) -> String {
    let all = get(app, "/v1/sandbox/messages?limit=100").await;
    let to_client = all["data"].as_array().unwrap().iter().find(|m| m["clientId"] == json!(id)).cloned();
    to_client.expect("a message to the client")["text"].as_str().unwrap().to_owned()
}

/// The token of the registration link in the last message to client `id`.
pub(crate) async fn link_of(app: &TestApp, id: &str) -> String {
    last_text(app, id).await.split("/r/").nth(1).unwrap().split_whitespace().next().unwrap().to_owned()
}

/// Client `id` registers `WALLET` on link `token`: a code, its confirmation, the answer to the
/// organization's question when it has one.
pub(crate) async fn registers(app: &TestApp, id: &str, token: &str, answer: Option<&str>) {
    shown(submit(app, token, "code", &[]).await, 200).await;
    let code = code_in(&last_text(app, id).await);
    let (step, _) = shown(submit(app, token, "confirm", &[("code", &code)]).await, 200).await;
    assert_eq!(step, if answer.is_some() { "verify" } else { "wallet" }, "a question only when there is one");
    if let Some(answer) = answer {
        shown(submit(app, token, "verify", &[("answer", answer)]).await, 200).await;
    }
    let (step, _) = shown(submit(app, token, "wallet", &[("address", WALLET)]).await, 200).await;
    assert_eq!(step, "registered");
}

/// A disbursement from `csv`, submitted and approved: its id.
pub(crate) async fn approved_spreadsheet(app: &TestApp, csv: &str) -> String {
    let r = crate::disbursements::post_csv(app, "name=July&assetCode=USDC", csv).await;
    assert_eq!(r.status(), 201);
    let dsb = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    for verb in ["submit", "approve"] {
        assert_eq!(crate::disbursements::act(app, &app.key, &dsb, verb).await.status(), 200, "{verb}");
    }
    dsb
}

pub(crate) fn code_in(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).expect("a 6-digit code").to_owned()
}

async fn page(app: &TestApp, token: &str) -> Response {
    app.http.get(app.url(&format!("/r/{token}"))).send().await.unwrap()
}

pub(crate) async fn submit(app: &TestApp, token: &str, step: &str, form: &[(&str, &str)]) -> Response {
    app.http.post(app.url(&format!("/r/{token}/{step}"))).form(form).send().await.unwrap()
}

/// The page's step and its HTML, checking it is a page.
pub(crate) async fn shown(r: Response, status: u16) -> (String, String) {
    assert_eq!(r.status().as_u16(), status);
    let html = r.text().await.unwrap();
    let step = html.split("data-step=\"").nth(1).map(|s| s.split('"').next().unwrap().to_owned()).unwrap_or_default();
    (step, html)
}

api_test!(a_receiver_registers_through_the_page_and_is_paid_exactly_once, |app| {
    let wallets = json!({ "recommendedWallets": [{ "name": "Beans", "url": "https://www.beansapp.com", "assets": ["USDC"] },
                                                  { "name": "Lumen only", "url": "https://lumens.example", "assets": ["XLM"] }] });
    assert_eq!(app.put("/v1/settings", &wallets).await.status(), 200);
    let ana = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001",
                      "verification": { "type": "date_of_birth", "value": "1990-05-07" } });
    let (id, token) = invited(app, ana).await;

    let r = page(app, &token).await;
    let headers = r.headers().clone();
    let (step, html) = shown(r, 200).await;
    assert_eq!(step, "confirm_contact");
    assert!(
        html.contains("lang=\"ht\"") && html.contains("Acme ap voye ba ou") && html.contains("25,00 USDC"),
        "{html}"
    );
    assert!(html.contains("+509 •••• 0001"), "the phone, masked");
    // The wallets to install, from the first step: only those that receive what waits.
    assert!(html.contains("id=\"wallets\"") && html.contains("www.beansapp.com"), "{html}");
    assert!(!html.contains("lumens.example"), "a wallet that cannot receive USDC is no suggestion: {html}");
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("script-src 'nonce-") && policy.contains("frame-ancestors 'none'"), "{policy}");
    assert_eq!(
        (&headers["x-frame-options"], &headers["cache-control"]),
        (&"DENY".parse().unwrap(), &"no-store".parse().unwrap())
    );

    // Out of order: refused, nothing changed.
    let (step, html) = shown(submit(app, &token, "wallet", &[("address", WALLET)]).await, 400).await;
    assert!(step == "confirm_contact" && html.contains("Etap sa a fèt deja"), "{html}");

    // The code: by SMS, in Creole; one a minute. A bare POST (as curl sends it) asks for it too.
    let bare = app.http.post(app.url(&format!("/r/{token}/code"))).send().await.unwrap();
    let (step, html) = shown(bare, 200).await;
    assert!(step == "confirm_contact" && html.contains("one-time-code"), "{html}");
    let sms = last_text(app, &id).await;
    assert!(sms.contains("Acme: kòd ou se"), "{sms}");
    let code = code_in(&sms);
    let again = submit(app, &token, "code", &[]).await;
    assert!(again.headers().contains_key("retry-after"));
    shown(again, 429).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (_, html) = shown(submit(app, &token, "confirm", &[("code", wrong)]).await, 400).await;
    assert!(html.contains("Se pa kòd nou te voye a"), "{html}");
    assert!(html.contains(&format!("&#x2f;r&#x2f;{token}?lang=en")), "the language switch opens the page: {html}");
    let (step, _) = shown(submit(app, &token, "confirm", &[("code", &code)]).await, 200).await;
    assert_eq!(step, "verify");

    // The organization's question, written as people write it.
    let (_, html) = shown(submit(app, &token, "verify", &[("answer", "1990-5-8")]).await, 400).await;
    assert!(html.contains("Repons sa a pa koresponn"), "{html}");
    // Day first, as a Creole page reads it: the 7th of May.
    let (step, html) = shown(submit(app, &token, "verify", &[("answer", "07/05/1990")]).await, 200).await;
    assert!(step == "wallet" && html.contains("www.beansapp.com") && html.contains("Beans"), "{html}");

    // The address: its checksum, the account on the network, its trustline for USDC.
    let mut bad = WALLET.to_owned();
    bad.replace_range(55..56, if WALLET.ends_with('A') { "B" } else { "A" });
    let (_, html) = shown(submit(app, &token, "wallet", &[("address", &bad)]).await, 400).await;
    assert!(html.contains("Sa a pa yon adrès Stellar"), "{html}");
    let no_account = magic::address("op_no_destination");
    let (_, html) = shown(submit(app, &token, "wallet", &[("address", &no_account)]).await, 400).await;
    assert!(html.contains("poko egziste"), "{html}");
    let no_trust = magic::address("op_no_trust");
    let (_, html) = shown(submit(app, &token, "wallet", &[("address", &no_trust)]).await, 400).await;
    assert!(html.contains("poko ka resevwa USDC"), "{html}");
    assert_eq!(
        get(app, &format!("/v1/clients/{id}")).await["walletAccountId"],
        Value::Null,
        "refusals changed nothing"
    );
    assert_eq!(get(app, "/v1/payouts?status=awaiting_registration").await["pagination"]["total"], 1);

    let (step, html) = shown(submit(app, &token, "wallet", &[("address", WALLET)]).await, 200).await;
    assert!(step == "registered" && html.contains(WALLET) && html.contains("L ap vini"), "{html}");
    assert_eq!(get(app, &format!("/v1/clients/{id}")).await["walletAccountId"], json!(WALLET));
    let registered = get(app, "/v1/events?type=client.registered").await;
    assert_eq!(registered["data"][0]["data"]["object"]["invitation"]["status"], "registered", "{registered}");
    app.drain_payouts().await;
    app.drain_payouts().await;
    assert_eq!(get(app, "/v1/events?type=payout.completed").await["pagination"]["total"], 1, "paid exactly once");
    let (step, html) = shown(page(app, &token).await, 200).await;
    assert!(step == "registered" && html.contains("Li rive"), "later visits show the payout arrived: {html}");
    // The page cannot register twice.
    shown(submit(app, &token, "wallet", &[("address", &no_trust)]).await, 400).await;
    assert_eq!(get(app, &format!("/v1/clients/{id}")).await["walletAccountId"], json!(WALLET));
});

api_test!(five_wrong_answers_lock_the_link_until_the_organization_unlocks_it, |app| {
    let rose = json!({ "firstName": "Rose", "lastName": "Pòl", "email": "rose@example.ht", "language": "fr",
                       "verification": { "type": "pin", "value": "4321" } });
    let (id, token) = invited(app, rose).await;
    shown(submit(app, &token, "code", &[]).await, 200).await;
    let email = last_text(app, &id).await;
    assert!(email.contains("votre code est"), "by email, in French: {email}");
    let (step, _) = shown(submit(app, &token, "confirm", &[("code", &code_in(&email))]).await, 200).await;
    assert_eq!(step, "verify");

    let (_, html) = shown(submit(app, &token, "verify", &[("answer", "12")]).await, 400).await;
    assert!(html.contains("Vérifiez la façon"), "a malformed answer is not counted: {html}");
    for _ in 0..4 {
        shown(submit(app, &token, "verify", &[("answer", "1111")]).await, 400).await;
    }
    let (step, html) = shown(submit(app, &token, "verify", &[("answer", "1111")]).await, 403).await;
    assert!(step == "locked" && html.contains("Trop de mauvaises réponses"), "{html}");
    let (step, _) = shown(submit(app, &token, "verify", &[("answer", "4321")]).await, 400).await;
    assert_eq!(step, "locked", "even the right answer waits for the unlock");
    let locked = get(app, "/v1/events?type=client.verification_locked").await;
    assert_eq!(locked["pagination"]["total"], 1);
    assert_eq!(get(app, &format!("/v1/clients/{id}/invitation")).await["status"], "locked");
    expect_error(app.post(&format!("/v1/clients/{id}/invite"), &json!({})).await, 400, "invitation_locked").await;

    let unlocked = app.post(&format!("/v1/clients/{id}/invitation/unlock"), &json!({})).await;
    assert_eq!(unlocked.status(), 200);
    assert_eq!(unlocked.json::<Value>().await.unwrap()["status"], "invited");
    expect_error(app.post(&format!("/v1/clients/{id}/invitation/unlock"), &json!({})).await, 400, "not_locked").await;
    assert_eq!(get(app, "/v1/events?type=client.verification_unlocked").await["pagination"]["total"], 1);
    let (step, _) = shown(submit(app, &token, "verify", &[("answer", "4321")]).await, 200).await;
    assert_eq!(step, "wallet");
});

api_test!(a_link_that_opens_nothing_is_a_page_that_says_so, |app| {
    let (step, html) = shown(page(app, "AAAAAAAAAAAAAAAAAAAAAA").await, 404).await;
    assert!(step.is_empty() && html.contains("Lyen sa a pa mache"), "{html}");
    shown(page(app, "not-a-token").await, 404).await;
    let (client, token) =
        invited(app, json!({ "firstName": "Jak", "lastName": "Pyè", "phoneNumber": "+50937000002" })).await;
    let (_, html) = shown(app.http.get(app.url(&format!("/r/{token}?lang=en"))).send().await.unwrap(), 200).await;
    assert!(html.contains("Acme is sending you") && html.contains("lang=\"en\""), "{html}");
    let waiting = get(app, "/v1/payouts?status=awaiting_registration").await;
    let payout = waiting["data"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post(&format!("/v1/payouts/{payout}/cancel"), &json!({})).await.status(), 200);
    let (_, html) = shown(page(app, &token).await, 410).await;
    assert!(html.contains("Lyen sa a pa mache"), "{html}");
    shown(submit(app, &token, "code", &[]).await, 410).await;
    assert!(!last_text(app, &client).await.contains("kòd"), "no code for an expired link");
});

api_test!(a_spreadsheet_pays_wallets_at_once_and_phones_once_their_receivers_register, |app| {
    let csv = format!(
        "walletAccountId,phoneNumber,firstName,lastName,verification,assetAmount\n\
         {WALLET},,,,,5\n\
         ,+50937000011,Rose,Pòl,pin:2468,7\n\
         ,+50937000012,Jak,Pyè,,3\n"
    );
    let dsb = approved_spreadsheet(app, &csv).await;
    app.drain_payouts().await;
    app.drain_payouts().await;
    assert_eq!(app.workers().send_invitations_once(Timestamp::now()).await.unwrap(), 2, "Rose and Jak");
    let d = get(app, &format!("/v1/disbursements/{dsb}")).await;
    assert_eq!((&d["counts"]["sent"], &d["counts"]["awaitingRegistration"]), (&json!(1), &json!(2)), "{d}");

    let items = get(app, &format!("/v1/disbursements/{dsb}/items")).await;
    for (row, answer) in [(1, Some("2468")), (2, None)] {
        let client = items["data"][row]["clientId"].as_str().unwrap().to_owned();
        let token = link_of(app, &client).await;
        registers(app, &client, &token, answer).await;
    }
    app.drain_payouts().await;
    app.drain_payouts().await;
    let done = get(app, &format!("/v1/disbursements/{dsb}")).await;
    assert_eq!((&done["status"], &done["counts"]["sent"]), (&json!("completed"), &json!(3)), "{done}");
    assert_eq!(get(app, "/v1/events?type=payout.completed").await["pagination"]["total"], 3, "each row paid once");
});

api_test!(a_receiver_at_an_exchange_gives_the_memo_with_the_address, |app| {
    let (id, token) =
        invited(app, json!({ "firstName": "Jak", "lastName": "Pyè", "phoneNumber": "+50937000003" })).await;
    shown(submit(app, &token, "code", &[]).await, 200).await;
    let code = code_in(&last_text(app, &id).await);
    let (step, html) = shown(submit(app, &token, "confirm", &[("code", &code)]).await, 200).await;
    assert!(step == "wallet" && html.contains("name=\"memo\"") && html.contains("Memo (sèlman si"), "{html}");

    // A memo the network cannot carry is refused before anything is checked or stored.
    let long = "x".repeat(29);
    let (step, html) = shown(submit(app, &token, "wallet", &[("address", WALLET), ("memo", &long)]).await, 400).await;
    assert!(step == "wallet" && html.contains("Nou pa ka itilize memo sa a"), "{html}");
    assert_eq!(get(app, &format!("/v1/clients/{id}")).await["walletAccountId"], Value::Null);

    let (step, html) =
        shown(submit(app, &token, "wallet", &[("address", WALLET), ("memo", " 987654 ")]).await, 200).await;
    assert!(step == "registered" && html.contains("Memo: 987654"), "{html}");
    let client = get(app, &format!("/v1/clients/{id}")).await;
    assert_eq!((&client["walletMemo"], &client["walletMemoType"]), (&json!("987654"), &json!("id")), "{client}");
    let payouts = get(app, &format!("/v1/payouts?clientId={id}")).await;
    let payout = get(app, &format!("/v1/payouts/{}", payouts["data"][0]["id"].as_str().unwrap())).await;
    assert_eq!((&payout["walletMemo"], &payout["execStatus"]), (&json!("987654"), &json!("ready_to_send")), "{payout}");
    app.drain_payouts().await;
    assert_eq!(get(app, "/v1/events?type=payout.completed").await["pagination"]["total"], 1);
});
