//! Invitations to register a wallet: the approval of a payout to a client without one makes
//! the invitation due, the worker sends it once in the client's language (SMS, WhatsApp or
//! email) with a fresh link, resends it on the organization's schedule, stops when the client
//! registers or nothing waits any more; a person may send it again, but not every minute.

use crate::disbursements::{act, create};
use lajan_domain::{Environment, Timestamp};
use lajan_testkit::{TestApp, WALLET, expect_error};
use serde_json::{Value, json};

const DAY: i64 = 86_400_000;

async fn client(app: &TestApp, body: Value) -> String {
    let r = app.post("/v1/clients", &body).await;
    assert_eq!(r.status(), 201);
    r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned()
}

async fn get(app: &TestApp, path: &str) -> Value {
    app.get(path).await.json().await.unwrap()
}

async fn payout(app: &TestApp, client_id: &str, amount: f64, approve: bool) -> String {
    let body = json!({ "clientId": client_id, "assetAmount": amount, "assetCode": "USDC" });
    let r = app.post("/v1/payouts", &body).await;
    assert_eq!(r.status(), 201);
    let id = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    if approve {
        assert_eq!(app.post(&format!("/v1/payouts/{id}/approve"), &json!({})).await.status(), 200);
    }
    id
}

/// The sandbox messages sent to `client_id`, newest first.
async fn messages_to(app: &TestApp, client_id: &str) -> Vec<Value> {
    let all = get(app, "/v1/sandbox/messages?limit=100").await;
    all["data"].as_array().unwrap().iter().filter(|m| m["clientId"] == json!(client_id)).cloned().collect()
}

fn link_of(text: &str) -> &str {
    let start = text.find("https://pay.lajan.test/r/").expect("the message carries the link");
    text[start..].split_whitespace().next().unwrap()
}

async fn send_due(app: &TestApp, at: Timestamp) -> usize {
    app.workers().send_invitations_once(at).await.unwrap()
}

api_test!(an_approved_payout_invites_its_receiver_once_in_their_language_and_on_schedule, |app| {
    let settings = json!({ "invitationResendDays": 3, "invitationResends": 1 });
    assert_eq!(app.put("/v1/settings", &settings).await.status(), 200);
    let ana = client(app, json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" })).await;
    let pending = payout(app, &ana, 12.5, false).await;
    assert_eq!(send_due(app, Timestamp::now()).await, 0, "nothing is approved yet");
    expect_error(app.get(&format!("/v1/clients/{ana}/invitation")).await, 404, "not_found").await;

    assert_eq!(app.post(&format!("/v1/payouts/{pending}/approve"), &json!({})).await.status(), 200);
    let due = get(app, &format!("/v1/clients/{ana}/invitation")).await;
    assert_eq!((&due["status"], &due["sends"], &due["clientId"]), (&json!("invited"), &json!(0), &json!(ana)), "{due}");
    assert_eq!(send_due(app, Timestamp::now()).await, 1);
    assert_eq!(send_due(app, Timestamp::now()).await, 0, "sent once");

    let sent = messages_to(app, &ana).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let sms = &sent[0];
    assert_eq!(
        (&sms["channel"], &sms["to"], &sms["status"]),
        (&json!("sms"), &json!("+50937000001"), &json!("delivered"))
    );
    assert_eq!((&sms["template"], &sms["language"]), (&json!("invitation"), &json!("ht")), "{sms}");
    let text = sms["text"].as_str().unwrap();
    assert!(
        text.contains("Acme") && text.contains("12.50 USDC") && text.contains("voye"),
        "Creole, by default: {text}"
    );
    let first_link = link_of(text).to_owned();
    let token = first_link.rsplit('/').next().unwrap();
    assert_eq!(token.len(), 22, "128 random bits, URL-safe: {first_link}");
    assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{token}");

    let events = get(app, "/v1/events?type=client.invited").await;
    assert_eq!(events["pagination"]["total"], 1);
    let object = &events["data"][0]["data"]["object"];
    assert_eq!((&object["id"], &object["invitation"]["sends"]), (&json!(ana), &json!(1)), "{object}");
    let next = object["invitation"]["nextSendAt"].as_str().expect("a resend is scheduled");
    assert!(next > object["invitation"]["lastSentAt"].as_str().unwrap(), "{object}");

    // Another payout for Ana while she is invited: the same invitation, nothing sent now.
    payout(app, &ana, 2.0, true).await;
    assert_eq!(send_due(app, Timestamp::now()).await, 0);

    // The schedule: once more after three days (with a new link naming both payouts), then no more.
    assert_eq!(send_due(app, Timestamp::now().plus_millis(2 * DAY)).await, 0, "not yet");
    assert_eq!(send_due(app, Timestamp::now().plus_millis(3 * DAY + 60_000)).await, 1);
    let resent = &messages_to(app, &ana).await[0];
    let text = resent["text"].as_str().unwrap();
    assert!(text.contains("14.50 USDC"), "what waits now: {text}");
    assert_ne!(link_of(text), first_link, "each send has its own link");
    assert_eq!(send_due(app, Timestamp::now().plus_millis(30 * DAY)).await, 0, "invitationResends is 1");
    let spent = get(app, &format!("/v1/clients/{ana}/invitation")).await;
    assert_eq!((&spent["sends"], &spent["nextSendAt"]), (&json!(2), &Value::Null), "{spent}");

    // Registering stops it for good.
    assert_eq!(app.put(&format!("/v1/clients/{ana}"), &json!({ "walletAccountId": WALLET })).await.status(), 200);
    let registered = get(app, &format!("/v1/clients/{ana}/invitation")).await;
    assert_eq!(registered["status"], "registered", "{registered}");
    assert!(registered["registeredAt"].is_string(), "{registered}");
    assert_eq!(get(app, "/v1/events?type=client.invited").await["pagination"]["total"], 2);
});

api_test!(invitations_go_by_whatsapp_when_turned_on_else_by_email_in_the_clients_language, |app| {
    let rose =
        client(app, json!({ "firstName": "Rose", "lastName": "Pòl", "email": "rose@example.ht", "language": "fr" }))
            .await;
    payout(app, &rose, 7.0, true).await;
    assert_eq!(app.put("/v1/settings", &json!({ "whatsappInvitations": true })).await.status(), 200);
    let jak =
        client(app, json!({ "firstName": "Jak", "lastName": "Pyè", "phoneNumber": "+50937000002", "language": "en" }))
            .await;
    payout(app, &jak, 3.0, true).await;
    assert_eq!(send_due(app, Timestamp::now()).await, 2);

    let email = &messages_to(app, &rose).await[0];
    assert_eq!((&email["channel"], &email["to"]), (&json!("email"), &json!("rose@example.ht")));
    let subject = email["subject"].as_str().unwrap();
    assert!(subject.contains("Acme") && subject.contains("7.00 USDC"), "{subject}");
    assert!(email["html"].as_str().unwrap().contains("lang=\"fr\""), "French, as the client's language");
    assert!(link_of(email["text"].as_str().unwrap()).len() > 30);

    let whatsapp = &messages_to(app, &jak).await[0];
    assert_eq!((&whatsapp["channel"], &whatsapp["to"]), (&json!("whatsapp"), &json!("+50937000002")));
    assert!(whatsapp["text"].as_str().unwrap().contains("sending"), "English: {}", whatsapp["text"]);
});

api_test!(a_person_sends_an_invitation_again_but_not_twice_in_ten_minutes, |app| {
    expect_error(app.post("/v1/clients/cli_missing/invite", &json!({})).await, 404, "not_found").await;
    let ana = client(app, json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" })).await;
    expect_error(app.post(&format!("/v1/clients/{ana}/invite"), &json!({})).await, 400, "nothing_waiting").await;
    let waiting = payout(app, &ana, 4.0, false).await;
    expect_error(app.post(&format!("/v1/clients/{ana}/invite"), &json!({})).await, 400, "nothing_waiting").await;
    assert_eq!(app.post(&format!("/v1/payouts/{waiting}/approve"), &json!({})).await.status(), 200);

    let reader = app.key(None, Environment::Test, &["clients:read"]).await;
    expect_error(app.post_with(&reader, &format!("/v1/clients/{ana}/invite"), &json!({})).await, 403, "forbidden")
        .await;
    assert!(messages_to(app, &ana).await.is_empty(), "a refused request sends nothing");

    // Before the worker gets to it: the person's send is the first, and the worker's is skipped.
    let r = app.post(&format!("/v1/clients/{ana}/invite"), &json!({})).await;
    assert_eq!(r.status(), 200);
    let sent: Value = r.json().await.unwrap();
    assert_eq!(
        (&sent["object"], &sent["status"], &sent["sends"]),
        (&json!("invitation"), &json!("invited"), &json!(1))
    );
    assert_eq!(send_due(app, Timestamp::now()).await, 0);
    assert_eq!(messages_to(app, &ana).await.len(), 1);

    let again = app.post(&format!("/v1/clients/{ana}/invite"), &json!({})).await;
    let wait: u64 = again.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=600).contains(&wait), "{wait}");
    expect_error(again, 429, "rate_limited").await;
    assert_eq!(messages_to(app, &ana).await.len(), 1, "nothing more was sent");

    let bo = client(app, json!({ "firstName": "Bo", "lastName": "Pyè", "walletAccountId": WALLET })).await;
    expect_error(app.post(&format!("/v1/clients/{bo}/invite"), &json!({})).await, 400, "already_registered").await;
});

api_test!(an_invitation_expires_when_nothing_waits_and_comes_back_with_the_next_payout, |app| {
    let ana = client(app, json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" })).await;
    let first = payout(app, &ana, 4.0, true).await;
    assert_eq!(send_due(app, Timestamp::now()).await, 1);
    assert_eq!(app.post(&format!("/v1/payouts/{first}/cancel"), &json!({})).await.status(), 200);
    let expired = get(app, &format!("/v1/clients/{ana}/invitation")).await;
    assert_eq!((&expired["status"], &expired["nextSendAt"]), (&json!("expired"), &Value::Null), "{expired}");
    expect_error(app.post(&format!("/v1/clients/{ana}/invite"), &json!({})).await, 400, "nothing_waiting").await;
    assert_eq!(send_due(app, Timestamp::now().plus_millis(10 * DAY)).await, 0, "no resend of an expired invitation");

    payout(app, &ana, 6.0, true).await;
    let back = get(app, &format!("/v1/clients/{ana}/invitation")).await;
    assert_eq!((&back["status"], &back["sends"]), (&json!("invited"), &json!(0)), "{back}");
    assert_eq!(send_due(app, Timestamp::now()).await, 1);
    assert!(messages_to(app, &ana).await[0]["text"].as_str().unwrap().contains("6.00 USDC"));

    // The window closing expires it too.
    assert_eq!(app.put("/v1/settings", &json!({ "registrationWindowDays": 1 })).await.status(), 200);
    assert_eq!(app.workers().cancel_unregistered_once(Timestamp::now().plus_millis(DAY + 60_000)).await.unwrap(), 1);
    assert_eq!(get(app, &format!("/v1/clients/{ana}/invitation")).await["status"], "expired");
});

api_test!(a_disbursement_approval_invites_each_waiting_receiver_once, |app| {
    let ana = client(app, json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" })).await;
    let body = json!({ "name": "June", "assetCode": "USDC", "items": [
        { "walletAccountId": WALLET, "assetAmount": 5 },
        { "clientId": ana, "assetAmount": 7 },
        { "clientId": ana, "assetAmount": 1 },
        { "phoneNumber": "+50937000009", "firstName": "Rose", "lastName": "Pòl", "assetAmount": 2 },
    ] });
    let dsb = create(app, body).await["id"].as_str().unwrap().to_owned();
    assert_eq!(act(app, &app.key, &dsb, "submit").await.status(), 200);
    assert_eq!(send_due(app, Timestamp::now()).await, 0, "not approved yet");
    assert_eq!(act(app, &app.key, &dsb, "approve").await.status(), 200);
    assert_eq!(send_due(app, Timestamp::now()).await, 2, "Ana and Rose, once each");
    let to_ana = messages_to(app, &ana).await;
    assert_eq!(to_ana.len(), 1);
    assert!(to_ana[0]["text"].as_str().unwrap().contains("8.00 USDC"), "both of Ana's rows: {}", to_ana[0]["text"]);
});
