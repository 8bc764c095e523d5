//! Authentication (`Authorization: Bearer sk_...`) and scope checks.
//!
//! The middleware resolves the key to an [`AuthContext`] (organization, environment, scopes);
//! handlers name the scope they need with the [`Authed`] extractor, which answers 403 without it.

pub(crate) use crate::caller::AuthContext;
use crate::error::ApiError;
use crate::keys::hash_secret;
use crate::observe::RequestOrg;
use crate::state::AppState;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use lajan_domain::apikey::secret_environment;
use lajan_domain::scope::Scope;
use lajan_domain::{Actor, Tenant, Timestamp};
use std::marker::PhantomData;

pub(crate) async fn authenticate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let header = req.headers().get(AUTHORIZATION).map(|h| h.to_str().map(str::to_owned));
    match resolve(&state, header).await {
        Ok(ctx) => {
            let org = RequestOrg(ctx.tenant.org_id.clone());
            req.extensions_mut().insert(ctx);
            let mut response = next.run(req).await;
            response.extensions_mut().insert(org);
            response
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
    // Read before the lookup: a key revoked while it is being resolved is not cached as live.
    let revocations = state.services.keys_revoked();
    let (ctx, touch) = match state.keys.get(&hash, now, revocations) {
        Some(hit) => hit,
        None => {
            let (key, org) = state.store.authenticate(&hash).await?.ok_or_else(invalid)?;
            let ctx = AuthContext {
                tenant: Tenant::new(org.id, key.env).acting_as(Actor::ApiKey(key.id.clone())),
                key_id: key.id,
                scopes: key.scopes,
                tier: org.tier,
            };
            state.keys.put(hash, ctx, key.last_used_at, now, revocations)
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

/// A scope a handler requires, named by a marker type.
pub(crate) trait RequiredScope {
    const SCOPE: Scope;
}

/// The caller, checked to hold scope `S` (403 `forbidden` otherwise).
pub(crate) struct Authed<S>(pub AuthContext, PhantomData<S>);

/// Put in the request by [`Authed`] once the route's scope passed: the `Idempotency-Key` is
/// looked at only after it (see `idempotency`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScopeChecked;

impl<S> Authed<S> {
    pub(crate) fn tenant(&self) -> &Tenant {
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
        parts.extensions.insert(ScopeChecked);
        Ok(Authed(ctx, PhantomData))
    }
}

macro_rules! scopes {
    ($($name:ident => $scope:expr),* $(,)?) => {
        $(
            #[doc = concat!("Requires `", stringify!($scope), "`.")]
            pub(crate) struct $name;
            impl RequiredScope for $name {
                const SCOPE: Scope = $scope;
            }
        )*
    };
}

/// Marker types for [`Authed`].
pub(crate) mod scope {
    use super::RequiredScope;
    use lajan_domain::scope::Scope;

    scopes! {
        ClientsRead => Scope::Read("clients"),
        ClientsWrite => Scope::Write("clients"),
        DisbursementsRead => Scope::Read("disbursements"),
        DisbursementsWrite => Scope::Write("disbursements"),
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
        SandboxRead => Scope::Read("sandbox"),
        WebhookEndpointsRead => Scope::Read("webhook-endpoints"),
        WebhookEndpointsWrite => Scope::Write("webhook-endpoints"),
    }
}
