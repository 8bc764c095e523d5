//! SmtpSender against a loopback SMTP sink that records what it is sent.

use lajan_i18n::Lang;
use std::net::SocketAddr;
use std::time::Duration;

use lajan_services::messages::render::{InvoiceNotice, invoice_email};
use lajan_worker::notify::{Delivery, EmailSender, NotifyError, SmtpConfig, SmtpSender, SmtpTls};
use lajan_worker::testing::{SmtpMode, SmtpSink};
use secrecy::SecretString;
use tokio::net::TcpListener;

fn config(addr: SocketAddr) -> SmtpConfig {
    SmtpConfig {
        host: addr.ip().to_string(),
        port: addr.port(),
        tls: SmtpTls::None,
        username: None,
        password: None,
        from: "Lajan <billing@example.ht>".into(),
        timeout: Duration::from_secs(5),
    }
}

fn notice() -> InvoiceNotice {
    InvoiceNotice {
        lang: Lang::En,
        organization: "Fonkoze".into(),
        invoice_number: "INV-000042".into(),
        amount_due: "1250.00".into(),
        currency: "HTG".into(),
        due_date: "2026-12-01".into(),
        pay_url: "https://pay.example.ht/pay/pi_0123456789abcdef0123456789abcdef".into(),
        memo: Some("Kotizasyon pou mwa desanm.".into()),
    }
}

#[tokio::test]
async fn sends_an_invoice_email_as_text_and_html() {
    let sink = SmtpSink::start(SmtpMode::Accept).await;
    let sender = SmtpSender::new(config(sink.addr())).unwrap();
    let email = invoice_email(&notice(), "client@example.com");

    let delivery = sender.send(&email).await.unwrap();

    let Delivery::Email { message_id, reply } = &delivery else { panic!("not an email delivery: {delivery:?}") };
    assert!(message_id.starts_with('<') && message_id.ends_with("@example.ht>"), "{message_id}");
    assert_eq!(reply, "250 2.0.0 Ok: queued as SINK1");
    assert_eq!(delivery.provider_id(), message_id);

    let messages = sink.messages();
    assert_eq!(messages.len(), 1);
    let got = &messages[0];
    // The sink answers 501 to a path without angle brackets, so these were sent as `<...>`.
    assert_eq!(got.from, "billing@example.ht");
    assert_eq!(got.to, ["client@example.com"]);
    assert!(got.data.is_ascii(), "the sink offers no 8BITMIME, so the message must be 7-bit");

    assert_eq!(got.header("Subject").as_deref(), Some("Invoice INV-000042 from Fonkoze: HTG 1250.00 due 2026-12-01"));
    assert_eq!(got.subject(), Some(email.subject.clone()));
    assert_eq!(got.header("To").as_deref(), Some("client@example.com"));
    assert_eq!(got.header("From").as_deref(), Some("Lajan <billing@example.ht>"));
    assert_eq!(got.header("Message-ID").as_deref(), Some(message_id.as_str()));
    assert!(got.header("Content-Type").unwrap().starts_with("multipart/alternative"));

    let parts = got.parts();
    assert_eq!(parts.len(), 2, "{parts:?}");
    assert!(parts[0].0.starts_with("text/plain"), "{:?}", parts[0].0);
    assert!(parts[1].0.starts_with("text/html"), "{:?}", parts[1].0);
    for (_, text) in &parts {
        for needle in [
            "INV-000042",
            "HTG 1250.00",
            "2026-12-01",
            "Kotizasyon pou mwa desanm.",
            "https://pay.example.ht/pay/pi_0123456789abcdef0123456789abcdef",
        ] {
            assert!(text.contains(needle), "{needle:?} missing from\n{text}");
        }
    }
    assert!(parts[1].1.contains("href=\"https://pay.example.ht/pay/pi_0123456789abcdef0123456789abcdef\""));
    assert!(parts[1].1.contains(">Pay now</a>"));
    assert_eq!(got.text_body().as_deref(), Some(email.text.as_str()));
    assert_eq!(got.html_body().as_deref(), Some(email.html.as_str()));
}

#[tokio::test]
async fn non_ascii_names_survive_the_7bit_wire() {
    let sink = SmtpSink::start(SmtpMode::Accept).await;
    let sender = SmtpSender::new(config(sink.addr())).unwrap();
    let mut n = notice();
    n.organization = "Société Générale Haïtienne".into();
    let email = invoice_email(&n, "Jean-Bénédict <jb@example.com>");

    sender.send(&email).await.unwrap();

    let got = &sink.messages()[0];
    assert!(got.data.is_ascii());
    assert_eq!(got.to, ["jb@example.com"]);
    let subject = got.header("Subject").unwrap();
    assert!(subject.to_ascii_lowercase().contains("=?utf-8?"), "encoded words expected: {subject}");
    assert_eq!(got.subject(), Some(email.subject.clone()));
    assert_eq!(got.decoded_header("To").as_deref(), Some("Jean-Bénédict <jb@example.com>"));
    let parts = got.parts();
    assert!(parts.iter().all(|(_, text)| text.contains("Société Générale Haïtienne")), "{parts:?}");
}

#[tokio::test]
async fn authenticates_with_the_configured_credentials() {
    let sink = SmtpSink::start(SmtpMode::RequireAuth).await;
    let sender = SmtpSender::new(SmtpConfig {
        username: Some("billing".into()),
        password: Some(SecretString::from("hunter2")),
        ..config(sink.addr())
    })
    .unwrap();

    sender.send(&invoice_email(&notice(), "client@example.com")).await.unwrap();

    assert_eq!(sink.messages()[0].auth, Some(("billing".into(), "hunter2".into())));
}

#[tokio::test]
async fn rejected_credentials_are_worth_retrying_once_fixed() {
    let sink = SmtpSink::start(SmtpMode::RejectAuth).await;
    let sender = SmtpSender::new(SmtpConfig {
        username: Some("billing".into()),
        password: Some(SecretString::from("wrong")),
        ..config(sink.addr())
    })
    .unwrap();

    let err = sender.send(&invoice_email(&notice(), "client@example.com")).await.unwrap_err();

    assert!(matches!(&err, NotifyError::Transient(m) if m.contains("535")), "{err:?}");
    assert!(!err.to_string().contains("wrong"));
    assert!(sink.messages().is_empty());
}

#[tokio::test]
async fn a_rejected_recipient_is_permanent() {
    let sink = SmtpSink::start(SmtpMode::RejectRcpt).await;
    let sender = SmtpSender::new(config(sink.addr())).unwrap();

    let err = sender.send(&invoice_email(&notice(), "nobody@example.com")).await.unwrap_err();

    match &err {
        NotifyError::Permanent(m) => assert!(m.contains("550") && m.contains("User unknown"), "{m}"),
        other => panic!("expected Permanent, got {other:?}"),
    }
    assert!(!err.is_transient());
    assert!(sink.messages().is_empty());
}

#[tokio::test]
async fn an_unparseable_recipient_is_permanent() {
    let sink = SmtpSink::start(SmtpMode::Accept).await;
    let sender = SmtpSender::new(config(sink.addr())).unwrap();

    let err = sender.send(&invoice_email(&notice(), "not an address")).await.unwrap_err();

    assert!(matches!(err, NotifyError::Permanent(_)), "{err:?}");
}

#[tokio::test]
async fn nothing_listening_is_transient() {
    let addr = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap()
    };
    let sender = SmtpSender::new(config(addr)).unwrap();

    let err = sender.send(&invoice_email(&notice(), "client@example.com")).await.unwrap_err();

    assert!(err.is_transient(), "{err:?}");
}

#[tokio::test]
async fn a_server_that_never_answers_is_transient() {
    let sink = SmtpSink::start(SmtpMode::Silent).await;
    let sender = SmtpSender::new(SmtpConfig { timeout: Duration::from_millis(300), ..config(sink.addr()) }).unwrap();

    let started = std::time::Instant::now();
    let err = sender.send(&invoice_email(&notice(), "client@example.com")).await.unwrap_err();

    assert!(err.is_transient(), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(3), "took {:?}", started.elapsed());
}

#[test]
fn config_is_checked_up_front_and_its_debug_hides_the_password() {
    let addr: SocketAddr = "127.0.0.1:2525".parse().unwrap();
    let with_password =
        SmtpConfig { username: Some("billing".into()), password: Some(SecretString::from("hunter2")), ..config(addr) };
    assert!(!format!("{with_password:?}").contains("hunter2"));

    let missing_password = SmtpConfig { username: Some("billing".into()), ..config(addr) };
    assert!(matches!(SmtpSender::new(missing_password), Err(NotifyError::NotConfigured(_))));
    let bad_from = SmtpConfig { from: "billing at example".into(), ..config(addr) };
    assert!(matches!(SmtpSender::new(bad_from), Err(NotifyError::NotConfigured(_))));
    let no_host = SmtpConfig { host: " ".into(), ..config(addr) };
    assert!(matches!(SmtpSender::new(no_host), Err(NotifyError::NotConfigured(_))));
    // TLS parameters are built eagerly, so a rustls setup problem would show here, not mid-send.
    for tls in [SmtpTls::StartTls, SmtpTls::Tls] {
        let sender = SmtpSender::new(SmtpConfig { host: "smtp.example.ht".into(), tls, ..config(addr) }).unwrap();
        assert!(!format!("{sender:?}").contains("hunter2"));
    }
}
