//! Building and running the application: the router with its middleware, and the server with
//! graceful shutdown. Tests build the same `Application` on port 0.

use crate::auth::KeyCache;
use crate::config::AppConfig;
use crate::error::{ApiError, error_chain};
use crate::extract::MAX_BODY_BYTES;
use crate::jobs::Jobs;
use crate::ratelimit::{HitCounter, MemoryCounter, RedisCounter, StoreCounter};
use crate::routes::{self, health};
use crate::state::AppState;
use crate::{auth, idempotency, openapi, ratelimit};
use anyhow::Context;
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, MatchedPath};
use axum::http::{HeaderName, Request, StatusCode};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use lajan_domain::Timestamp;
use lajan_store::{Backend, Store};
use lajan_worker::notify::{EmailSender, HttpSmsSender, SmsSender, SmtpSender, Unconfigured};
use secrecy::ExposeSecret;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;
use utoipa_swagger_ui::SwaggerUi;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    /// Wires the store, the rate-limit counter and the router onto an already bound listener.
    pub async fn build(config: AppConfig, store: Arc<dyn Store>, listener: TcpListener) -> anyhow::Result<Self> {
        let limiter: Arc<dyn HitCounter> = match (&config.redis_url, store.backend()) {
            (Some(url), _) => Arc::new(
                RedisCounter::connect(url.expose_secret()).await.context("connecting to Redis (LAJAN_REDIS_URL)")?,
            ),
            (None, Backend::Postgres) => Arc::new(StoreCounter::new(store.clone())),
            (None, Backend::Sqlite) => Arc::new(MemoryCounter::default()),
        };
        tracing::info!(counter = limiter.name(), "rate limits counted");
        let email: Arc<dyn EmailSender> = match &config.smtp {
            Some(smtp) => Arc::new(SmtpSender::new(smtp.clone()).context("SMTP configuration")?),
            None => Arc::new(Unconfigured("email (set LAJAN_SMTP_HOST)")),
        };
        let sms: Arc<dyn SmsSender> = match &config.sms {
            Some(sms) => Arc::new(HttpSmsSender::new(sms.clone()).context("SMS configuration")?),
            None => Arc::new(Unconfigured("SMS (set LAJAN_SMS_BASE_URL)")),
        };
        let jobs = Arc::new(Jobs::new(store.clone(), &config, email, sms)?);
        let keys = Arc::new(KeyCache::new(Duration::from_millis(config.auth_cache_ms)));
        let in_flight = Arc::default();
        let state = AppState { store, limiter, config: Arc::new(config), jobs, keys, in_flight };
        Ok(Application { listener, state })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, then finishes requests in flight and stops background work.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut background = vec![
            tokio::spawn(purge_expired(self.state.clone(), stop_rx.clone())),
            tokio::spawn(compact_counts(self.state.clone(), stop_rx.clone())),
        ];
        if let Some(intervals) = self.state.config.jobs {
            background.extend(self.state.jobs.clone().spawn(intervals, stop_rx));
        }
        let served = axum::serve(self.listener, router(self.state.clone())).with_graceful_shutdown(shutdown).await;
        let _ = stop_tx.send(true);
        for task in background {
            let _ = task.await;
        }
        served
    }
}

/// The whole HTTP surface.
pub fn router(state: AppState) -> Router {
    let api = routes::v1()
        .route_layer(from_fn_with_state(state.clone(), idempotency::idempotency))
        .route_layer(from_fn_with_state(state.clone(), ratelimit::limit))
        .route_layer(from_fn_with_state(state.clone(), auth::authenticate));
    Router::new()
        .nest("/v1/mfi", api.clone())
        .nest("/v1", api)
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .merge(routes::pay::routes())
        .merge(SwaggerUi::new("/docs").url("/v1/openapi.json", openapi::document()))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(CatchPanicLayer::custom(|_| {
            tracing::error!("handler panicked");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "Something went wrong on our side; it has been logged",
            )
            .into_response()
        }))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<Body>| {
                    let request_id = req.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("");
                    let route = req.extensions().get::<MatchedPath>().map_or("", MatchedPath::as_str);
                    tracing::info_span!("request", method = %req.method(), route, request_id)
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}

async fn not_found() -> Response {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "No such route; see /docs").into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "This route does not accept that method")
        .into_response()
}

/// Folds the per-tenant count deltas (PostgreSQL) every second so list totals stay cheap.
async fn compact_counts(state: AppState, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(1)) => {
                if let Err(e) = state.store.compact_counts().await {
                    tracing::warn!(error = %error_chain(&e), "folding count deltas failed");
                }
            }
            _ = stop.changed() => return,
        }
    }
}

/// Deletes expired idempotency keys and rate-limit windows now and then.
async fn purge_expired(state: AppState, mut stop: watch::Receiver<bool>) {
    let every = Duration::from_secs(state.config.purge_interval_secs.max(1));
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {
                match state.store.purge_expired(Timestamp::now()).await {
                    Ok(n) if n > 0 => tracing::debug!(rows = n, "purged expired rows"),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %error_chain(&e), "purge failed"),
                }
            }
            _ = stop.changed() => return,
        }
    }
}
