//! The notification outbox: the messages an invoice's `send` queues, and their delivery by the
//! worker. Sandbox messages are kept for inspection and never delivered.

use crate::invoices::InvoiceDetail;
use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::{Tenant, Timestamp};

/// A notification to queue with an invoice's `send`.
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
}

impl Channel {
    pub const fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Sms => "sms",
        }
    }
}

impl std::str::FromStr for Channel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "email" => Ok(Channel::Email),
            "sms" => Ok(Channel::Sms),
            other => Err(format!("unknown channel {other:?}: expected email or sms")),
        }
    }
}

/// A queued or delivered notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub id: String,
    pub tenant: Tenant,
    pub invoice_id: Option<String>,
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

/// How a delivery attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOutcome {
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

/// Renders the messages of a send from the invoice as it is inside the send's transaction.
pub type MessagesFor<'a> = &'a (dyn Fn(&InvoiceDetail) -> Result<Vec<NewMessage>, lajan_domain::Invalid> + Send + Sync);

#[async_trait]
pub trait MessageStore: Send + Sync {
    /// Sends an invoice: the `send` transition, its event, and the messages `render` makes,
    /// in one transaction. Live messages are queued for delivery; sandbox ones are only kept.
    async fn send_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        render: MessagesFor<'_>,
        event: EventFor<'_, InvoiceDetail>,
        idempotency: Option<IdempotentResponse<'_, (InvoiceDetail, Vec<NewMessage>)>>,
    ) -> StoreResult<(InvoiceDetail, Vec<NewMessage>)>;

    async fn list_messages(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<Message>>;

    /// Claims up to `limit` queued messages that are due, so no other worker delivers them
    /// until `lease_ms` has passed.
    async fn claim_messages(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<Message>>;

    async fn finish_message(&self, id: &str, at: Timestamp, outcome: &DeliveryOutcome) -> StoreResult<()>;
}
