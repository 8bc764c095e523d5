//! Customer notifications as the outbox keeps them: the channel, a message to queue with an
//! invoice's send, a queued or delivered message, and how a delivery attempt ended.

use crate::{Tenant, Timestamp};

/// A notification to queue with an invoice's `send` or an invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    pub id: String,
    pub channel: Channel,
    pub recipient: String,
    pub subject: Option<String>,
    pub body_text: String,
    pub body_html: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    Email,
    Sms,
    /// A WhatsApp message through the SMS provider's API (an invitation, when the organization
    /// turns it on).
    Whatsapp,
}

impl Channel {
    pub const ALL: [Channel; 3] = [Channel::Email, Channel::Sms, Channel::Whatsapp];
    /// The channels an invoice is sent by.
    pub const INVOICE: [Channel; 2] = [Channel::Email, Channel::Sms];

    pub const fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Sms => "sms",
            Channel::Whatsapp => "whatsapp",
        }
    }
}

impl std::str::FromStr for Channel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "email" => Ok(Channel::Email),
            "sms" => Ok(Channel::Sms),
            "whatsapp" => Ok(Channel::Whatsapp),
            other => Err(format!("unknown channel {other:?}: expected email, sms or whatsapp")),
        }
    }
}

/// A queued or delivered notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub id: String,
    pub tenant: Tenant,
    pub invoice_id: Option<String>,
    /// The client it went to, when it is about one (an invitation).
    pub client_id: Option<String>,
    pub channel: Channel,
    pub recipient: String,
    pub subject: Option<String>,
    pub body_text: String,
    pub body_html: Option<String>,
    /// `sandbox` (kept, never delivered), `queued`, `sent` or `failed`.
    pub status: String,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub created_at: Timestamp,
    pub sent_at: Option<Timestamp>,
}

/// How an attempt to hand a message to its provider ended (a webhook's is
/// [`crate::webhook::DeliveryOutcome`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendOutcome {
    Sent {
        provider_id: Option<String>,
    },
    /// Try again at `retry_at`.
    Retry {
        error: String,
        retry_at: Timestamp,
    },
    Failed {
        error: String,
    },
}
