//! Lajan's HTTP API: one router per area, extractors and middleware (auth, rate limits,
//! idempotency), the error shape, the payment page and the OpenAPI document. Routes parse and
//! call one use case of `lajan_services`; no background loop runs here (see `lajan_worker`).

mod address_slots;
pub mod app;
mod auth;
mod caller;
pub mod client_address;
pub mod config;
mod contention;
pub mod counters;
mod docs_page;
mod error;
mod extract;
mod idempotency;
mod in_flight;
pub mod metrics;
mod observe;
pub use lajan_services::keys;
pub mod openapi;
mod openapi_examples;
mod openapi_limits;
mod openapi_rules;
mod openapi_webhooks;
mod pay_throttle;
mod payment_request;
mod ratelimit;
mod request_id;
mod routes;
pub mod serve;
mod state;

pub use app::{Application, router};
pub use config::AppConfig;
