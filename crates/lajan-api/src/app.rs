//! Building and running the HTTP application: the router with its middleware, and the server with
//! graceful shutdown. Tests build the same `Application` on port 0.

use crate::address_slots::AddressSlots;
use crate::caller::KeyCache;
use crate::config::AppConfig;
use crate::counters::{HitCounter, MemoryCounter, RedisCounter, StoreCounter};
use crate::error::ApiError;
use crate::extract::{MAX_BODY_BYTES, MAX_UPLOAD_BYTES};
use crate::pay_throttle::MissThrottle;
use crate::routes::{self, health};
use crate::state::{AppParts, AppState};
use crate::{auth, idempotency, observe, ratelimit};
use anyhow::Context;
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, Method, Request, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use lajan_services::Services;
use lajan_store::Backend;
use secrecy::ExposeSecret;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;

pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    /// Wires the use cases, the rate-limit counter and the router onto an already bound listener.
    pub async fn build(config: AppConfig, services: Arc<Services>, listener: TcpListener) -> anyhow::Result<Self> {
        let store = services.store.clone();
        let limiter: Arc<dyn HitCounter> = match (&config.redis_url, store.backend()) {
            (Some(url), _) => Arc::new(
                RedisCounter::connect(url.expose_secret()).await.context("connecting to Redis (LAJAN_REDIS_URL)")?,
            ),
            (None, Backend::Postgres) => Arc::new(StoreCounter::new(store.clone())),
            (None, Backend::Sqlite) => Arc::new(MemoryCounter::default()),
        };
        tracing::info!(counter = limiter.name(), "rate limits counted");
        let keys = Arc::new(KeyCache::new(Duration::from_millis(config.auth_cache_ms)));
        let in_flight = Arc::default();
        let pay_misses = Arc::new(MissThrottle::pay_pages());
        let code_misses = Arc::new(MissThrottle::registration_codes());
        let deposit_starts = Arc::new(MissThrottle::deposits());
        let requests_per_address = AddressSlots::new(config.connections.per_address);
        let state = AppState::new(AppParts {
            services,
            store,
            limiter,
            config: Arc::new(config),
            keys,
            in_flight,
            pay_misses,
            code_misses,
            deposit_starts,
            requests_per_address,
        });
        Ok(Application { listener, state })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, then finishes requests in flight.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        // The client's address (each request's `ConnectInfo`) throttles guesses at payment pages.
        let limits = self.state.config.connections;
        let trusted = self.state.config.trusted_proxies.clone();
        crate::serve::serve(self.listener, router(self.state.clone()), limits, &trusted, shutdown).await
    }
}

/// After a change that succeeded, wakes this process's webhook dispatcher: the change's
/// deliveries were committed with it, so they go now rather than at the next poll. The console's
/// forms and the payment page answer a change with 303 (post, redirect, get): that counts too.
async fn nudge_deliveries(State(state): State<AppState>, request: Request<Body>, next: Next) -> Response {
    let changes = !matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let response = next.run(request).await;
    if changes && (response.status().is_success() || response.status() == StatusCode::SEE_OTHER) {
        state.services.nudges.deliveries_due();
    }
    response
}

/// The whole HTTP surface.
pub fn router(state: AppState) -> Router {
    let fixed = |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    // Every answer of the API carries a tenant's data or its absence: no cache may keep one.
    let api = routes::v1()
        .route_layer(from_fn_with_state(state.clone(), idempotency::idempotency))
        .route_layer(from_fn_with_state(state.clone(), ratelimit::limit))
        .route_layer(from_fn_with_state(state.clone(), auth::authenticate))
        .layer(fixed(header::CACHE_CONTROL, "no-store"));
    // The reference may be read anywhere but shown inside no other site's frame.
    let docs = crate::docs_page::routes()
        .layer(fixed(header::X_FRAME_OPTIONS, "DENY"))
        .layer(fixed(header::CONTENT_SECURITY_POLICY, "frame-ancestors 'none'"));
    Router::new()
        .nest("/v1/mfi", api.clone())
        .nest("/v1", api)
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/robots.txt", get(robots))
        .route("/favicon.svg", get(lajan_console::favicon))
        .route("/favicon.ico", get(lajan_console::favicon))
        .merge(routes::pay::routes())
        .merge(routes::callbacks::routes())
        .merge(routes::register::routes())
        .merge(routes::wallet_registration::routes())
        .merge(routes::stellar_toml::routes())
        .merge(routes::sep10::routes())
        .merge(routes::sep24::routes())
        .merge(lajan_console::router(state.services.clone()))
        .merge(docs)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(from_fn_with_state(state.clone(), nudge_deliveries))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        // Inside the size check, so a body announced too large is refused before it is kept.
        .layer(axum::middleware::from_fn(crate::contention::retry_contended))
        .layer(axum::middleware::from_fn(refuse_oversized))
        .layer(CatchPanicLayer::custom(|_| {
            tracing::error!("handler panicked");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "Something went wrong on our side; it has been logged",
            )
            .into_response()
        }))
        // No answer is to be read as another type than it says (an error's JSON as HTML, say).
        .layer(fixed(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        // Pages and JSON travel gzipped to whoever accepts it (a console page shrinks about
        // fivefold on a phone's connection); tiny answers and images are left as they are.
        .layer(CompressionLayer::new())
        // Outermost: its id, log line and metrics cover every answer, a handler's panic included.
        .layer(from_fn_with_state(state.clone(), observe::observe))
        .with_state(state)
}

/// Crawlers keep out of the console (nothing there is public) and the payment pages (each URL is
/// a capability, never to be indexed).
async fn robots() -> Response {
    let text = "User-agent: *\nDisallow: /console\nDisallow: /pay\n";
    ([(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"))], text).into_response()
}

/// A body announced larger than any route takes is refused before a byte of it is read, rather
/// than waited for.
async fn refuse_oversized(request: Request<Body>, next: Next) -> Response {
    let announced = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_UPLOAD_BYTES as u64) {
        return ApiError::payload_too_large().into_response();
    }
    next.run(request).await
}

async fn not_found() -> Response {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "No such route; see /docs").into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "This route does not accept that method")
        .into_response()
}
