//! HttpSmsSender against an axum stand-in for a Twilio-compatible provider.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::post;
use base64::Engine as _;
use lajan_worker::notify::{Delivery, HttpSmsSender, NotifyError, Sms, SmsConfig, SmsSender};
use secrecy::SecretString;

const TOKEN: &str = "tok_s3cret_never_logged";

#[derive(Debug, Clone)]
struct Seen {
    account: String,
    authorization: String,
    content_type: String,
    form: HashMap<String, String>,
}

#[derive(Clone)]
struct Provider {
    status: StatusCode,
    body: &'static str,
    delay: Duration,
    seen: Arc<Mutex<Vec<Seen>>>,
}

async fn messages(
    State(p): State<Provider>,
    Path(account): Path<String>,
    headers: HeaderMap,
    body: String,
) -> (StatusCode, [(header::HeaderName, &'static str); 1], &'static str) {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    p.seen.lock().unwrap().push(Seen {
        account,
        authorization: text(header::AUTHORIZATION),
        content_type: text(header::CONTENT_TYPE),
        form: serde_urlencoded::from_str(&body).unwrap(),
    });
    tokio::time::sleep(p.delay).await;
    (p.status, [(header::CONTENT_TYPE, "application/json")], p.body)
}

async fn provider(status: StatusCode, body: &'static str, delay: Duration) -> (SocketAddr, Arc<Mutex<Vec<Seen>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let state = Provider { status, body, delay, seen: Arc::clone(&seen) };
    let app = Router::new().route("/2010-04-01/Accounts/{account}/Messages.json", post(messages)).with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, seen)
}

fn config(addr: SocketAddr) -> SmsConfig {
    SmsConfig {
        base_url: format!("http://{addr}/"),
        account_sid: "AC123".into(),
        auth_token: SecretString::from(TOKEN),
        from: "+15005550006".into(),
        timeout: Duration::from_secs(5),
    }
}

fn sms() -> Sms {
    Sms {
        to: "+50937000000".into(),
        body: "Fonkoze: invoice INV-000042, HTG 1250.00 due 2026-12-01. Pay: https://pay.example.ht/pay/pi_1 & more"
            .into(),
    }
}

async fn send_to(status: StatusCode, body: &'static str) -> Result<Delivery, NotifyError> {
    let (addr, _) = provider(status, body, Duration::ZERO).await;
    HttpSmsSender::new(config(addr)).unwrap().send(&sms()).await
}

#[tokio::test]
async fn posts_a_twilio_style_form_with_basic_auth() {
    let (addr, seen) = provider(
        StatusCode::CREATED,
        r#"{"sid":"SM1","status":"queued","to":"+50937000000","error_code":null}"#,
        Duration::ZERO,
    )
    .await;
    let sender = HttpSmsSender::new(config(addr)).unwrap();

    let delivery = sender.send(&sms()).await.unwrap();

    assert_eq!(delivery, Delivery::Sms { sid: "SM1".into(), status: Some("queued".into()) });
    assert_eq!(delivery.provider_id(), "SM1");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    let got = &seen[0];
    assert_eq!(got.account, "AC123");
    let expected_auth = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("AC123:{TOKEN}")));
    assert_eq!(got.authorization, expected_auth);
    assert_eq!(got.content_type, "application/x-www-form-urlencoded");
    assert_eq!(got.form.get("To").map(String::as_str), Some("+50937000000"));
    assert_eq!(got.form.get("From").map(String::as_str), Some("+15005550006"));
    assert_eq!(got.form.get("Body"), Some(&sms().body));
    assert_eq!(got.form.len(), 3);
}

#[tokio::test]
async fn an_invalid_number_is_permanent_with_the_providers_message() {
    let err = send_to(
        StatusCode::BAD_REQUEST,
        r#"{"code":21211,"message":"Invalid 'To' Phone Number","more_info":"https://www.twilio.com/docs/errors/21211","status":400}"#,
    )
    .await
    .unwrap_err();

    match &err {
        NotifyError::Permanent(m) => {
            assert!(m.contains("Invalid 'To' Phone Number"), "{m}");
            assert!(m.contains("21211"), "{m}");
            assert!(m.contains("400"), "{m}");
        }
        other => panic!("expected Permanent, got {other:?}"),
    }
    assert!(!format!("{err} {err:?}").contains(TOKEN));
}

#[tokio::test]
async fn provider_outages_and_throttling_are_transient() {
    for status in [StatusCode::SERVICE_UNAVAILABLE, StatusCode::TOO_MANY_REQUESTS, StatusCode::REQUEST_TIMEOUT] {
        let err = send_to(status, r#"{"code":20429,"message":"Too Many Requests"}"#).await.unwrap_err();
        assert!(err.is_transient(), "{status}: {err:?}");
        assert!(err.to_string().contains(status.as_str()), "{err}");
    }
    let err = send_to(StatusCode::BAD_GATEWAY, "<html>upstream down</html>").await.unwrap_err();
    assert!(matches!(&err, NotifyError::Transient(m) if m.contains("upstream down")), "{err:?}");
}

#[tokio::test]
async fn rejected_credentials_are_transient_and_do_not_leak_the_token() {
    let err = send_to(StatusCode::UNAUTHORIZED, r#"{"code":20003,"message":"Authenticate"}"#).await.unwrap_err();

    assert!(matches!(&err, NotifyError::Transient(m) if m.contains("Authenticate")), "{err:?}");
    assert!(!format!("{err} {err:?}").contains(TOKEN));
}

#[tokio::test]
async fn success_without_a_sid_is_not_retried() {
    // The provider took the message; retrying would text the customer twice.
    let err = send_to(StatusCode::CREATED, r#"{"status":"queued"}"#).await.unwrap_err();

    assert!(matches!(err, NotifyError::Permanent(_)), "{err:?}");
}

#[tokio::test]
async fn nothing_listening_is_transient() {
    let addr = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap()
    };

    let err = HttpSmsSender::new(config(addr)).unwrap().send(&sms()).await.unwrap_err();

    assert!(err.is_transient(), "{err:?}");
    assert!(!format!("{err} {err:?}").contains(TOKEN));
}

#[tokio::test]
async fn a_slow_provider_times_out_as_transient() {
    let (addr, _) = provider(StatusCode::CREATED, r#"{"sid":"SM1"}"#, Duration::from_secs(5)).await;
    let sender = HttpSmsSender::new(SmsConfig { timeout: Duration::from_millis(300), ..config(addr) }).unwrap();

    let err = sender.send(&sms()).await.unwrap_err();

    assert!(err.is_transient(), "{err:?}");
}

#[test]
fn config_is_checked_up_front_and_its_debug_hides_the_token() {
    let addr: SocketAddr = "127.0.0.1:1".parse().unwrap();
    let sender = HttpSmsSender::new(config(addr)).unwrap();
    assert!(!format!("{sender:?} {:?}", config(addr)).contains(TOKEN));

    for bad in [
        SmsConfig { base_url: "api.twilio.com".into(), ..config(addr) },
        SmsConfig { account_sid: "AC1/../x".into(), ..config(addr) },
        SmsConfig { auth_token: SecretString::from(""), ..config(addr) },
        SmsConfig { from: " ".into(), ..config(addr) },
    ] {
        assert!(matches!(HttpSmsSender::new(bad), Err(NotifyError::NotConfigured(_))));
    }
}
