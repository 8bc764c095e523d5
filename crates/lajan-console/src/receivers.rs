//! What a maker does for a receiver from the clients list: send their invitation to register a
//! wallet again, or unlock one locked by wrong answers, through the API's service methods as
//! the user.

use crate::domain_text;
use crate::guard::Makers;
use crate::guard::Protected;
use crate::pages::{self, Frame, WayBack};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::invitation::{Invitation, InvitationStatus};
use lajan_i18n::{say, say_with};
use lajan_services::ServiceError;
use serde::Deserialize;

/// A list row's registration words: `none`, `invited`, `registered`, `locked` or `expired`.
pub(crate) fn registration(invitation: Option<&Invitation>) -> &'static str {
    invitation.map_or("none", |i| i.status.as_str())
}

/// Whether the row offers a resend or an unlock.
pub(crate) fn action(invitation: Option<&Invitation>) -> Option<&'static str> {
    match invitation.map(|i| i.status) {
        Some(InvitationStatus::Invited) => Some("invite"),
        Some(InvitationStatus::Locked) => Some("unlock"),
        _ => None,
    }
}

/// Only the CSRF value.
#[derive(Deserialize)]
pub(crate) struct Empty {}

pub(crate) async fn invite(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Empty, Makers>,
) -> Response {
    let signed = &request.signed;
    let sent = console.services.invite_client(&signed.session.tenant(), &id, None).await;
    finish(signed.frame(), sent.map(drop))
}

pub(crate) async fn unlock(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<Empty, Makers>,
) -> Response {
    let signed = &request.signed;
    let unlocked = console.services.unlock_invitation(&signed.session.tenant(), &id).await;
    finish(signed.frame(), unlocked.map(drop))
}

/// Back to the clients when it was done; else a page saying why not.
fn finish(frame: Frame, done: Result<(), ServiceError>) -> Response {
    let back = || WayBack { href: "/console/clients", label: say("back-to-clients") };
    match done {
        Ok(()) => Redirect::to("/console/clients").into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(frame),
        Err(ServiceError::Invalid(refusal)) => {
            pages::refused(frame, StatusCode::CONFLICT, &say("not-done"), &domain_text::refusal(&refusal), back())
        }
        Err(ServiceError::TooSoon { retry_after_seconds, .. }) => {
            let text = say_with("invitation-too-soon", &[("minutes", retry_after_seconds.div_ceil(60).to_string())]);
            pages::refused(frame, StatusCode::TOO_MANY_REQUESTS, &say("not-done"), &text, back())
        }
        Err(e) => pages::failure(&e),
    }
}
