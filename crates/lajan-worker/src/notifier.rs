//! The notification sender: delivers due live messages through the email and SMS transports
//! ([`crate::notify`]), retrying transient failures on a schedule, recording each outcome.

use crate::Workers;
use crate::notify::{Email, NotifyError, Sms};
use lajan_domain::Timestamp;
use lajan_domain::message::{Channel, DeliveryOutcome, Message};
use lajan_store::StoreResult;

/// Delays before the 2nd, 3rd, ... delivery attempts; after the last, a message fails.
const RETRY_DELAYS_SECS: [i64; 5] = [30, 120, 600, 3600, 6 * 3600];
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
            if let DeliveryOutcome::Failed { error } | DeliveryOutcome::Retry { error, .. } = &outcome {
                tracing::warn!(message = %message.id, channel = message.channel.as_str(), attempt = message.attempts, %error, "delivery failed");
            }
            store.finish_message(&message.id, Timestamp::now(), &outcome).await?;
        }
        Ok(claimed.len())
    }

    async fn deliver(&self, m: &Message) -> DeliveryOutcome {
        let result = match m.channel {
            Channel::Email => {
                let email = Email {
                    to: m.recipient.clone(),
                    subject: m.subject.clone().unwrap_or_default(),
                    text: m.body_text.clone(),
                    html: m.body_html.clone().unwrap_or_default(),
                };
                self.email.send(&email).await
            }
            Channel::Sms => self.sms.send(&Sms { to: m.recipient.clone(), body: m.body_text.clone() }).await,
        };
        match result {
            Ok(delivery) => DeliveryOutcome::Sent { provider_id: Some(delivery.provider_id().to_owned()) },
            Err(NotifyError::Transient(error)) => {
                let done = usize::try_from(m.attempts).unwrap_or(usize::MAX);
                match RETRY_DELAYS_SECS.get(done.saturating_sub(1)) {
                    Some(delay) => {
                        DeliveryOutcome::Retry { error, retry_at: Timestamp::now().plus_millis(delay * 1000) }
                    }
                    None => DeliveryOutcome::Failed { error: format!("gave up after {done} attempts: {error}") },
                }
            }
            Err(e) => DeliveryOutcome::Failed { error: e.to_string() },
        }
    }
}
