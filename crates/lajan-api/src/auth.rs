//! Authentication (`Authorization: Bearer sk_...`) and scope checks.
//!
//! The middleware resolves the key to an [`AuthContext`] (organization, environment, scopes);
//! handlers name the scope they need with the [`Authed`] extractor, which answers 403 without it.

use crate::error::ApiError;
use crate::keys::hash_secret;
use crate::state::AppState;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lajan_domain::apikey::secret_environment;
use lajan_domain::org::Tier;
use lajan_domain::scope::Scope;
use lajan_domain::{Tenant, Timestamp};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How stale `last_used_at` may get before a request refreshes it (saves a write per request).
const TOUCH_AFTER_MS: i64 = 60_000;

/// Who is calling: the key's organization and environment and what it may do.
#[derive(Debug, Clone)]
pub struct AuthContext {
    pub tenant: Tenant,
    pub key_id: String,
    pub scopes: Vec<Scope>,
    pub tier: Tier,
}

pub async fn authenticate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let header = req.headers().get(AUTHORIZATION).map(|h| h.to_str().map(str::to_owned));
    match resolve(&state, header).await {
        Ok(ctx) => {
            req.extensions_mut().insert(ctx);
            next.run(req).await
        }
        Err(e) => e.into_response(),
    }
}

/// `header` is the Authorization header, if any, and whether it was text.
async fn resolve(
    state: &AppState,
    header: Option<Result<String, axum::http::header::ToStrError>>,
) -> Result<AuthContext, ApiError> {
    let header = header
        .ok_or_else(|| ApiError::unauthorized("Missing API key: send it as Authorization: Bearer sk_test_..."))?;
    let header = header.ok();
    let secret = header
        .as_deref()
        .and_then(|h| h.strip_prefix("Bearer ").or_else(|| h.strip_prefix("bearer ")))
        .map(str::trim)
        .ok_or_else(|| ApiError::unauthorized("The Authorization header must be: Bearer <API key>"))?;
    let invalid = || ApiError::unauthorized("Invalid API key");
    let env = secret_environment(secret).ok_or_else(invalid)?;
    let hash = hash_secret(secret);
    let now = Timestamp::now();
    let (ctx, touch) = match state.keys.get(&hash, now) {
        Some(hit) => hit,
        None => {
            let (key, org) = state.store.authenticate(&hash).await?.ok_or_else(invalid)?;
            let ctx = AuthContext {
                tenant: Tenant::new(org.id, key.env),
                key_id: key.id,
                scopes: key.scopes,
                tier: org.tier,
            };
            state.keys.put(hash, ctx, key.last_used_at, now)
        }
    };
    if ctx.tenant.env != env {
        return Err(invalid());
    }
    if touch {
        let (store, id) = (state.store.clone(), ctx.key_id.clone());
        tokio::spawn(async move {
            if let Err(e) = store.touch_api_key(&id, now).await {
                tracing::warn!(error = %crate::error::error_chain(&e), "could not record key use");
            }
        });
    }
    Ok(ctx)
}

/// Keys resolved in the last `ttl`, by secret hash, so most requests skip the key lookup.
///
/// Only keys that authenticated are kept. A key revoked (`lajan keys revoke`, another process)
/// stops working once its entry is older than `ttl` (`LAJAN_AUTH_CACHE_MS`, 1 s by default;
/// 0 turns the cache off).
pub struct KeyCache {
    ttl: Duration,
    entries: Mutex<HashMap<String, CachedKey>>,
}

struct CachedKey {
    ctx: AuthContext,
    last_used_at: Option<Timestamp>,
    until: Instant,
}

/// Past this many entries, expired ones are dropped before another is added.
const KEY_CACHE_SWEEP_AT: usize = 10_000;

impl KeyCache {
    pub fn new(ttl: Duration) -> Self {
        KeyCache { ttl, entries: Mutex::new(HashMap::new()) }
    }

    /// The caller for `hash` if resolved within the ttl, and whether its `last_used_at` is due
    /// for a refresh (counted as done: one request per minute refreshes it).
    fn get(&self, hash: &str, now: Timestamp) -> Option<(AuthContext, bool)> {
        if self.ttl.is_zero() {
            return None;
        }
        let mut entries = self.entries.lock().ok()?;
        let entry = entries.get_mut(hash)?;
        if entry.until <= Instant::now() {
            entries.remove(hash);
            return None;
        }
        let touch = due_for_touch(entry.last_used_at, now);
        if touch {
            entry.last_used_at = Some(now);
        }
        Some((entry.ctx.clone(), touch))
    }

    /// Keeps a key the store just resolved; returns it and whether to refresh `last_used_at`.
    fn put(
        &self,
        hash: String,
        ctx: AuthContext,
        last_used_at: Option<Timestamp>,
        now: Timestamp,
    ) -> (AuthContext, bool) {
        let touch = due_for_touch(last_used_at, now);
        if self.ttl.is_zero() {
            return (ctx, touch);
        }
        let last_used_at = if touch { Some(now) } else { last_used_at };
        if let Ok(mut entries) = self.entries.lock() {
            let at = Instant::now();
            if entries.len() >= KEY_CACHE_SWEEP_AT {
                entries.retain(|_, e| e.until > at);
            }
            entries.insert(hash, CachedKey { ctx: ctx.clone(), last_used_at, until: at + self.ttl });
        }
        (ctx, touch)
    }
}

fn due_for_touch(last_used_at: Option<Timestamp>, now: Timestamp) -> bool {
    last_used_at.is_none_or(|t| now.as_millis() - t.as_millis() >= TOUCH_AFTER_MS)
}

/// A scope a handler requires, named by a marker type.
pub trait RequiredScope {
    const SCOPE: Scope;
}

/// The caller, checked to hold scope `S` (403 `forbidden` otherwise).
pub struct Authed<S>(pub AuthContext, PhantomData<S>);

impl<S> Authed<S> {
    pub fn tenant(&self) -> &Tenant {
        &self.0.tenant
    }
}

impl<St: Send + Sync, S: RequiredScope> FromRequestParts<St> for Authed<S> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &St) -> Result<Self, Self::Rejection> {
        let ctx =
            parts.extensions.get::<AuthContext>().cloned().ok_or_else(|| ApiError::unauthorized("Missing API key"))?;
        if !Scope::any_grants(&ctx.scopes, &S::SCOPE) {
            return Err(ApiError::forbidden(format!("This API key lacks the {} scope", S::SCOPE)));
        }
        Ok(Authed(ctx, PhantomData))
    }
}

macro_rules! scopes {
    ($($name:ident => $scope:expr),* $(,)?) => {
        $(
            #[doc = concat!("Requires `", stringify!($scope), "`.")]
            pub struct $name;
            impl RequiredScope for $name {
                const SCOPE: Scope = $scope;
            }
        )*
    };
}

/// Marker types for [`Authed`].
pub mod scope {
    use super::RequiredScope;
    use lajan_domain::scope::Scope;

    scopes! {
        ClientsRead => Scope::Read("clients"),
        ClientsWrite => Scope::Write("clients"),
        EventsRead => Scope::Read("events"),
        SettingsRead => Scope::Read("settings"),
        SettingsWrite => Scope::Write("settings"),
        InvoicesRead => Scope::Read("invoices"),
        InvoicesWrite => Scope::Write("invoices"),
        PaymentLinksRead => Scope::Read("payment-links"),
        PaymentLinksWrite => Scope::Write("payment-links"),
        PayoutsRead => Scope::Read("payouts"),
        PayoutsWrite => Scope::Write("payouts"),
        PayoutsApprove => Scope::ApprovePayouts,
    }
}
