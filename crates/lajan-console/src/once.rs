//! A create form posted twice (a double click, a page resubmitted) makes one thing. Each create
//! form carries a one-time key, claimed in the change's own transaction exactly as an API
//! `Idempotency-Key` is; a repeat of the post is sent to what the first one made.

use crate::pages::{self, Frame};
use crate::state::Console;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::{Tenant, Timestamp};
use lajan_i18n::say;
use lajan_services::console::random_token;
use lajan_services::keys::hash_secret;
use lajan_services::{ServiceError, ServiceResult};
use lajan_store::{IdempotencyClaim, IdempotencyState};

/// How long a form's key keeps sending repeats to what it made.
const KEY_TTL_MS: i64 = 24 * 60 * 60 * 1000;

/// A fresh key for a create form's hidden `once` field.
pub(crate) fn new_key() -> ServiceResult<String> {
    random_token()
}

/// What a create form's post should do about its key.
pub(crate) enum Before {
    /// Make the thing, claiming this key in the same transaction.
    Fresh(IdempotencyClaim),
    /// It was made already: go to it.
    Made(Response),
}

/// Reads the form's key for the create at `path`. A key never issued for this form (missing or
/// malformed) is a 400 page: the form is out of date and must be reloaded.
pub(crate) async fn before(
    console: &Console,
    tenant: &Tenant,
    frame: Frame,
    path: &str,
    key: &str,
) -> Result<Before, Response> {
    if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        let (title, text) = (say("reload-form"), say("form-out-of-date"));
        return Err(pages::render(StatusCode::BAD_REQUEST, "message.html", minijinja::context! { frame, title, text }));
    }
    let claim = IdempotencyClaim {
        key: format!("console:{key}"),
        // A key travels with one form: the same key posted to another form is refused.
        request_hash: hash_secret(path),
        at: Timestamp::now(),
        ttl_ms: KEY_TTL_MS,
    };
    match made(console, tenant, &claim).await {
        Ok(None) => Ok(Before::Fresh(claim)),
        Ok(Some(made)) => Ok(Before::Made(made)),
        Err(e) => Err(pages::failure(&e)),
    }
}

/// Where a create that lost the race for its key goes: to what the winner made.
pub(crate) async fn taken(console: &Console, tenant: &Tenant, claim: &IdempotencyClaim) -> Response {
    match made(console, tenant, claim).await {
        Ok(Some(made)) => made,
        Ok(None) => pages::failure(&ServiceError::Unavailable("the form's key was taken but holds nothing".into())),
        Err(e) => pages::failure(&e),
    }
}

/// The redirect to what the key made, if it made something.
async fn made(console: &Console, tenant: &Tenant, claim: &IdempotencyClaim) -> ServiceResult<Option<Response>> {
    let state = console.services.store.idempotency_lookup(tenant, &claim.key, &claim.request_hash, claim.at).await?;
    Ok(match state {
        IdempotencyState::Free => None,
        IdempotencyState::Replay { body, .. } => Some(Redirect::to(&String::from_utf8_lossy(&body)).into_response()),
        IdempotencyState::Mismatch => {
            Some(pages::message(StatusCode::CONFLICT, &say("reload-form"), &say("form-key-of-another-form")))
        }
    })
}
