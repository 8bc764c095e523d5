//! HttpSmsSender against the Twilio stand-in from `lajan_worker::testing`.

use std::net::SocketAddr;
use std::time::Duration;

use lajan_worker::notify::{Delivery, HttpSmsSender, NotifyError, OutgoingSms, SmsConfig, SmsSender};
use lajan_worker::testing::SmsProvider;
use secrecy::SecretString;

/// For configurations that never reach the stand-in; it has a token of its own.
const TOKEN: &str = "tok_s3cret_never_logged";

fn config(provider: &SmsProvider) -> SmsConfig {
    SmsConfig {
        // The trailing slash must not end up in the request path.
        base_url: format!("{}/", provider.base_url()),
        account_sid: provider.account_sid().into(),
        auth_token: SecretString::from(provider.auth_token()),
        from: "+15005550006".into(),
        timeout: Duration::from_secs(5),
    }
}

fn config_at(addr: SocketAddr) -> SmsConfig {
    SmsConfig {
        base_url: format!("http://{addr}/"),
        account_sid: "AC123".into(),
        auth_token: SecretString::from(TOKEN),
        from: "+15005550006".into(),
        timeout: Duration::from_secs(5),
    }
}

fn sms() -> OutgoingSms {
    OutgoingSms {
        to: "+50937000000".into(),
        body: "Fonkoze: invoice INV-000042, HTG 1250.00 due 2026-12-01. Pay: https://pay.example.ht/pay/pi_1 & more"
            .into(),
        status_callback: None,
    }
}

/// Sends one SMS to a fresh provider that answers it with `status` and `body`.
async fn send_to(status: u16, body: &str) -> (Result<Delivery, NotifyError>, SmsProvider) {
    let provider = SmsProvider::start().await;
    provider.respond_next(1, status, body);
    let result = HttpSmsSender::new(config(&provider)).unwrap().send(&sms()).await;
    (result, provider)
}

#[tokio::test]
async fn posts_a_twilio_style_form_with_basic_auth() {
    let provider = SmsProvider::start().await;
    let sender = HttpSmsSender::new(config(&provider)).unwrap();

    // The provider answers 201 only to a form POST on /2010-04-01/Accounts/AC123/Messages.json
    // with basic auth `AC123:<token>`: 404, 415 or 401 otherwise.
    let delivery = sender.send(&sms()).await.unwrap();

    let messages = provider.messages();
    assert_eq!(messages.len(), 1);
    let got = &messages[0];
    assert!(got.sid.starts_with("SM"), "{}", got.sid);
    assert_eq!(delivery, Delivery::Sms { sid: got.sid.clone(), status: Some("queued".into()) });
    assert_eq!(delivery.provider_id(), got.sid);
    assert_eq!(got.to, "+50937000000");
    assert_eq!(got.from, "+15005550006");
    assert_eq!(got.body, sms().body);
    assert_eq!(got.other_params, []);
    assert_eq!(provider.requests(), 1);
}

#[tokio::test]
async fn a_whatsapp_message_goes_from_the_same_number_as_whatsapp() {
    let provider = SmsProvider::start().await;
    let sender = HttpSmsSender::new(config(&provider)).unwrap();
    let to = format!("{}+50937000000", lajan_worker::notify::WHATSAPP);
    sender.send(&OutgoingSms { to, ..sms() }).await.unwrap();
    let got = &provider.messages()[0];
    assert_eq!((got.to.as_str(), got.from.as_str()), ("whatsapp:+50937000000", "whatsapp:+15005550006"));
}

#[tokio::test]
async fn an_invalid_number_is_permanent_with_the_providers_message() {
    let (result, provider) = send_to(
        400,
        r#"{"code":21211,"message":"Invalid 'To' Phone Number","more_info":"https://www.twilio.com/docs/errors/21211","status":400}"#,
    )
    .await;
    let err = result.unwrap_err();

    match &err {
        NotifyError::Permanent(m) => {
            assert!(m.contains("Invalid 'To' Phone Number"), "{m}");
            assert!(m.contains("21211"), "{m}");
            assert!(m.contains("400"), "{m}");
        }
        other => panic!("expected Permanent, got {other:?}"),
    }
    assert!(!format!("{err} {err:?}").contains(provider.auth_token()));
}

#[tokio::test]
async fn provider_outages_and_throttling_are_transient() {
    for status in [503, 429, 408] {
        let (result, _provider) = send_to(status, r#"{"code":20429,"message":"Too Many Requests"}"#).await;
        let err = result.unwrap_err();
        assert!(err.is_transient(), "{status}: {err:?}");
        assert!(err.to_string().contains(&status.to_string()), "{err}");
    }
    let (result, _provider) = send_to(502, "<html>upstream down</html>").await;
    let err = result.unwrap_err();
    assert!(matches!(&err, NotifyError::Transient(m) if m.contains("upstream down")), "{err:?}");
}

#[tokio::test]
async fn rejected_credentials_are_transient_and_do_not_leak_the_token() {
    let provider = SmsProvider::start().await;
    let wrong = "tok_wrong_and_also_secret";
    let sender = HttpSmsSender::new(SmsConfig { auth_token: SecretString::from(wrong), ..config(&provider) }).unwrap();

    let err = sender.send(&sms()).await.unwrap_err();

    assert!(matches!(&err, NotifyError::Transient(m) if m.contains("Authenticate")), "{err:?}");
    assert!(!format!("{err} {err:?}").contains(wrong));
    assert!(provider.messages().is_empty());
}

#[tokio::test]
async fn success_without_a_sid_is_not_retried() {
    // The provider took the message; retrying would text the customer twice.
    let (result, _provider) = send_to(201, r#"{"status":"queued"}"#).await;

    assert!(matches!(result, Err(NotifyError::Permanent(_))), "{result:?}");
}

#[tokio::test]
async fn sending_again_after_an_outage_delivers_once() {
    let provider = SmsProvider::start().await;
    provider.respond_next(2, 503, r#"{"code":20503,"message":"Service Unavailable"}"#);
    let sender = HttpSmsSender::new(config(&provider)).unwrap();

    assert!(sender.send(&sms()).await.unwrap_err().is_transient());
    assert!(sender.send(&sms()).await.unwrap_err().is_transient());
    let delivery = sender.send(&sms()).await.unwrap();

    assert_eq!(provider.requests(), 3);
    let messages = provider.messages();
    assert_eq!(messages.len(), 1);
    assert_eq!(delivery.provider_id(), messages[0].sid);
}

#[tokio::test]
async fn nothing_listening_is_transient() {
    let addr = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap()
    };

    let err = HttpSmsSender::new(config_at(addr)).unwrap().send(&sms()).await.unwrap_err();

    assert!(err.is_transient(), "{err:?}");
    assert!(!format!("{err} {err:?}").contains(TOKEN));
}

#[tokio::test]
async fn a_slow_provider_times_out_as_transient() {
    let provider = SmsProvider::start().await;
    provider.set_delay(Duration::from_secs(5));
    let sender = HttpSmsSender::new(SmsConfig { timeout: Duration::from_millis(300), ..config(&provider) }).unwrap();

    let err = sender.send(&sms()).await.unwrap_err();

    assert!(err.is_transient(), "{err:?}");
}

#[test]
fn config_is_checked_up_front_and_its_debug_hides_the_token() {
    let addr: SocketAddr = "127.0.0.1:1".parse().unwrap();
    let sender = HttpSmsSender::new(config_at(addr)).unwrap();
    assert!(!format!("{sender:?} {:?}", config_at(addr)).contains(TOKEN));

    for bad in [
        SmsConfig { base_url: "api.twilio.com".into(), ..config_at(addr) },
        SmsConfig { account_sid: "AC1/../x".into(), ..config_at(addr) },
        SmsConfig { auth_token: SecretString::from(""), ..config_at(addr) },
        SmsConfig { from: " ".into(), ..config_at(addr) },
    ] {
        assert!(matches!(HttpSmsSender::new(bad), Err(NotifyError::NotConfigured(_))));
    }
}
