//! The console's language: each request speaks what its browser asks for (`Accept-Language`)
//! until the signed-in user's choice replaces it, and the switch every page's header carries
//! keeps that choice with their account and returns them to the page they were on.

use crate::domain_text;
use crate::guard::{Protected, visitor_language};
use crate::pages;
use crate::state::Console;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_i18n::say;
use lajan_services::ServiceError;
use serde::Deserialize;

/// Middleware: answer the request in the visitor's language ([`visitor_language`]), unless the
/// signed-in user chose one ([`lajan_i18n::answer_in`]).
pub(crate) async fn speak_the_asked_language(request: Request, next: Next) -> Response {
    let lang = visitor_language(request.headers());
    lajan_i18n::answering(lang, next.run(request)).await
}

#[derive(Deserialize)]
pub(crate) struct LanguageForm {
    /// `en`, `fr`, `ht`, or empty for the browser's.
    #[serde(default)]
    language: String,
    /// The console page to return to.
    #[serde(default)]
    back: String,
}

/// `back` when it is a page of the console, else the dashboard: the switch never sends anyone
/// elsewhere, and a value that cannot be a `Location` (a space, CR, LF or any byte outside
/// printable ASCII; browsers send page addresses percent-encoded) is not one of its pages.
fn back_to(back: &str) -> &str {
    let console_page = back == "/console" || back.starts_with("/console/");
    let location = back.bytes().all(|b| b.is_ascii_graphic()) && !back.contains("//") && !back.contains('\\');
    if console_page && location { back } else { "/console" }
}

pub(crate) async fn choose(State(console): State<Console>, request: Protected<LanguageForm>) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    match console.services.set_console_language(&signed.session.user.id, Some(&form.language)).await {
        Ok(()) => Redirect::to(back_to(&form.back)).into_response(),
        Err(ServiceError::Invalid(refusal)) => {
            pages::message(StatusCode::BAD_REQUEST, &say("language"), &domain_text::field_lines(&refusal).join(" "))
        }
        Err(e) => pages::failure(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::back_to;

    #[test]
    fn the_switch_returns_to_console_pages_only() {
        assert_eq!(back_to("/console/invoices?status=paid"), "/console/invoices?status=paid");
        assert_eq!(back_to("/console"), "/console");
        for elsewhere in [
            "https://evil.example",
            "//evil.example",
            "/console//evil.example",
            "/consoles",
            "/v1/x",
            "",
            "/console/invoices\r\nSet-Cookie: x=1",
            "/console/é",
        ] {
            assert_eq!(back_to(elsewhere), "/console", "{elsewhere}");
        }
    }
}
