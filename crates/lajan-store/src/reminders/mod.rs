//! Payment reminders and receipts: the invoices whose next reminder is due and the payments
//! whose receipt is due, claimed like other work; each reminder recorded once per (invoice,
//! instalment, offset) with its messages and event, each receipt queued once.

use crate::{EventFor, NewEvent, StoreResult};
use async_trait::async_trait;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice_payment::InvoicePayment;
use lajan_domain::message::{Message, NewMessage};
use lajan_domain::reminder::{DueReminder, ReminderKey};
use lajan_domain::{Tenant, Timestamp};

/// What reminding an invoice comes to, decided inside the reminder's transaction from the
/// invoice as locked and the reminders already sent.
#[derive(Debug, Clone, Default)]
pub struct ReminderBatch {
    /// Each reminder to record now with the messages it sends (none: the client opted out or
    /// cannot be reached, and nothing is recorded).
    pub sends: Vec<(DueReminder, Vec<NewMessage>)>,
    /// When to look at the invoice again; `None`: never (nothing is left to remind of).
    pub next_at: Option<Timestamp>,
}

/// A reminder as recorded: what it reminded of and the messages it queued.
#[derive(Debug, Clone)]
pub struct SentReminder {
    pub reminder: DueReminder,
    pub messages: Vec<Message>,
}

/// How one invoice is reminded: `plan` decides; the events show what was sent.
pub struct Reminding<'a> {
    pub plan: &'a (dyn Fn(&InvoiceDetail, &[ReminderKey]) -> ReminderBatch + Send + Sync),
    /// `invoice.reminder_sent`: the invoice and the reminder.
    pub event: &'a (dyn Fn(&InvoiceDetail, &SentReminder) -> NewEvent + Send + Sync),
    pub message_event: EventFor<'a, Message>,
}

/// A payment's receipt: its messages, from the invoice (its client, number and currency), the
/// payment and what the invoice still owed right after it; none when nothing is to be sent
/// (receipts off, a client who cannot be reached).
pub type ReceiptFor<'a> = &'a (dyn Fn(&InvoiceDetail, &InvoicePayment, i64) -> Vec<NewMessage> + Send + Sync);

#[async_trait]
pub trait ReminderStore: Send + Sync {
    /// Claims up to `limit` invoices whose next reminder is due by `now`, moving it `lease_ms`
    /// on so no other worker takes them meanwhile (one that dies leaves them due again).
    async fn claim_reminders(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<(Tenant, String)>>;

    /// Reminds invoice `id` in one transaction: locks it, asks `reminding.plan` (which decides at
    /// the schedule's clock), records each reminder it sends (at most once: a reminder already
    /// recorded is never sent again), queues its messages, records `invoice.reminder_sent`, all
    /// dated at the real time, and keeps when to look again.
    async fn remind_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        reminding: &Reminding<'_>,
    ) -> StoreResult<Vec<SentReminder>>;

    /// Claims up to `limit` payments whose receipt is due by `now`, moving it `lease_ms` on.
    async fn claim_receipts(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<(Tenant, String)>>;

    /// Sends payment `id`'s receipt at `at` in one transaction: the messages `render` makes
    /// (none for a payment reversed since), and the receipt no longer due, so it goes once.
    async fn send_receipt(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        render: ReceiptFor<'_>,
        message_event: EventFor<'_, Message>,
    ) -> StoreResult<Vec<Message>>;
}
