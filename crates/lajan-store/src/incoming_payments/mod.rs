//! Payment intents and the ledger payments matched against them: what a payment page shows, and
//! how a payment seen on a ledger completes an invoice or a payment link.

use crate::{EventFor, StoreResult};
use async_trait::async_trait;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice_payment::InvoicePayment;
use lajan_domain::payment::PaymentLink;
use lajan_domain::payment::{IncomingPayment, PaymentIntent};
use lajan_domain::{Tenant, Timestamp};

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

/// A payment of an invoice (just counted, or just reversed), and the invoice as it stands with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentOnInvoice {
    pub payment: InvoicePayment,
    pub invoice: InvoiceDetail,
}

/// Builds the events of a payment counted: one for every payment on an invoice, and one for
/// the invoice or link it completes.
pub struct PaidEvents<'a> {
    pub received: EventFor<'a, PaymentOnInvoice>,
    pub invoice: EventFor<'a, InvoiceDetail>,
    pub link: EventFor<'a, PaymentLink>,
}

#[async_trait]
pub trait IncomingPaymentStore: Send + Sync {
    /// The intent with this id in any tenant (payment pages are public), and what it is for.
    async fn get_payment_intent(&self, id: &str) -> StoreResult<Option<(PaymentIntent, IntentTarget)>>;

    /// The organization and environment of the payment intent with this reference (memo).
    async fn tenant_of_reference(&self, reference: &str) -> StoreResult<Option<Tenant>>;
    /// Records a payment seen on a live ledger; a transaction hash already recorded is ignored.
    async fn record_incoming_payment(&self, payment: &IncomingPayment) -> StoreResult<bool>;
    /// Payments not yet processed by the watcher, oldest first.
    async fn pending_incoming_payments(&self, limit: i64) -> StoreResult<Vec<IncomingPayment>>;
    async fn incoming_payments_for_intent(&self, intent_id: &str) -> StoreResult<Vec<IncomingPayment>>;
    /// Matches one payment to the intent whose reference is its memo, counts it (on an invoice,
    /// as a payment record with its event, whatever its size), and when the intent is fully
    /// paid marks it, and its invoice or link, paid with their events.
    async fn apply_incoming_payment(
        &self,
        payment_id: &str,
        at: Timestamp,
        events: &PaidEvents<'_>,
    ) -> StoreResult<PaymentApplied>;

    /// A ledger watcher's saved position (e.g. Horizon's paging token), by watcher name.
    async fn ledger_cursor(&self, name: &str) -> StoreResult<Option<String>>;

    async fn save_ledger_cursor(&self, name: &str, cursor: &str, at: Timestamp) -> StoreResult<()>;
}
