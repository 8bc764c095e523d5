//! The users page (admins): the organization's console users, inviting one (a generated
//! password shown once, to pass on) and disabling one.

use crate::domain_text;
use crate::guard::Admins;
use crate::guard::{NoFields, Protected, Signed};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::user::{Duty, Role};
use lajan_services::ServiceError;
use minijinja::{Value, context};
use serde::Deserialize;

async fn users_page(console: &Console, signed: &Signed, status: StatusCode, extra: Value) -> Response {
    let org_id = &signed.session.user.org_id;
    let users = match console.services.store.list_users(Some(org_id)).await {
        Ok(users) => users,
        Err(e) => return pages::failure(&e.into()),
    };
    let users: Vec<Value> = users
        .iter()
        .map(|u| {
            context! { id => u.id, email => u.email, name => u.name, role => u.role.as_str(),
            created_at => u.created_at.to_string(), disabled_at => u.disabled_at.map(|t| t.to_string()),
            me => u.id == signed.session.user.id }
        })
        .collect();
    let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
    let values = context! { frame => signed.frame(), users, roles };
    render(status, "users.html", context! { ..values, ..extra })
}

pub(crate) async fn list(State(console): State<Console>, signed: Signed) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Administer) {
        return refused;
    }
    users_page(&console, &signed, StatusCode::OK, context! {}).await
}

#[derive(Deserialize)]
pub(crate) struct InviteForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    role: String,
}

pub(crate) async fn invite(State(console): State<Console>, request: Protected<InviteForm, Admins>) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let org_id = &signed.session.user.org_id;
    match console
        .services
        .invite_user(&signed.session.tenant().actor, org_id, &form.email, &form.role, &form.name)
        .await
    {
        Ok((user, password)) => {
            let invited = context! { email => user.email, password };
            users_page(&console, signed, StatusCode::CREATED, context! { invited }).await
        }
        Err(ServiceError::Invalid(invalid)) => {
            let errors = domain_text::field_lines(&invalid);
            let values = context! { errors, email => form.email, name => form.name, role => form.role };
            users_page(&console, signed, StatusCode::BAD_REQUEST, values).await
        }
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn disable(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<NoFields, Admins>,
) -> Response {
    let signed = &request.signed;
    match console.services.disable_org_user(&signed.session.user.org_id, &id, &signed.session.user).await {
        Ok(_) => Redirect::to("/console/users").into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(ServiceError::Invalid(invalid)) => {
            let errors = domain_text::refusal_lines(&invalid);
            users_page(&console, signed, StatusCode::BAD_REQUEST, context! { errors }).await
        }
        Err(e) => pages::failure(&e),
    }
}
