//! Lajan's HTTP API: one router per area, extractors and middleware (auth, rate limits,
//! idempotency), the error shape, the payment page and the OpenAPI document. Routes parse and
//! call one use case of `lajan_services`; no background loop runs here (see `lajan_worker`).

mod address_slots;
pub mod app;
pub mod auth;
pub mod caller;
pub mod client_address;
pub mod config;
mod contention;
pub mod counters;
mod docs_page;
pub mod error;
pub mod extract;
pub mod idempotency;
pub mod in_flight;
pub mod metrics;
pub mod observe;
pub use lajan_services::keys;
pub mod openapi;
pub mod openapi_examples;
pub mod openapi_limits;
pub mod openapi_rules;
pub mod openapi_webhooks;
pub mod pay_throttle;
pub mod payment_request;
pub mod ratelimit;
pub mod request_id;
pub mod routes;
pub mod serve;
pub mod state;

pub use app::{Application, router};
pub use config::AppConfig;
