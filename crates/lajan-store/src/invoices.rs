//! The invoicing half of the store: invoices, payment links, payment intents and the incoming
//! ledger payments matched against them. Same guarantees as [`crate::Store`]: one transaction
//! per method, events written with their change, every query scoped by tenant.

use crate::{EventFor, IdempotentResponse, NewEvent, StoreResult};
use async_trait::async_trait;
use lajan_domain::client::Client;
use lajan_domain::invoice::{DueDate, Invoice, InvoiceAction, InvoiceStatus, LineItem, Totals};
use lajan_domain::money::Currency;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payment::{IncomingPayment, PaymentIntent};
use lajan_domain::{Tenant, Timestamp};

/// An invoice with the client it bills (shown even once archived) and its payment intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceDetail {
    pub invoice: Invoice,
    pub client: Client,
    pub intent: PaymentIntent,
}

#[derive(Debug, Clone, Default)]
pub struct InvoiceQuery {
    pub status: Option<InvoiceStatus>,
    pub client_id: Option<String>,
    /// Matches the invoice number or the client's name.
    pub search: Option<String>,
    pub page: PageRequest,
}

/// The fields a draft update changes; `None` keeps a field.
#[derive(Debug, Clone, Default)]
pub struct InvoiceChanges {
    pub client_id: Option<String>,
    pub currency: Option<Currency>,
    pub due_date: Option<DueDate>,
    pub line_items: Option<(Vec<LineItem>, Totals)>,
    pub memo: Option<Option<String>>,
}

/// A payment link: a standalone amount to collect, with its payment intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentLink {
    pub id: String,
    pub amount: i64,
    pub currency: Currency,
    pub description: String,
    pub created_at: Timestamp,
    pub expires_at: Option<Timestamp>,
    pub intent: PaymentIntent,
}

/// What a payment page shows: the intent and whichever resource it collects for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntentTarget {
    Invoice(Box<InvoiceDetail>),
    Link(Box<PaymentLink>),
}

/// What applying one incoming payment did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentApplied {
    /// No intent carries this memo in the payment's tenant; kept for reconciliation.
    Unmatched,
    /// Counted towards the intent; `paid` when this payment completed it.
    Matched { intent_id: String, paid: bool },
    /// Not counted: it would take the intent's received total past what an amount can hold
    /// (about 92 quadrillion); kept unmatched for reconciliation instead of a wrong total.
    TooLarge { intent_id: String },
    /// Already processed earlier (another watcher got there first).
    AlreadyProcessed,
}

/// Builds the events for a payment that completes an intent.
pub struct PaidEvents<'a> {
    pub invoice: EventFor<'a, InvoiceDetail>,
    pub link: EventFor<'a, PaymentLink>,
}

#[async_trait]
pub trait InvoiceStore: Send + Sync {
    /// Inserts the invoice with the next invoice number of its tenant (the `number` given is
    /// ignored) and its payment intent, and records `invoice.created` (the object from `event`).
    /// With `send`, the invoice is also sent in the same transaction, as
    /// [`MessageStore::send_invoice`] does. The client must exist and not be archived
    /// (`Rejected(invalid_client)`). With `idempotency`, the key is claimed and answered in the
    /// same transaction.
    async fn create_invoice(
        &self,
        tenant: &Tenant,
        invoice: &Invoice,
        intent: &PaymentIntent,
        event: EventFor<'_, InvoiceDetail>,
        send: Option<MessagesFor<'_>>,
        idempotency: Option<IdempotentResponse<'_, InvoiceDetail>>,
    ) -> StoreResult<InvoiceDetail>;

    async fn get_invoice(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<InvoiceDetail>>;

    async fn list_invoices(&self, tenant: &Tenant, query: &InvoiceQuery) -> StoreResult<Page<InvoiceDetail>>;

    /// Changes a draft (`Rejected(cannot_update)` otherwise); the intent follows the new total.
    async fn update_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        changes: &InvoiceChanges,
        at: Timestamp,
    ) -> StoreResult<InvoiceDetail>;

    /// Applies a state-machine action (view, mark overdue, void) under a row lock and records
    /// its event: `event` builds the object, the event's type is the transition's own. Returns
    /// the invoice and whether anything changed; refusals are `Rejected` with the action's error
    /// code. With `idempotency`, the key is answered in the same transaction, no-op or not.
    #[allow(clippy::too_many_arguments)]
    async fn invoice_action(
        &self,
        tenant: &Tenant,
        id: &str,
        action: InvoiceAction,
        at: Timestamp,
        void_reason: Option<&str>,
        event: EventFor<'_, InvoiceDetail>,
        idempotency: Option<IdempotentResponse<'_, (InvoiceDetail, bool)>>,
    ) -> StoreResult<(InvoiceDetail, bool)>;

    /// Sent or viewed invoices due on or before `due_on_or_before` (YYYY-MM-DD), with their
    /// tenant's timezone, oldest due first.
    async fn overdue_candidates(
        &self,
        due_on_or_before: &str,
        limit: i64,
    ) -> StoreResult<Vec<(Tenant, String, DueDate, String)>>;

    async fn create_payment_link(
        &self,
        tenant: &Tenant,
        link: &PaymentLink,
        event: &NewEvent,
        idempotency: Option<IdempotentResponse<'_, PaymentLink>>,
    ) -> StoreResult<()>;
    async fn get_payment_link(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PaymentLink>>;
    async fn list_payment_links(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<PaymentLink>>;
    /// Deactivates an active link (its intent becomes inactive). A link that is already
    /// inactive, expired or paid is left as it is, and no event is written.
    async fn deactivate_payment_link(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, PaymentLink>,
    ) -> StoreResult<(PaymentLink, bool)>;

    /// The intent with this id in any tenant (payment pages are public), and what it is for.
    async fn get_payment_intent(&self, id: &str) -> StoreResult<Option<(PaymentIntent, IntentTarget)>>;

    /// Records a payment on the sandbox ledger in the ledger open at its `created_at` (ledgers
    /// close every `close_ms`), and says when that ledger closes. A transaction hash recorded
    /// before answers with that payment as recorded, closing at once.
    async fn record_sandbox_payment(
        &self,
        payment: &IncomingPayment,
        close_ms: i64,
    ) -> StoreResult<(IncomingPayment, Timestamp)>;
    /// The organization and environment of the payment intent with this reference (memo).
    async fn tenant_of_reference(&self, reference: &str) -> StoreResult<Option<Tenant>>;
    /// Records a payment seen on a live ledger; a transaction hash already recorded is ignored.
    async fn record_incoming_payment(&self, payment: &IncomingPayment) -> StoreResult<bool>;
    /// Payments not yet processed by the watcher, oldest first.
    async fn pending_incoming_payments(&self, limit: i64) -> StoreResult<Vec<IncomingPayment>>;
    async fn incoming_payments_for_intent(&self, intent_id: &str) -> StoreResult<Vec<IncomingPayment>>;
    /// Matches one payment to the intent whose reference is its memo, counts it, and when the
    /// intent is fully paid marks it, and its invoice or link, paid with their events.
    async fn apply_incoming_payment(
        &self,
        payment_id: &str,
        at: Timestamp,
        events: &PaidEvents<'_>,
    ) -> StoreResult<PaymentApplied>;
}

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
