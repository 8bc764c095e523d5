//! The notification outbox: the messages an invoice's `send` queues, and their delivery by the
//! worker. Sandbox messages are kept for inspection and never delivered.

use crate::incoming_payments::PaidEvents;
use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::message::{Channel, Message, MessageStatus, NewMessage, SendOutcome};
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::{Tenant, Timestamp};

/// Renders the messages of a send from the invoice as it is inside the send's transaction.
pub type MessagesFor<'a> = &'a (dyn Fn(&InvoiceDetail) -> Result<Vec<NewMessage>, lajan_domain::Invalid> + Send + Sync);

/// How an invoice is sent: the messages `render` makes, and the events of the payment from
/// the client's credit balance its first send makes when it asks for one (`applyCreditBalance`).
pub struct InvoiceSending<'a> {
    pub render: MessagesFor<'a>,
    pub paid: &'a PaidEvents<'a>,
    /// The message's view, for the `message.*` events of the messages it queues.
    pub message_event: EventFor<'a, Message>,
}

/// A message queued with a change, and its view for the `message.*` events it records.
#[derive(Clone, Copy)]
pub struct Outgoing<'a> {
    pub message: &'a NewMessage,
    pub event: EventFor<'a, Message>,
}

/// A provider's report of where a message is (a delivery receipt).
#[derive(Debug, Clone, Copy)]
pub struct ProviderReport<'a> {
    /// Our id, when the callback URL carries it.
    pub message_id: Option<&'a str>,
    /// The provider's id for the message.
    pub provider_id: &'a str,
    pub status: MessageStatus,
    /// Why it failed, in the provider's words.
    pub reason: Option<&'a str>,
}

/// Which messages a list asks for: about an invoice or a client, in a status, on a channel.
#[derive(Debug, Clone, Default)]
pub struct MessageQuery {
    pub invoice_id: Option<String>,
    pub client_id: Option<String>,
    pub status: Option<MessageStatus>,
    pub channel: Option<Channel>,
    pub page: PageRequest,
}

#[async_trait]
pub trait MessageStore: Send + Sync {
    /// Sends an invoice: the `send` transition, its event, on a first send the payment from the
    /// client's credit balance it asks for, and the messages `sending` renders from the invoice
    /// as it then stands, in one transaction. Live messages are queued for delivery; sandbox
    /// ones are only kept.
    async fn send_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        sending: &InvoiceSending<'_>,
        event: EventFor<'_, InvoiceDetail>,
        idempotency: Option<IdempotentResponse<'_, (InvoiceDetail, Vec<Message>)>>,
    ) -> StoreResult<(InvoiceDetail, Vec<Message>)>;

    /// The tenant's messages matching `q`, newest first.
    async fn list_messages(&self, tenant: &Tenant, q: &MessageQuery) -> StoreResult<Page<Message>>;

    /// The tenant's message `id`.
    async fn get_message(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Message>>;

    /// Claims up to `limit` queued messages that are due, so no other worker delivers them
    /// until `lease_ms` has passed.
    async fn claim_messages(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<Message>>;

    /// Moves the message `report` is about to its status when that is a step forward, with
    /// the step's event (and `message.sent` first when the report overtook the worker's record
    /// of the send). `None` when it moved nothing (a repeat, a late `sent`, another provider id);
    /// `NotFound` when no message has that id or provider id.
    async fn record_message_status(
        &self,
        report: &ProviderReport<'_>,
        at: Timestamp,
        event: EventFor<'_, Message>,
    ) -> StoreResult<Option<Message>>;

    /// Records how handing claimed message `id` to its provider ended: `sent` (with
    /// `message.sent`), `failed` (with `message.failed`), or queued again for a retry. A message
    /// that moved on meanwhile is left as it is.
    async fn finish_message(
        &self,
        id: &str,
        at: Timestamp,
        outcome: &SendOutcome,
        event: EventFor<'_, Message>,
    ) -> StoreResult<Option<Message>>;
}
