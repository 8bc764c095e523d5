//! Rate limiting per organization and environment, in fixed one-minute windows.
//!
//! Where the counts live decides who shares them (see `counters.rs`).
//! Every authenticated response carries `X-RateLimit-Limit`, `-Remaining` and `-Reset` (Unix
//! seconds when the window ends); a request over the limit gets 429 with `Retry-After`.

use crate::auth::AuthContext;
use crate::counters::WINDOW_SECS;
use crate::error::{ApiError, error_chain};
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lajan_domain::Timestamp;

/// The outcome of one request against its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub limit: u64,
    pub remaining: u64,
    pub reset: i64,
    pub allowed: bool,
}

impl Budget {
    pub(crate) fn compute(limit: u64, count: u64, window_start: i64) -> Self {
        Budget {
            limit,
            remaining: limit.saturating_sub(count),
            reset: window_start + WINDOW_SECS,
            allowed: count <= limit,
        }
    }

    fn write_headers(&self, headers: &mut HeaderMap) {
        headers.insert("x-ratelimit-limit", HeaderValue::from(self.limit));
        headers.insert("x-ratelimit-remaining", HeaderValue::from(self.remaining));
        headers.insert("x-ratelimit-reset", HeaderValue::from(self.reset));
    }
}

pub(crate) async fn limit(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(ctx) = req.extensions().get::<AuthContext>() else {
        return next.run(req).await;
    };
    let now_secs = Timestamp::now().as_unix_seconds();
    let window_start = now_secs - now_secs.rem_euclid(WINDOW_SECS);
    let bucket = format!("{}:{}", ctx.tenant.org_id, ctx.tenant.env);
    let limit = state.config.rate_limits.for_tier(ctx.tier);
    let count = match state.limiter.hit(&bucket, window_start, WINDOW_SECS, limit).await {
        Ok(count) => count,
        Err(e) => {
            // Failing open: an outage of the counter store must not take the API down with it.
            tracing::error!(counter = state.limiter.name(), error = %error_chain(e.as_ref()), "rate limiter unavailable; request allowed");
            return next.run(req).await;
        }
    };
    let budget = Budget::compute(limit, count, window_start);
    let mut response = if budget.allowed {
        next.run(req).await
    } else {
        let retry_after = u64::try_from((budget.reset - now_secs).max(1)).unwrap_or(1);
        let mut err = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("Rate limit of {limit} requests per minute exceeded; retry after {retry_after} s"),
        );
        err.retry_after = Some(retry_after);
        err.into_response()
    };
    budget.write_headers(response.headers_mut());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        assert_eq!(Budget::compute(60, 1, 120), Budget { limit: 60, remaining: 59, reset: 180, allowed: true });
        assert_eq!(Budget::compute(60, 60, 120).remaining, 0);
        assert!(Budget::compute(60, 60, 120).allowed);
        assert!(!Budget::compute(60, 61, 120).allowed);
    }
}
