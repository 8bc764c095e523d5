//! Email over SMTP with lettre's tokio transport; TLS is rustls with bundled Mozilla roots.

use std::fmt;
use std::time::Duration;

use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use secrecy::{ExposeSecret, SecretString};

use super::transport::{Delivery, EmailSender, NotifyError};
use lajan_services::messages::OutgoingEmail;
use lajan_services::messages::one_line;

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain text throughout, credentials included: only for a relay on the same host or network.
    None,
    /// Plain connect, then STARTTLS; refuses to go on if the server does not offer it (port 587).
    StartTls,
    /// TLS from the first byte, "SMTPS" (port 465).
    Tls,
}

#[derive(Debug, Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<SecretString>,
    /// The From mailbox, e.g. `Lajan <billing@example.ht>`; its domain also names our Message-IDs.
    pub from: String,
    /// Bound on one whole send: connect, TLS, AUTH and the mail transaction.
    pub timeout: Duration,
}

/// Sends each email on a fresh connection: invoice mail is low volume, and no pool means no idle
/// connection for the server to drop under us.
pub struct SmtpSender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    endpoint: String,
    timeout: Duration,
}

impl fmt::Debug for SmtpSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpSender")
            .field("endpoint", &self.endpoint)
            .field("from", &self.from.to_string())
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl SmtpSender {
    pub fn new(config: SmtpConfig) -> Result<Self, NotifyError> {
        let host = config.host.trim();
        if host.is_empty() {
            return Err(NotifyError::NotConfigured("SMTP host is empty"));
        }
        if config.port == 0 {
            return Err(NotifyError::NotConfigured("SMTP port is 0"));
        }
        if config.timeout.is_zero() {
            return Err(NotifyError::NotConfigured("SMTP timeout is zero"));
        }
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|_| NotifyError::NotConfigured("SMTP from is not a mailbox like `Lajan <billing@example.ht>`"))?;
        let tls = match config.tls {
            SmtpTls::None => Tls::None,
            SmtpTls::StartTls => Tls::Required(tls_parameters(host)?),
            SmtpTls::Tls => Tls::Wrapper(tls_parameters(host)?),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(config.port)
            .tls(tls)
            .timeout(Some(config.timeout));
        match (config.username, config.password) {
            (Some(username), Some(password)) => {
                builder = builder.credentials(Credentials::new(username, password.expose_secret().to_owned()));
            }
            (None, None) => {}
            _ => return Err(NotifyError::NotConfigured("SMTP username and password must be set together")),
        }
        Ok(Self {
            transport: builder.build(),
            from,
            endpoint: format!("{host}:{}", config.port),
            timeout: config.timeout,
        })
    }

    fn message(&self, m: &OutgoingEmail) -> Result<(Message, String), NotifyError> {
        let to: Mailbox =
            m.to.trim()
                .parse()
                .map_err(|e| NotifyError::Permanent(format!("recipient {:?} is not an email address: {e}", m.to)))?;
        // Ours rather than the relay's, so the id we store is the one the recipient's copy carries.
        let message_id = format!("<{}@{}>", uuid::Uuid::now_v7().simple(), self.from.email.domain());
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(one_line(&m.subject))
            .message_id(Some(message_id.clone()))
            .multipart(MultiPart::alternative_plain_html(m.text.clone(), m.html.clone()))
            .map_err(|e| NotifyError::Permanent(format!("could not build the email: {e}")))?;
        Ok((message, message_id))
    }
}

fn tls_parameters(host: &str) -> Result<TlsParameters, NotifyError> {
    TlsParameters::new(host.to_owned())
        .map_err(|_| NotifyError::NotConfigured("SMTP host is not a name a TLS certificate can be checked against"))
}

/// SMTP reply codes that mean our credentials or policy are wrong, not the message: a 5xx like the
/// rest, but retrying after someone fixes the configuration is exactly what should happen.
const AUTH_CODES: [&str; 4] = ["530", "534", "535", "538"];

fn classify(endpoint: &str, e: &lettre::transport::smtp::Error) -> NotifyError {
    let text = format!("SMTP {endpoint}: {e}");
    let auth = e.status().is_some_and(|code| AUTH_CODES.contains(&code.to_string().as_str()));
    if e.is_permanent() && !auth { NotifyError::Permanent(text) } else { NotifyError::Transient(text) }
}

#[async_trait::async_trait]
impl EmailSender for SmtpSender {
    async fn send(&self, m: &OutgoingEmail) -> Result<Delivery, NotifyError> {
        let (message, message_id) = self.message(m)?;
        // lettre's timeout is per read/write; this one bounds a server that answers slowly but
        // steadily. Giving up after DATA may leave a delivered message that a retry duplicates;
        // SMTP offers no way to tell.
        let response = match tokio::time::timeout(self.timeout, self.transport.send(message)).await {
            Err(_) => {
                return Err(NotifyError::Transient(format!(
                    "SMTP {}: no answer within {:?}",
                    self.endpoint, self.timeout
                )));
            }
            Ok(result) => result.map_err(|e| classify(&self.endpoint, &e))?,
        };
        let mut reply = response.code().to_string();
        for line in response.message() {
            reply.push(' ');
            reply.push_str(line);
        }
        Ok(Delivery::Email { message_id, reply })
    }
}
