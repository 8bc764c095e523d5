//! Webhook endpoints and the deliveries of events to them: what an endpoint subscribes to, and
//! where a delivery stands.

use crate::Timestamp;

/// Where an organization wants its events POSTed, and which ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEndpoint {
    pub id: String,
    pub url: String,
    /// Event names, `"*"`, or area wildcards such as `"invoice.*"`.
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    /// `whsec_` + base64 of 32 random bytes: signs every delivery.
    pub secret: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// Whether an endpoint subscribed to `events` receives an event of type `event_type`.
pub fn subscribed(events: &[String], event_type: &str) -> bool {
    events.iter().any(|pattern| matches_pattern(pattern, event_type))
}

fn matches_pattern(pattern: &str, event_type: &str) -> bool {
    match pattern.strip_suffix(".*") {
        _ if pattern == "*" || pattern == event_type => true,
        Some(area) => event_type.strip_prefix(area).is_some_and(|rest| rest.starts_with('.')),
        None => false,
    }
}

/// Where a delivery stands: still to be sent (or sent again), delivered, or given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStatus {
    Pending,
    Delivered,
    Failed,
}

impl DeliveryStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Pending => "pending",
            DeliveryStatus::Delivered => "delivered",
            DeliveryStatus::Failed => "failed",
        }
    }
}

impl std::str::FromStr for DeliveryStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pending" => Ok(DeliveryStatus::Pending),
            "delivered" => Ok(DeliveryStatus::Delivered),
            "failed" => Ok(DeliveryStatus::Failed),
            other => Err(format!("unknown delivery status {other:?}")),
        }
    }
}

/// One event on its way to one endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event_type: String,
    pub status: DeliveryStatus,
    /// How many times it was sent.
    pub attempts: i64,
    pub next_attempt_at: Timestamp,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// One POST of a delivery and what came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryAttempt {
    pub attempt_number: i64,
    pub at: Timestamp,
    /// The HTTP status, when an answer came.
    pub http_status: Option<i64>,
    /// Why no usable answer came (a timeout, a refused connection), when none did.
    pub error: Option<String>,
    pub duration_ms: i64,
    /// The first 4 KiB of the response body.
    pub response_body: Option<String>,
}

/// How a delivery attempt ended, as the dispatcher records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOutcome {
    Delivered,
    /// Send again at `retry_at`.
    Retry {
        retry_at: Timestamp,
    },
    /// Given up: no more tries.
    Failed,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscriptions_match_names_areas_and_everything() {
        let events = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(subscribed(&events(&["*"]), "payout.completed"));
        assert!(subscribed(&events(&["invoice.paid"]), "invoice.paid"));
        assert!(!subscribed(&events(&["invoice.paid"]), "invoice.sent"));
        assert!(subscribed(&events(&["invoice.*"]), "invoice.sent"));
        assert!(!subscribed(&events(&["invoice.*"]), "invoices.sent"), "an area is a whole word");
        assert!(!subscribed(&events(&["invoice.*"]), "payout.created"));
        assert!(subscribed(&events(&["webhook_endpoint.*"]), "webhook_endpoint.test"));
        assert!(!subscribed(&[], "invoice.paid"));
        for status in [DeliveryStatus::Pending, DeliveryStatus::Delivered, DeliveryStatus::Failed] {
            assert_eq!(status.as_str().parse::<DeliveryStatus>(), Ok(status));
        }
    }
}
