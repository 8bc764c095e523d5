//! A loopback SMTP server that records each message it accepts.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use super::mime;

/// How an [`SmtpSink`] treats its clients: the outcomes a sender has to sort into delivered,
/// retry later and give up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpMode {
    /// Takes every message, without AUTH.
    Accept,
    /// Advertises `AUTH PLAIN LOGIN` and answers MAIL with 530 until the client has authenticated.
    /// Any username and password are accepted; [`ReceivedEmail::auth`] shows which were used.
    RequireAuth,
    /// Like [`SmtpMode::RequireAuth`], but every AUTH fails with 535: wrong credentials.
    RejectAuth,
    /// Answers every RCPT with `550 5.1.1 ... User unknown`: a recipient that does not exist.
    RejectRcpt,
    /// Accepts connections and never says anything: a server that hangs.
    Silent,
}

/// A message the sink accepted: the SMTP envelope and the message as it crossed the wire.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReceivedEmail {
    /// The username and password of a successful AUTH on this connection.
    pub auth: Option<(String, String)>,
    /// The envelope sender (`MAIL FROM`), without the angle brackets; empty for the null sender.
    pub from: String,
    /// The envelope recipients (`RCPT TO`), without the angle brackets, in order.
    pub to: Vec<String>,
    /// The message as sent after DATA: headers and encoded body, CRLF line breaks, dot-stuffing
    /// undone. The sink offers no 8BITMIME or SMTPUTF8, so a client must send 7-bit text here.
    pub data: String,
}

impl ReceivedEmail {
    /// The header `name` (any case) as sent: unfolded, but encoded words left encoded, to check
    /// what a 7-bit-only server saw.
    pub fn header(&self, name: &str) -> Option<String> {
        mime::parse(&self.data).header(name).map(str::to_owned)
    }

    /// The header `name` with its RFC 2047 encoded words decoded, as a mail client shows it.
    pub fn decoded_header(&self, name: &str) -> Option<String> {
        mime::parse(&self.data).header(name).map(mime::decode_header)
    }

    /// The decoded Subject.
    pub fn subject(&self) -> Option<String> {
        self.decoded_header("Subject")
    }

    /// The first `text/plain` part, decoded from its transfer encoding, with `\n` line breaks.
    pub fn text_body(&self) -> Option<String> {
        self.first_part("text/plain")
    }

    /// The first `text/html` part, decoded from its transfer encoding, with `\n` line breaks.
    pub fn html_body(&self) -> Option<String> {
        self.first_part("text/html")
    }

    /// The content type and decoded text of every leaf part, in order (nested multiparts are
    /// looked into), to check a message's structure. Panics if the message is not valid MIME.
    pub fn parts(&self) -> Vec<(String, String)> {
        mime::leaf_parts(&self.data)
    }

    fn first_part(&self, media_type: &str) -> Option<String> {
        self.parts().into_iter().find_map(|(content_type, text)| {
            let essence = content_type.split(';').next().unwrap_or_default().trim();
            essence.eq_ignore_ascii_case(media_type).then_some(text)
        })
    }
}

/// An SMTP server on `127.0.0.1`, on a port of its own, that records what it is sent.
///
/// Plain text only (no STARTTLS): point the sender at [`SmtpSink::addr`] with TLS off. Each
/// connection is served on its own task, so a client may send several messages in one session or
/// use several sessions. The sink stops accepting connections when dropped: keep it alive for as
/// long as the test sends mail.
pub struct SmtpSink {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<ReceivedEmail>>>,
    accept_loop: JoinHandle<()>,
}

impl SmtpSink {
    /// Binds `127.0.0.1:0` and starts serving in `mode`. Needs a tokio runtime.
    pub async fn start(mode: SmtpMode) -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the SMTP sink on 127.0.0.1");
        let addr = listener.local_addr().expect("the SMTP sink's address");
        let received = Arc::new(Mutex::new(Vec::new()));
        let store = Arc::clone(&received);
        let accept_loop = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let store = Arc::clone(&store);
                tokio::spawn(async move {
                    // A client that hangs up mid-session is the client's test to fail, not ours.
                    let _ = session(stream, mode, store).await;
                });
            }
        });
        SmtpSink { addr, received, accept_loop }
    }

    /// Where to connect: `127.0.0.1` and the port the sink got.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The messages accepted so far (those the server answered DATA with 250), oldest first.
    pub fn messages(&self) -> Vec<ReceivedEmail> {
        self.received.lock().expect("SMTP sink lock").clone()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.accept_loop.abort();
    }
}

async fn reply(w: &mut OwnedWriteHalf, text: &str) -> std::io::Result<()> {
    w.write_all(text.as_bytes()).await?;
    w.write_all(b"\r\n").await
}

/// One line without its line break, or `None` at end of stream. Bytes that are not UTF-8 are
/// replaced rather than failing the session, so the test sees them.
async fn read_line(r: &mut BufReader<OwnedReadHalf>) -> std::io::Result<Option<String>> {
    let mut raw = Vec::new();
    if r.read_until(b'\n', &mut raw).await? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&raw).trim_end_matches(['\r', '\n']).to_owned()))
}

fn b64(s: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(s.trim()).ok()?;
    String::from_utf8(bytes).ok()
}

/// The address in a `<...>` path, ignoring any ESMTP parameters after it; `None` if the path is
/// not in angle brackets, which RFC 5321 requires.
fn path(argument: &str) -> Option<String> {
    let rest = argument.trim_start().strip_prefix('<')?;
    let (address, _parameters) = rest.split_once('>')?;
    Some(address.to_owned())
}

async fn session(stream: TcpStream, mode: SmtpMode, store: Arc<Mutex<Vec<ReceivedEmail>>>) -> std::io::Result<()> {
    let (r, mut w) = stream.into_split();
    let mut r = BufReader::new(r);
    if mode == SmtpMode::Silent {
        while read_line(&mut r).await?.is_some() {}
        return Ok(());
    }
    let wants_auth = matches!(mode, SmtpMode::RequireAuth | SmtpMode::RejectAuth);
    reply(&mut w, "220 sink.test ESMTP").await?;
    let mut current = ReceivedEmail::default();
    let mut in_transaction = false;
    while let Some(cmd) = read_line(&mut r).await? {
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
                read_line(&mut r).await?.unwrap_or_default()
            } else {
                initial
            };
            let Some(decoded) = b64(&encoded) else {
                reply(&mut w, "501 5.5.2 Cannot decode response").await?;
                continue;
            };
            let mut fields = decoded.split('\0').skip(1);
            let user = fields.next().unwrap_or_default().to_owned();
            let pass = fields.next().unwrap_or_default().to_owned();
            authenticate(&mut w, mode, &mut current, user, pass).await?;
        } else if upper.starts_with("AUTH LOGIN") {
            let initial = cmd[10..].trim().to_owned();
            let user = if initial.is_empty() {
                reply(&mut w, "334 VXNlcm5hbWU6").await?;
                read_line(&mut r).await?.unwrap_or_default()
            } else {
                initial
            };
            reply(&mut w, "334 UGFzc3dvcmQ6").await?;
            let pass = read_line(&mut r).await?.unwrap_or_default();
            let (Some(user), Some(pass)) = (b64(&user), b64(&pass)) else {
                reply(&mut w, "501 5.5.2 Cannot decode response").await?;
                continue;
            };
            authenticate(&mut w, mode, &mut current, user, pass).await?;
        } else if upper.starts_with("MAIL FROM:") {
            if wants_auth && current.auth.is_none() {
                reply(&mut w, "530 5.7.0 Authentication required").await?;
            } else if in_transaction {
                reply(&mut w, "503 5.5.1 Error: nested MAIL command").await?;
            } else if let Some(from) = path(&cmd[10..]) {
                current.from = from;
                in_transaction = true;
                reply(&mut w, "250 2.1.0 Ok").await?;
            } else {
                reply(&mut w, "501 5.1.7 Bad sender address syntax").await?;
            }
        } else if upper.starts_with("RCPT TO:") {
            if !in_transaction {
                reply(&mut w, "503 5.5.1 Error: need MAIL command").await?;
            } else if let Some(rcpt) = path(&cmd[8..]) {
                if mode == SmtpMode::RejectRcpt {
                    reply(&mut w, &format!("550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown")).await?;
                } else {
                    current.to.push(rcpt);
                    reply(&mut w, "250 2.1.5 Ok").await?;
                }
            } else {
                reply(&mut w, "501 5.1.3 Bad recipient address syntax").await?;
            }
        } else if upper == "DATA" {
            if current.to.is_empty() {
                reply(&mut w, "503 5.5.1 Error: need RCPT command").await?;
                continue;
            }
            reply(&mut w, "354 End data with <CR><LF>.<CR><LF>").await?;
            let mut data = Vec::new();
            loop {
                let mut raw = Vec::new();
                if r.read_until(b'\n', &mut raw).await? == 0 {
                    return Ok(());
                }
                if raw == b".\r\n" {
                    break;
                }
                // Undo dot-stuffing.
                data.extend_from_slice(raw.strip_prefix(b".").unwrap_or(&raw));
            }
            current.data = String::from_utf8_lossy(&data).into_owned();
            let n = {
                let mut all = store.lock().expect("SMTP sink lock");
                all.push(current.clone());
                all.len()
            };
            current = ReceivedEmail { auth: current.auth.take(), ..ReceivedEmail::default() };
            in_transaction = false;
            reply(&mut w, &format!("250 2.0.0 Ok: queued as SINK{n}")).await?;
        } else if upper == "RSET" {
            current = ReceivedEmail { auth: current.auth.take(), ..ReceivedEmail::default() };
            in_transaction = false;
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
    mode: SmtpMode,
    current: &mut ReceivedEmail,
    user: String,
    pass: String,
) -> std::io::Result<()> {
    if mode == SmtpMode::RejectAuth {
        return reply(w, "535 5.7.8 Error: authentication failed").await;
    }
    current.auth = Some((user, pass));
    reply(w, "235 2.7.0 Authentication successful").await
}
