//! Choosing one's own password: a user invited with a password someone else chose sets their
//! own at first sign-in, and sees no other page until they have (the guard sends them here).

use crate::domain_text;
use crate::guard::{Protected, Signed};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_services::ServiceError;
use minijinja::context;
use serde::Deserialize;

#[derive(Deserialize)]
pub(crate) struct PasswordForm {
    #[serde(default)]
    password: String,
    #[serde(default)]
    repeat: String,
}

fn password_page(signed: &Signed, status: StatusCode, errors: Vec<String>) -> Response {
    render(status, "password.html", context! { frame => signed.frame(), errors })
}

pub(crate) async fn form(signed: Signed) -> Response {
    password_page(&signed, StatusCode::OK, Vec::new())
}

pub(crate) async fn save(State(console): State<Console>, request: Protected<PasswordForm>) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    match console.services.set_own_password(&signed.session.user, &form.password, &form.repeat).await {
        Ok(()) => Redirect::to("/console").into_response(),
        Err(ServiceError::Invalid(refusal)) => {
            password_page(signed, StatusCode::BAD_REQUEST, domain_text::refusal_lines(&refusal))
        }
        Err(e) => pages::failure(&e),
    }
}
