//! The API keys page (admins): the keys of the organization in the environment shown, each with
//! its hint and scopes; a new key with the scopes ticked (its secret shown once, on the answer
//! to the form, and stored nowhere); revoking one.

use crate::domain_text;
use crate::guard::Admins;
use crate::guard::{NoFields, Protected, Signed};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::scope::AREAS;
use lajan_domain::user::Duty;
use lajan_services::ServiceError;
use minijinja::{Value, context};

/// Every scope a key can hold, in the order the form offers them.
fn all_scopes() -> Vec<String> {
    let mut scopes = vec!["*".to_owned()];
    for area in AREAS {
        scopes.push(format!("{area}:read"));
        scopes.push(format!("{area}:write"));
    }
    scopes.push("payouts:approve".to_owned());
    scopes.push(lajan_domain::scope::SANDBOX_READ.to_owned());
    scopes
}

async fn keys_page(console: &Console, signed: &Signed, status: StatusCode, extra: Value) -> Response {
    let keys = match console.services.list_keys(&signed.session.tenant()).await {
        Ok(keys) => keys,
        Err(e) => return pages::failure(&e),
    };
    let keys: Vec<Value> = keys
        .iter()
        .rev()
        .map(|k| {
            let scopes: Vec<String> = k.scopes.iter().map(ToString::to_string).collect();
            context! { id => k.id, name => k.name, hint => k.hint, scopes, created_at => k.created_at.to_string(),
            last_used_at => k.last_used_at.map(|t| t.to_string()), revoked_at => k.revoked_at.map(|t| t.to_string()) }
        })
        .collect();
    let values = context! { frame => signed.frame(), keys, scopes => all_scopes() };
    render(status, "keys.html", context! { ..values, ..extra })
}

pub(crate) async fn list(State(console): State<Console>, signed: Signed) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Administer) {
        return refused;
    }
    keys_page(&console, &signed, StatusCode::OK, context! {}).await
}

/// The new-key form: a name, and one `scope` field per ticked box.
struct NewKeyForm {
    name: String,
    scope: Vec<String>,
}

pub(crate) async fn create(
    State(console): State<Console>,
    request: Protected<Vec<(String, String)>, Admins>,
) -> Response {
    let signed = &request.signed;
    let form = NewKeyForm {
        name: request.form.iter().find(|(k, _)| k == "name").map(|(_, v)| v.clone()).unwrap_or_default(),
        scope: request.form.iter().filter(|(k, _)| k == "scope").map(|(_, v)| v.clone()).collect(),
    };
    match console.services.create_key(&signed.session.tenant(), &form.name, &form.scope).await {
        Ok((secret, key)) => {
            let created = context! { secret, name => key.name };
            keys_page(&console, signed, StatusCode::CREATED, context! { created }).await
        }
        Err(ServiceError::Invalid(invalid)) => {
            let errors = domain_text::field_lines(&invalid);
            let values = context! { errors, name => form.name, ticked => form.scope };
            keys_page(&console, signed, StatusCode::BAD_REQUEST, values).await
        }
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn revoke(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<NoFields, Admins>,
) -> Response {
    let signed = &request.signed;
    match console.services.revoke_key(&signed.session.tenant(), &id).await {
        Ok(_) => Redirect::to("/console/keys").into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(e) => pages::failure(&e),
    }
}
