//! The notification sender: delivers due live messages through the email and SMS (and WhatsApp)
//! transports
//! ([`crate::notify`]), retrying transient failures on the messages' schedule
//! ([`lajan_domain::retry`]), recording each outcome.

use crate::Workers;
use crate::notify::{NotifyError, OutgoingEmail, OutgoingSms, WHATSAPP};
use lajan_domain::Timestamp;
use lajan_domain::message::{Channel, Message, SendOutcome};
use lajan_domain::retry::message_wait;
use lajan_services::events::message_event;
use lajan_services::messages::receipts::SMS_CALLBACK_PATH;
use lajan_store::StoreResult;

/// How long a claimed message is reserved for the worker that claimed it.
const DELIVERY_LEASE_MS: i64 = 120_000;
const BATCH: i64 = 100;

impl Workers {
    /// The sender's step: delivers due messages, recording each outcome. Returns how many.
    pub async fn deliver_messages_once(&self, now: Timestamp) -> StoreResult<usize> {
        let store = &self.services.store;
        let claimed = store.claim_messages(now, DELIVERY_LEASE_MS, BATCH).await?;
        for message in &claimed {
            let outcome = self.deliver(message).await;
            if let SendOutcome::Failed { error } | SendOutcome::Retry { error, .. } = &outcome {
                tracing::warn!(message = %message.id, channel = message.channel.as_str(), attempt = message.attempts, %error, "delivery failed");
            }
            store.finish_message(&message.id, Timestamp::now(), &outcome, &message_event).await?;
        }
        Ok(claimed.len())
    }

    async fn deliver(&self, m: &Message) -> SendOutcome {
        let result = match m.channel {
            Channel::Email => {
                let email = OutgoingEmail {
                    to: m.recipient.clone(),
                    subject: m.subject.clone().unwrap_or_default(),
                    text: m.body_text.clone(),
                    html: m.body_html.clone().unwrap_or_default(),
                };
                self.email.send(&email).await
            }
            // Twilio's API sends WhatsApp through the same endpoint, addressed `whatsapp:+E164`.
            Channel::Sms | Channel::Whatsapp => {
                let to = match m.channel {
                    Channel::Whatsapp => format!("{WHATSAPP}{}", m.recipient.trim()),
                    _ => m.recipient.clone(),
                };
                // The receipt names our message, so it finds it even before this send is recorded.
                let public_url = self.services.config.public_url.trim_end_matches('/');
                let status_callback = Some(format!("{public_url}{SMS_CALLBACK_PATH}?message={}", m.id));
                self.sms.send(&OutgoingSms { to, body: m.body_text.clone(), status_callback }).await
            }
        };
        match result {
            Ok(delivery) => SendOutcome::Sent { provider_id: Some(delivery.provider_id().to_owned()) },
            Err(NotifyError::Transient(error)) => match message_wait(m.attempts) {
                Some(wait) => SendOutcome::Retry { error, retry_at: Timestamp::now().plus_millis(wait) },
                None => SendOutcome::Failed { error: format!("gave up after {} attempts: {error}", m.attempts) },
            },
            Err(e) => SendOutcome::Failed { error: e.to_string() },
        }
    }
}
