//! Delivery receipts: the SMS provider calls back on `/callbacks/sms`, signed with the account's
//! auth token; a receipt moves its message forward only, once, with its event; a forged or
//! unsigned one is refused and changes nothing. On both backends, against the test provider.

use lajan_domain::Environment;
use lajan_services::messages::receipts::SmsAccount;
use lajan_testkit::{TestApp, backends, test_config};
use lajan_worker::notify::SmsConfig;
use lajan_worker::testing::{SmsProvider, wait_for};
use serde_json::{Value, json};
use std::time::Duration;

async fn with_sms(db: lajan_store::testing::TestStore, sms: &SmsProvider) -> TestApp {
    let mut config = test_config();
    config.workers.sms = Some(SmsConfig {
        base_url: sms.base_url(),
        account_sid: sms.account_sid().to_owned(),
        auth_token: sms.auth_token().to_owned().into(),
        from: "+15005550006".into(),
        timeout: Duration::from_secs(5),
    });
    config.services.sms_account =
        Some(SmsAccount { account_sid: sms.account_sid().to_owned(), auth_token: sms.auth_token().to_owned().into() });
    TestApp::spawn(db, config).await
}

async fn case(db: lajan_store::testing::TestStore) {
    let sms = SmsProvider::start().await;
    let app = with_sms(db, &sms).await;
    let live = app.key(None, Environment::Live, &["*"]).await;
    let get = async |path: &str| -> Value { app.get_with(&live, path).await.json().await.unwrap() };
    let text_an_invoice = async || {
        let body = json!({ "firstName": "Rose", "lastName": "Pyè", "phoneNumber": "+50937000002" });
        let client: Value = app.post_with(&live, "/v1/clients", &body).await.json().await.unwrap();
        let invoice = json!({ "clientId": client["id"], "dueDate": "2030-01-31",
                              "lineItems": [{ "description": "Loan instalment", "quantity": 1, "unitPrice": 500 }] });
        let invoice: Value = app.post_with(&live, "/v1/invoices", &invoice).await.json().await.unwrap();
        let send = format!("/v1/invoices/{}/send", invoice["id"].as_str().unwrap());
        let answer: Value = app.post_with(&live, &send, &json!({ "channels": ["sms"] })).await.json().await.unwrap();
        answer["messages"][0]["id"].as_str().unwrap().to_owned()
    };
    let events = async |kind: &str, id: &str| {
        let found = get(&format!("/v1/events?type={kind}")).await;
        found["data"].as_array().unwrap().iter().filter(|e| e["data"]["object"]["id"] == id).count()
    };

    let id = text_an_invoice().await;
    assert_eq!(app.workers().deliver_messages_once(lajan_domain::Timestamp::now()).await.unwrap(), 1);
    let sent = sms.messages().pop().unwrap();
    let callback = sent.other_params.iter().find(|(k, _)| k == "StatusCallback").map(|(_, v)| v.as_str());
    assert_eq!(callback, Some(format!("https://pay.lajan.test/callbacks/sms?message={id}").as_str()));
    assert_eq!(get(&format!("/v1/messages/{id}")).await["status"], "sent");

    // Forged (signed with another token) and unsigned receipts are refused and change nothing.
    let form = [("AccountSid", "AC123"), ("MessageSid", sent.sid.as_str()), ("MessageStatus", "failed")];
    let target = app.url(&format!("/callbacks/sms?message={id}"));
    let forged = lajan_services::messages::receipts::sms_signature("guess", callback.unwrap(), &owned(&form));
    let post = |signature: Option<String>| {
        let request = app.http.post(&target).form(&form);
        match signature {
            Some(s) => request.header("X-Twilio-Signature", s),
            None => request,
        }
    };
    for signature in [Some(forged), None, Some("Zm9v".to_owned())] {
        let r = post(signature).send().await.unwrap();
        assert_eq!(r.status(), 403);
        assert_eq!(r.json::<Value>().await.unwrap()["code"], "forbidden");
    }
    assert_eq!(get(&format!("/v1/messages/{id}")).await["status"], "sent", "nothing changed");

    // The provider's own receipt: delivered, once, with its event; a repeat and a late `sent`
    // change nothing.
    assert_eq!(sms.report_status(&sent.sid, "delivered", None, &app.url("")).await, 204);
    assert_eq!(sms.report_status(&sent.sid, "delivered", None, &app.url("")).await, 204);
    assert_eq!(sms.report_status(&sent.sid, "sent", None, &app.url("")).await, 204);
    let message = get(&format!("/v1/messages/{id}")).await;
    assert_eq!(
        (message["status"].as_str(), message["providerId"].as_str()),
        (Some("delivered"), Some(sent.sid.as_str()))
    );
    assert_eq!((events("message.sent", &id).await, events("message.delivered", &id).await), (1, 1));

    // A carrier that cannot reach the phone: undeliverable, with the reason, and message.failed.
    let lost = text_an_invoice().await;
    app.workers().deliver_messages_once(lajan_domain::Timestamp::now()).await.unwrap();
    let lost_sid = sms.messages().pop().unwrap().sid;
    assert_eq!(sms.report_status(&lost_sid, "undelivered", Some("30003"), &app.url("")).await, 204);
    let message = get(&format!("/v1/messages/{lost}")).await;
    assert_eq!(message["status"], "undeliverable");
    assert_eq!(message["failureReason"], "30003: Unreachable destination handset");
    assert_eq!(events("message.failed", &lost).await, 1);
    assert_eq!(sms.report_status(&lost_sid, "delivered", None, &app.url("")).await, 204);
    assert_eq!(get(&format!("/v1/messages/{lost}")).await["status"], "undeliverable", "an end is final");

    // A receipt that overtakes the worker's record of the send (the provider's answer is slow):
    // the message is delivered with both events, and the worker's late record changes nothing.
    let early = text_an_invoice().await;
    sms.set_delay(Duration::from_millis(500));
    let sending = app.workers().deliver_messages_once(lajan_domain::Timestamp::now());
    let receipt = async {
        let about_early =
            |m: &lajan_worker::testing::ReceivedSms| m.other_params.iter().any(|(_, v)| v.ends_with(&early));
        let taken = wait_for(|| sms.messages().into_iter().find(about_early), Duration::from_secs(5)).await;
        let taken = taken.expect("the provider took it");
        assert_eq!(sms.report_status(&taken.sid, "delivered", None, &app.url("")).await, 204);
        taken
    };
    let (delivered, taken) = tokio::join!(sending, receipt);
    assert_eq!(delivered.unwrap(), 1);
    let message = get(&format!("/v1/messages/{early}")).await;
    assert_eq!(
        (message["status"].as_str(), message["providerId"].as_str()),
        (Some("delivered"), Some(taken.sid.as_str()))
    );
    assert_eq!((events("message.sent", &early).await, events("message.delivered", &early).await), (1, 1));
    app.stop().await;
}

fn owned(form: &[(&str, &str)]) -> Vec<(String, String)> {
    form.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[tokio::test]
async fn receipts_move_messages_forward_and_forgeries_are_refused_sqlite() {
    case(backends::sqlite().await).await;
}

#[tokio::test]
async fn receipts_move_messages_forward_and_forgeries_are_refused_postgres() {
    let Some(db) = backends::postgres("receipts").await else { return };
    case(db).await;
}
