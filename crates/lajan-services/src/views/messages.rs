//! How a message to a client looks from outside: the HTTP body and the object of its events.

use lajan_domain::Timestamp;
use lajan_domain::message::{self, Message};
use lajan_domain::reminder::DueReminder;
use serde::Serialize;
use utoipa::ToSchema;

/// A message to a client and where it is.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageView {
    #[schema(example = "msg_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    /// The invoice it is about (its send), when it is about one.
    pub invoice_id: Option<String>,
    /// The client it went to (every message but a registration code to a phone not yet a
    /// client's has one).
    pub client_id: Option<String>,
    /// What it says: `invoice`, `reminder`, `receipt`, `receipt_correction` (a receipt taken
    /// back: its payment was reversed), `invitation` or `registration_code`.
    #[schema(example = "invoice")]
    pub template: String,
    /// The language it is written in: `en`, `fr` or `ht`.
    #[schema(example = "ht")]
    pub language: String,
    /// `email`, `sms` or `whatsapp`.
    #[schema(example = "sms")]
    pub channel: &'static str,
    /// The phone number or email address.
    pub to: String,
    pub subject: Option<String>,
    pub text: String,
    pub html: Option<String>,
    /// `queued` (waiting for the worker), `sent` (the provider took it), `delivered`, `failed`
    /// (see `failureReason`) or `undeliverable`; it only moves forward. A sandbox message is
    /// never handed to a provider: it is `delivered` at once, simulated.
    #[schema(example = "sent")]
    pub status: &'static str,
    /// The provider's id for it, once it took it (`sandbox_…` in the sandbox).
    pub provider_id: Option<String>,
    /// Why the last attempt failed, in the provider's words.
    pub failure_reason: Option<String>,
    /// How many times it was handed to its provider.
    pub attempts: i64,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub sent_at: Option<Timestamp>,
    /// When its status last moved.
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
}

impl From<&Message> for MessageView {
    /// The message as it may be read back: an invitation's link and a registration code hidden
    /// (`***`), so a read-only key, an event subscriber or a console reader never holds them.
    fn from(m: &Message) -> Self {
        let hidden = |words: &str| message::readable(&m.template, words);
        MessageView {
            subject: m.subject.as_deref().map(hidden),
            text: hidden(&m.body_text),
            html: m.body_html.as_deref().map(hidden),
            ..MessageView::unredacted(m)
        }
    }
}

impl MessageView {
    /// The message with its words whole: only for the sandbox's own endpoint, behind a
    /// sandbox key with `sandbox:read`.
    pub fn unredacted(m: &Message) -> Self {
        MessageView {
            id: m.id.clone(),
            invoice_id: m.invoice_id.clone(),
            client_id: m.client_id.clone(),
            template: m.template.clone(),
            language: m.language.clone(),
            channel: m.channel.as_str(),
            to: m.recipient.clone(),
            subject: m.subject.clone(),
            text: m.body_text.clone(),
            html: m.body_html.clone(),
            status: m.status.as_str(),
            provider_id: m.provider_id.clone(),
            failure_reason: m.last_error.clone(),
            attempts: m.attempts,
            created_at: m.created_at,
            sent_at: m.sent_at,
            updated_at: m.updated_at,
        }
    }
}

/// A message a send or a reminder queued, as it stood then.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueuedMessage {
    #[schema(example = "msg_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    /// `email` or `sms`.
    #[schema(example = "sms")]
    pub channel: &'static str,
    /// `queued` live, its end (simulated) in the sandbox; it moves on as `GET /v1/messages/{id}` shows.
    #[schema(example = "queued")]
    pub status: &'static str,
}

impl From<&Message> for QueuedMessage {
    fn from(m: &Message) -> Self {
        QueuedMessage { id: m.id.clone(), channel: m.channel.as_str(), status: m.status.as_str() }
    }
}

/// A payment reminder as `invoice.reminder_sent` shows it: what it reminded of and its messages.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReminderView {
    /// The instalment it is about (from 1); null for an invoice without a plan.
    pub installment: Option<i64>,
    /// Days from the due date it was sent at (negative: before).
    #[schema(example = 3)]
    pub offset_days: i32,
    /// What was still due of it.
    #[schema(example = "500.00")]
    pub amount_due: String,
    #[schema(example = "2026-12-15", format = Date)]
    pub due_date: String,
    pub messages: Vec<QueuedMessage>,
}

impl ReminderView {
    pub fn of(r: &DueReminder, messages: &[Message]) -> Self {
        ReminderView {
            installment: (r.key.installment > 0).then_some(r.key.installment),
            offset_days: r.key.offset_days,
            amount_due: super::money(r.amount),
            due_date: r.due_date.to_string(),
            messages: messages.iter().map(QueuedMessage::from).collect(),
        }
    }
}
