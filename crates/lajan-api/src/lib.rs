//! Lajan's HTTP API: one router per area, extractors and middleware (auth, rate limits,
//! idempotency), the error shape, and the OpenAPI document.

pub mod app;
pub mod assets;
pub mod auth;
pub mod config;
pub mod error;
pub mod extract;
pub mod failpoint;
pub mod idempotency;
pub mod invoicing;
pub mod jobs;
pub mod keys;
pub mod ledger;
pub mod openapi;
pub mod ratelimit;
pub mod routes;
pub mod state;
pub mod stellar;

pub use app::{Application, router};
pub use config::AppConfig;
