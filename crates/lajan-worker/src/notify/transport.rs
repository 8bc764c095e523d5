//! What every transport answers: a delivery the provider accepted, or an error sorted into
//! retry-later and give-up; the sender traits; and the stand-in for a transport not configured.

use lajan_services::messages::{OutgoingEmail, OutgoingSms};

/// What the provider said when it accepted a message, kept so support can trace a delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    Email {
        /// The `Message-ID` header we put on the message (with angle brackets).
        message_id: String,
        /// The server's final reply to DATA, e.g. `250 2.0.0 Ok: queued as 4Xk2`.
        reply: String,
    },
    Sms {
        /// The provider's message id (Twilio's `sid`, `SM...`).
        sid: String,
        /// The provider's initial status (`queued`, `accepted`, ...), when it sent one.
        status: Option<String>,
    },
}

impl Delivery {
    /// The identifier to store next to the notice: the Message-ID for email, the sid for SMS.
    pub fn provider_id(&self) -> &str {
        match self {
            Delivery::Email { message_id, .. } => message_id,
            Delivery::Sms { sid, .. } => sid,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum NotifyError {
    /// Worth retrying later: network trouble, timeouts, SMTP 4xx, HTTP 408/429/5xx, and rejected
    /// credentials (a deployment problem, fixed without changing the message).
    #[error("temporary delivery failure: {0}")]
    Transient(String),
    /// Retrying the same message will fail again: a rejected recipient, an invalid number, ...
    #[error("delivery failed: {0}")]
    Permanent(String),
    /// This deployment cannot send on this channel at all; the message itself is fine.
    #[error("notifications are not configured: {0}")]
    NotConfigured(&'static str),
}

impl NotifyError {
    /// Whether sending the same message again later may succeed without anyone intervening.
    pub fn is_transient(&self) -> bool {
        matches!(self, NotifyError::Transient(_))
    }
}

#[async_trait::async_trait]
pub trait EmailSender: Send + Sync {
    async fn send(&self, m: &OutgoingEmail) -> Result<Delivery, NotifyError>;
}

#[async_trait::async_trait]
pub trait SmsSender: Send + Sync {
    async fn send(&self, m: &OutgoingSms) -> Result<Delivery, NotifyError>;
}

/// Stands in for a channel this deployment has not set up, so the worker is wired the same way
/// either way and records why nothing went out. The string names the missing piece.
#[derive(Debug, Clone, Copy)]
pub struct Unconfigured(pub &'static str);

#[async_trait::async_trait]
impl EmailSender for Unconfigured {
    async fn send(&self, _: &OutgoingEmail) -> Result<Delivery, NotifyError> {
        Err(NotifyError::NotConfigured(self.0))
    }
}

#[async_trait::async_trait]
impl SmsSender for Unconfigured {
    async fn send(&self, _: &OutgoingSms) -> Result<Delivery, NotifyError> {
        Err(NotifyError::NotConfigured(self.0))
    }
}
