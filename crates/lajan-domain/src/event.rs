//! Events: the outbox record written in the same transaction as the change that causes it.

use crate::{Actor, Environment, Timestamp};

/// An event as stored: `data` is the JSON text of `{ "object": ... }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: String,
    pub org_id: String,
    pub env: Environment,
    pub event_type: String,
    pub created_at: Timestamp,
    pub data: String,
    /// Who made the change.
    pub actor: Actor,
}

/// Every event type Lajan emits, by area: what a webhook endpoint may subscribe to (by name, by
/// area as `"invoice.*"`, or all as `"*"`). The catalogue in docs/webhooks.md explains each.
pub const EVENT_TYPES: &[&str] = &[
    "client.created",
    "client.updated",
    "client.deleted",
    "client.invited",
    "client.registered",
    "client.verification_locked",
    "client.verification_unlocked",
    "disbursement.created",
    "disbursement.submitted",
    "disbursement.approved",
    "disbursement.rejected",
    "disbursement.completed",
    "disbursement.partially_failed",
    "disbursement.failed",
    "invoice.created",
    "invoice.sent",
    "invoice.viewed",
    "invoice.payment_received",
    "invoice.payment_reversed",
    "credit_note.created",
    "credit_note.voided",
    "invoice.paid",
    "invoice.overdue",
    "invoice.reminder_sent",
    "invoice.voided",
    "message.sent",
    "message.delivered",
    "message.failed",
    "payment_link.created",
    "payment_link.paid",
    "payment_link.deactivated",
    "payout.created",
    "payout.approved",
    "payout.rejected",
    "payout.retried",
    "payout.completed",
    "payout.failed",
    "payout.delayed",
    "payout.held",
    "payout.canceled",
    "payout.approval_withdrawn",
    "settings.updated",
    "settings.change_requested",
    "settings.change_cancelled",
    "webhook_endpoint.test",
    "webhook_endpoint.disabled",
];
