//! SmtpSender against a loopback SMTP sink that records what it is sent.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use lajan_worker::notify::render::{InvoiceNotice, invoice_email};
use lajan_worker::notify::{Delivery, EmailSender, NotifyError, SmtpConfig, SmtpSender, SmtpTls};
use secrecy::SecretString;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::net::tcp::OwnedWriteHalf;

use crate::mime;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Accept,
    /// Advertises AUTH PLAIN LOGIN and refuses MAIL until authenticated.
    Auth,
    /// Like `Auth`, but every AUTH fails with 535.
    AuthFails,
    RejectRcpt,
    /// Accepts the connection and never says anything.
    Silent,
}

#[derive(Debug, Default, Clone)]
struct Received {
    auth: Option<(String, String)>,
    mail_from: String,
    rcpt_to: Vec<String>,
    data: String,
}

struct Sink {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Sink {
    async fn start(mode: Mode) -> Sink {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let store = Arc::clone(&received);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let store = Arc::clone(&store);
                tokio::spawn(async move {
                    let _ = session(stream, mode, store).await;
                });
            }
        });
        Sink { addr, received }
    }

    fn messages(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

async fn reply(w: &mut OwnedWriteHalf, text: &str) -> std::io::Result<()> {
    w.write_all(text.as_bytes()).await?;
    w.write_all(b"\r\n").await
}

fn b64(s: &str) -> String {
    String::from_utf8(base64::engine::general_purpose::STANDARD.decode(s.trim()).unwrap()).unwrap()
}

async fn session(stream: tokio::net::TcpStream, mode: Mode, store: Arc<Mutex<Vec<Received>>>) -> std::io::Result<()> {
    let (r, mut w) = stream.into_split();
    let mut r = BufReader::new(r);
    if mode == Mode::Silent {
        let mut sink = String::new();
        while r.read_line(&mut sink).await? > 0 {}
        return Ok(());
    }
    let wants_auth = matches!(mode, Mode::Auth | Mode::AuthFails);
    reply(&mut w, "220 sink.test ESMTP").await?;
    let mut current = Received::default();
    let mut line = String::new();
    let mut read = async |r: &mut BufReader<_>| -> std::io::Result<Option<String>> {
        line.clear();
        if r.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        Ok(Some(line.trim_end_matches(['\r', '\n']).to_owned()))
    };
    while let Some(cmd) = read(&mut r).await? {
        let upper = cmd.to_ascii_uppercase();
        if upper.starts_with("EHLO") || upper.starts_with("HELO") {
            if wants_auth {
                reply(&mut w, "250-sink.test\r\n250-AUTH PLAIN LOGIN\r\n250 SIZE 1000000").await?;
            } else {
                reply(&mut w, "250-sink.test\r\n250 SIZE 1000000").await?;
            }
        } else if upper.starts_with("AUTH PLAIN") {
            let initial = cmd[10..].trim().to_owned();
            let encoded = if initial.is_empty() {
                reply(&mut w, "334 ").await?;
                read(&mut r).await?.unwrap_or_default()
            } else {
                initial
            };
            let decoded = b64(&encoded);
            let mut fields = decoded.split('\0').skip(1);
            let user = fields.next().unwrap_or_default().to_owned();
            let pass = fields.next().unwrap_or_default().to_owned();
            authenticate(&mut w, mode, &mut current, user, pass).await?;
        } else if upper.starts_with("AUTH LOGIN") {
            reply(&mut w, "334 VXNlcm5hbWU6").await?;
            let user = b64(&read(&mut r).await?.unwrap_or_default());
            reply(&mut w, "334 UGFzc3dvcmQ6").await?;
            let pass = b64(&read(&mut r).await?.unwrap_or_default());
            authenticate(&mut w, mode, &mut current, user, pass).await?;
        } else if upper.starts_with("MAIL FROM:") {
            if wants_auth && current.auth.is_none() {
                reply(&mut w, "530 5.7.0 Authentication required").await?;
                continue;
            }
            current.mail_from = cmd[10..].trim().to_owned();
            reply(&mut w, "250 2.1.0 Ok").await?;
        } else if upper.starts_with("RCPT TO:") {
            let rcpt = cmd[8..].trim().to_owned();
            if mode == Mode::RejectRcpt {
                reply(&mut w, &format!("550 5.1.1 {rcpt}: Recipient address rejected: User unknown")).await?;
            } else {
                current.rcpt_to.push(rcpt);
                reply(&mut w, "250 2.1.5 Ok").await?;
            }
        } else if upper == "DATA" {
            reply(&mut w, "354 End data with <CR><LF>.<CR><LF>").await?;
            let mut data = String::new();
            loop {
                let mut raw = String::new();
                if r.read_line(&mut raw).await? == 0 {
                    return Ok(());
                }
                if raw == ".\r\n" {
                    break;
                }
                // Undo dot-stuffing.
                data.push_str(raw.strip_prefix('.').unwrap_or(&raw));
            }
            current.data = data;
            let n = {
                let mut all = store.lock().unwrap();
                all.push(current.clone());
                all.len()
            };
            current = Received { auth: current.auth.take(), ..Received::default() };
            reply(&mut w, &format!("250 2.0.0 Ok: queued as SINK{n}")).await?;
        } else if upper == "RSET" {
            current = Received { auth: current.auth.take(), ..Received::default() };
            reply(&mut w, "250 2.0.0 Ok").await?;
        } else if upper == "NOOP" {
            reply(&mut w, "250 2.0.0 Ok").await?;
        } else if upper == "QUIT" {
            reply(&mut w, "221 2.0.0 Bye").await?;
            return Ok(());
        } else {
            reply(&mut w, "502 5.5.2 Error: command not recognized").await?;
        }
    }
    Ok(())
}

async fn authenticate(
    w: &mut OwnedWriteHalf,
    mode: Mode,
    current: &mut Received,
    user: String,
    pass: String,
) -> std::io::Result<()> {
    if mode == Mode::AuthFails {
        return reply(w, "535 5.7.8 Error: authentication failed").await;
    }
    current.auth = Some((user, pass));
    reply(w, "235 2.7.0 Authentication successful").await
}

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
    let sink = Sink::start(Mode::Accept).await;
    let sender = SmtpSender::new(config(sink.addr)).unwrap();
    let email = invoice_email(&notice(), "client@example.com");

    let delivery = sender.send(&email).await.unwrap();

    let Delivery::Email { message_id, reply } = &delivery else { panic!("not an email delivery: {delivery:?}") };
    assert!(message_id.starts_with('<') && message_id.ends_with("@example.ht>"), "{message_id}");
    assert_eq!(reply, "250 2.0.0 Ok: queued as SINK1");
    assert_eq!(delivery.provider_id(), message_id);

    let messages = sink.messages();
    assert_eq!(messages.len(), 1);
    let got = &messages[0];
    assert_eq!(got.mail_from, "<billing@example.ht>");
    assert_eq!(got.rcpt_to, ["<client@example.com>"]);
    assert!(got.data.is_ascii(), "the sink offers no 8BITMIME, so the message must be 7-bit");

    let parsed = mime::parse(&got.data);
    assert_eq!(parsed.header("Subject"), Some("Invoice INV-000042 from Fonkoze: HTG 1250.00 due 2026-12-01"));
    assert_eq!(parsed.header("To"), Some("client@example.com"));
    assert_eq!(parsed.header("From"), Some("Lajan <billing@example.ht>"));
    assert_eq!(parsed.header("Message-ID"), Some(message_id.as_str()));
    assert!(parsed.header("Content-Type").unwrap().starts_with("multipart/alternative"));

    let parts = mime::text_parts(&got.data);
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
}

#[tokio::test]
async fn non_ascii_names_survive_the_7bit_wire() {
    let sink = Sink::start(Mode::Accept).await;
    let sender = SmtpSender::new(config(sink.addr)).unwrap();
    let mut n = notice();
    n.organization = "Société Générale Haïtienne".into();
    let email = invoice_email(&n, "Jean-Bénédict <jb@example.com>");

    sender.send(&email).await.unwrap();

    let got = &sink.messages()[0];
    assert!(got.data.is_ascii());
    assert_eq!(got.rcpt_to, ["<jb@example.com>"]);
    let parsed = mime::parse(&got.data);
    let subject = parsed.header("Subject").unwrap();
    assert!(subject.to_ascii_lowercase().contains("=?utf-8?"), "encoded words expected: {subject}");
    assert_eq!(mime::decode_header(subject), email.subject);
    assert_eq!(mime::decode_header(parsed.header("To").unwrap()), "Jean-Bénédict <jb@example.com>");
    let parts = mime::text_parts(&got.data);
    assert!(parts.iter().all(|(_, text)| text.contains("Société Générale Haïtienne")), "{parts:?}");
}

#[tokio::test]
async fn authenticates_with_the_configured_credentials() {
    let sink = Sink::start(Mode::Auth).await;
    let sender = SmtpSender::new(SmtpConfig {
        username: Some("billing".into()),
        password: Some(SecretString::from("hunter2")),
        ..config(sink.addr)
    })
    .unwrap();

    sender.send(&invoice_email(&notice(), "client@example.com")).await.unwrap();

    assert_eq!(sink.messages()[0].auth, Some(("billing".into(), "hunter2".into())));
}

#[tokio::test]
async fn rejected_credentials_are_worth_retrying_once_fixed() {
    let sink = Sink::start(Mode::AuthFails).await;
    let sender = SmtpSender::new(SmtpConfig {
        username: Some("billing".into()),
        password: Some(SecretString::from("wrong")),
        ..config(sink.addr)
    })
    .unwrap();

    let err = sender.send(&invoice_email(&notice(), "client@example.com")).await.unwrap_err();

    assert!(matches!(&err, NotifyError::Transient(m) if m.contains("535")), "{err:?}");
    assert!(!err.to_string().contains("wrong"));
    assert!(sink.messages().is_empty());
}

#[tokio::test]
async fn a_rejected_recipient_is_permanent() {
    let sink = Sink::start(Mode::RejectRcpt).await;
    let sender = SmtpSender::new(config(sink.addr)).unwrap();

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
    let sink = Sink::start(Mode::Accept).await;
    let sender = SmtpSender::new(config(sink.addr)).unwrap();

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
    let sink = Sink::start(Mode::Silent).await;
    let sender = SmtpSender::new(SmtpConfig { timeout: Duration::from_millis(300), ..config(sink.addr) }).unwrap();

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
