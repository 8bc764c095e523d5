//! How webhook endpoints and their deliveries look from outside. The signing secret appears only
//! in the answer to a create.

use lajan_domain::Timestamp;
use lajan_domain::webhook::{Delivery, DeliveryAttempt, WebhookEndpoint};
use serde::Serialize;
use utoipa::ToSchema;

/// Where the organization's events are POSTed, and which ones.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpointView {
    #[schema(example = "we_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    #[schema(example = "https://books.example.ht/lajan/webhooks")]
    pub url: String,
    /// Event names, area wildcards such as `invoice.*`, or `*` for every event.
    #[schema(example = json!(["invoice.paid", "payout.*"]))]
    pub events: Vec<String>,
    pub description: Option<String>,
    /// A disabled endpoint receives nothing; `PUT` with `enabled: true` turns it back on.
    pub enabled: bool,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
}

impl From<&WebhookEndpoint> for WebhookEndpointView {
    fn from(e: &WebhookEndpoint) -> Self {
        WebhookEndpointView {
            id: e.id.clone(),
            url: e.url.clone(),
            events: e.events.clone(),
            description: e.description.clone(),
            enabled: e.enabled,
            created_at: e.created_at,
            updated_at: e.updated_at,
        }
    }
}

/// A new endpoint, with the secret that signs its deliveries: shown this once, never again.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhookEndpointView {
    #[serde(flatten)]
    pub endpoint: WebhookEndpointView,
    /// `whsec_` + base64 of 32 random bytes; verify `webhook-signature` with it.
    #[schema(example = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4A8DQcfGXwM=")]
    pub secret: String,
}

impl From<&WebhookEndpoint> for CreatedWebhookEndpointView {
    fn from(e: &WebhookEndpoint) -> Self {
        CreatedWebhookEndpointView { endpoint: e.into(), secret: e.secret.clone() }
    }
}

/// One event on its way to one endpoint.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryView {
    #[schema(example = "whd_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub id: String,
    pub endpoint_id: String,
    /// The event's id: the `webhook-id` header of every attempt.
    pub event_id: String,
    #[schema(example = "invoice.paid")]
    pub event_type: String,
    /// `pending` (to be sent, or sent again at `nextAttemptAt`), `delivered` or `failed`.
    #[schema(example = "pending")]
    pub status: String,
    /// How many times it was sent (the detail lists each try as `attempts`).
    pub attempt_count: i64,
    /// When it is sent next, while `pending`.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_attempt_at: Option<Timestamp>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
}

impl From<&Delivery> for DeliveryView {
    fn from(d: &Delivery) -> Self {
        DeliveryView {
            id: d.id.clone(),
            endpoint_id: d.endpoint_id.clone(),
            event_id: d.event_id.clone(),
            event_type: d.event_type.clone(),
            status: d.status.as_str().to_owned(),
            attempt_count: d.attempts,
            next_attempt_at: (d.status == lajan_domain::webhook::DeliveryStatus::Pending).then_some(d.next_attempt_at),
            created_at: d.created_at,
            updated_at: d.updated_at,
        }
    }
}

/// One POST of a delivery and what came back.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAttemptView {
    pub attempt: i64,
    #[schema(value_type = String, format = DateTime)]
    pub at: Timestamp,
    /// The receiver's HTTP status, when it answered.
    pub http_status: Option<i64>,
    /// Why no answer came (a timeout, a refused connection), when none did.
    pub error: Option<String>,
    pub duration_ms: i64,
    /// The first 4 KiB of the receiver's answer.
    pub response_body: Option<String>,
}

impl From<&DeliveryAttempt> for DeliveryAttemptView {
    fn from(a: &DeliveryAttempt) -> Self {
        DeliveryAttemptView {
            attempt: a.attempt_number,
            at: a.at,
            http_status: a.http_status,
            error: a.error.clone(),
            duration_ms: a.duration_ms,
            response_body: a.response_body.clone(),
        }
    }
}
