//! SMS through a Twilio-compatible HTTP API (`POST /2010-04-01/Accounts/{sid}/Messages.json`).

use std::time::Duration;

use lajan_store::redact_url;
use reqwest::StatusCode;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

use super::transport::{Delivery, NotifyError, SmsSender};
use lajan_services::messages::OutgoingSms;

/// The address prefix of a WhatsApp message in a Twilio-compatible API: a `To` that carries it is
/// sent from the same number as WhatsApp (the number must be enabled for it at the provider).
pub const WHATSAPP: &str = "whatsapp:";

#[derive(Clone)]
pub struct SmsConfig {
    /// Scheme and host, e.g. `https://api.twilio.com`; a trailing slash is fine.
    pub base_url: String,
    pub account_sid: String,
    pub auth_token: SecretString,
    /// The sending number (E.164) or alphanumeric sender id.
    pub from: String,
    /// Bound on one whole request, connect to last byte of the reply.
    pub timeout: Duration,
}

/// The base URL without the credentials it may carry; the token is `[REDACTED]` already.
impl std::fmt::Debug for SmsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmsConfig")
            .field("base_url", &redact_url(&self.base_url))
            .field("account_sid", &self.account_sid)
            .field("auth_token", &self.auth_token)
            .field("from", &self.from)
            .field("timeout", &self.timeout)
            .finish()
    }
}

#[derive(Debug)]
pub struct HttpSmsSender {
    client: reqwest::Client,
    url: Endpoint,
    account_sid: String,
    auth_token: SecretString,
    from: String,
}

impl HttpSmsSender {
    pub fn new(config: SmsConfig) -> Result<Self, NotifyError> {
        let base_url = config.base_url.trim().trim_end_matches('/');
        if !(base_url.starts_with("https://") || base_url.starts_with("http://")) {
            return Err(NotifyError::NotConfigured("SMS base_url must start with https:// or http://"));
        }
        // It goes into the URL path unescaped.
        if config.account_sid.is_empty() || !config.account_sid.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(NotifyError::NotConfigured("SMS account_sid must be non-empty and alphanumeric"));
        }
        if config.auth_token.expose_secret().is_empty() {
            return Err(NotifyError::NotConfigured("SMS auth_token is empty"));
        }
        if config.from.trim().is_empty() {
            return Err(NotifyError::NotConfigured("SMS from is empty"));
        }
        if config.timeout.is_zero() {
            return Err(NotifyError::NotConfigured("SMS timeout is zero"));
        }
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            // A redirect would turn the POST into a GET (and Twilio answers a GET on this path
            // with a message list): surface a wrong base_url instead of following it.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("lajan-worker/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|_| NotifyError::NotConfigured("SMS HTTP client could not be built"))?;
        Ok(Self {
            client,
            url: Endpoint(format!("{base_url}/2010-04-01/Accounts/{}/Messages.json", config.account_sid)),
            account_sid: config.account_sid,
            auth_token: config.auth_token,
            from: config.from.trim().to_owned(),
        })
    }

    /// Error text for the logs and the notice record: the provider's own words where it gave
    /// some, and never the token, even if something upstream echoed it back.
    fn describe(&self, what: &str) -> String {
        let token = self.auth_token.expose_secret();
        let text = format!("SMS provider {}: {what}", self.url);
        if token.is_empty() { text } else { text.replace(token, "[redacted]") }
    }
}

/// The provider's messages URL, shown (in `Debug` and error texts) without its credentials.
struct Endpoint(String);

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&redact_url(&self.0))
    }
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", redact_url(&self.0))
    }
}

/// The Messages resource's form: `StatusCallback` only when a receipt is wanted.
#[derive(serde::Serialize)]
struct SmsForm<'a> {
    #[serde(rename = "To")]
    to: &'a str,
    #[serde(rename = "From")]
    from: &'a str,
    #[serde(rename = "Body")]
    body: &'a str,
    #[serde(rename = "StatusCallback", skip_serializing_if = "Option::is_none")]
    status_callback: Option<&'a str>,
}

#[derive(Deserialize)]
struct Accepted {
    sid: Option<String>,
    status: Option<String>,
}

/// Twilio's error body: `{"code": 21211, "message": "Invalid 'To' Phone Number", ...}`.
#[derive(Deserialize)]
struct Rejected {
    code: Option<serde_json::Value>,
    message: Option<String>,
}

fn rejection_text(status: StatusCode, body: &[u8]) -> String {
    let mut text = format!("answered {status}");
    match serde_json::from_slice::<Rejected>(body) {
        Ok(Rejected { code, message: Some(message) }) => {
            text.push_str(": ");
            text.push_str(message.trim());
            match code {
                Some(serde_json::Value::String(code)) => text.push_str(&format!(" (code {code})")),
                Some(code @ serde_json::Value::Number(_)) => text.push_str(&format!(" (code {code})")),
                _ => {}
            }
        }
        _ => {
            let body = String::from_utf8_lossy(body);
            let body = lajan_services::messages::one_line(&body);
            if !body.is_empty() {
                text.push_str(": ");
                text.extend(body.chars().take(300));
            }
        }
    }
    text
}

#[async_trait::async_trait]
impl SmsSender for HttpSmsSender {
    async fn send(&self, m: &OutgoingSms) -> Result<Delivery, NotifyError> {
        let from =
            if m.to.trim().starts_with(WHATSAPP) { format!("{WHATSAPP}{}", self.from) } else { self.from.clone() };
        let response = self
            .client
            .post(&self.url.0)
            .basic_auth(&self.account_sid, Some(self.auth_token.expose_secret()))
            .form(&SmsForm {
                to: m.to.trim(),
                from: &from,
                body: &m.body,
                status_callback: m.status_callback.as_deref(),
            })
            .send()
            .await
            .map_err(|e| NotifyError::Transient(self.describe(&error_chain(&e.without_url()))))?;
        let status = response.status();
        let body = response.bytes().await;

        if status.is_success() {
            // From here on the provider has taken the message: a retry would text the customer
            // twice, so anything odd in the reply is reported as permanent.
            let body = body.map_err(|e| {
                NotifyError::Permanent(self.describe(&format!("accepted ({status}) but the reply was lost: {e}")))
            })?;
            return match serde_json::from_slice::<Accepted>(&body) {
                Ok(Accepted { sid: Some(sid), status }) if !sid.trim().is_empty() => {
                    Ok(Delivery::Sms { sid: sid.trim().to_owned(), status })
                }
                _ => {
                    Err(NotifyError::Permanent(self.describe(&format!("accepted ({status}) but sent no message sid"))))
                }
            };
        }

        let text = self.describe(&rejection_text(status, body.as_deref().unwrap_or_default()));
        Err(match status {
            // 401: our credentials are wrong, not the message; retry once they are fixed.
            StatusCode::REQUEST_TIMEOUT | StatusCode::TOO_MANY_REQUESTS | StatusCode::UNAUTHORIZED => {
                NotifyError::Transient(text)
            }
            s if s.is_client_error() => NotifyError::Permanent(text),
            // 5xx, and 1xx/3xx that only a misconfigured base_url would produce.
            _ => NotifyError::Transient(text),
        })
    }
}

/// reqwest's Display stops at "error sending request"; the cause (refused, timed out, TLS) is
/// further down the chain.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let line = cause.to_string();
        if !text.contains(&line) {
            text.push_str(": ");
            text.push_str(&line);
        }
        source = cause.source();
    }
    text
}
