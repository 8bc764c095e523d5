//! Signing in and out. The sign-in form is protected before any session exists by a value in
//! a cookie of its own that the form must repeat, and by the same-origin check.

use crate::guard::{
    LANGUAGE_COOKIE, NoFields, Protected, SESSION_COOKIE, SIGN_IN_PATH, cookie_value, forbidden, same_origin,
    same_secret, set_cookie, visitor_language,
};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form};
use lajan_domain::Timestamp;
use lajan_domain::network::ClientAddress;
use lajan_i18n::{Lang, say, say_with};
use lajan_services::ServiceError;
use lajan_services::console::{SignInRefusal, random_token};
use minijinja::context;
use serde::Deserialize;

/// The sign-in form's own CSRF cookie, sent back only to the form's path.
const SIGN_IN_COOKIE: &str = "lajan_sign_in";

#[derive(Deserialize)]
pub(crate) struct SignInForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrf: String,
}

/// `?lang=` on the sign-in page: the language the visitor chose with its switch.
#[derive(Deserialize)]
pub(crate) struct LanguageChoice {
    #[serde(default)]
    lang: Option<String>,
}

/// The form, with a fresh CSRF value in it and in its cookie, in the visitor's language (the
/// one chosen with the page's switch is kept in a cookie); a signed-in user goes on to the
/// dashboard.
pub(crate) async fn form(
    State(console): State<Console>,
    headers: HeaderMap,
    Query(choice): Query<LanguageChoice>,
) -> Response {
    if let Some(token) = cookie_value(&headers, SESSION_COOKIE)
        && let Ok(Some(_)) = console.services.console_session(&token).await
    {
        return Redirect::to("/console").into_response();
    }
    let chosen = choice.lang.as_deref().and_then(Lang::parse);
    let lang = chosen.unwrap_or_else(|| visitor_language(&headers));
    lajan_i18n::answer_in(lang);
    let mut page = form_page(&console, lang, StatusCode::OK, "", None);
    if let Some(chosen) = chosen
        && let Ok(cookie) =
            HeaderValue::from_str(&set_cookie(&console, LANGUAGE_COOKIE, Some(chosen.code()), "/console"))
    {
        page.headers_mut().append(header::SET_COOKIE, cookie);
    }
    page
}

fn form_page(console: &Console, lang: Lang, status: StatusCode, email: &str, error: Option<&str>) -> Response {
    let csrf = match random_token() {
        Ok(csrf) => csrf,
        Err(e) => return pages::failure(&e),
    };
    let mut response = render(status, "sign_in.html", context! { csrf, email, error, lang });
    if let Ok(cookie) = HeaderValue::from_str(&set_cookie(console, SIGN_IN_COOKIE, Some(&csrf), SIGN_IN_PATH)) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

pub(crate) async fn submit(
    State(console): State<Console>,
    client: Option<Extension<ClientAddress>>,
    headers: HeaderMap,
    Form(form): Form<SignInForm>,
) -> Response {
    let expected = cookie_value(&headers, SIGN_IN_COOKIE).unwrap_or_default();
    if expected.is_empty()
        || !same_secret(&form.csrf, &expected)
        || !same_origin(console.public_origin.as_deref(), &headers)
    {
        return forbidden();
    }
    let client = client.map(|Extension(client)| client);
    let signed_in = match console.services.sign_in(&form.email, &form.password, client).await {
        Ok(outcome) => outcome,
        Err(ServiceError::TooSoon { retry_after_seconds, .. }) => {
            // The password gate is full: nothing was checked or counted against the email.
            let busy = say("sign-in-busy");
            let lang = visitor_language(&headers);
            let mut response = form_page(&console, lang, StatusCode::TOO_MANY_REQUESTS, &form.email, Some(&busy));
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_seconds));
            return response;
        }
        Err(e) => return pages::failure(&e),
    };
    match signed_in {
        Ok(signed_in) => {
            let mut response = Redirect::to("/console").into_response();
            let cookies = [
                set_cookie(&console, SESSION_COOKIE, Some(&signed_in.token), "/console"),
                set_cookie(&console, SIGN_IN_COOKIE, None, SIGN_IN_PATH),
            ];
            for cookie in cookies {
                if let Ok(value) = HeaderValue::from_str(&cookie) {
                    response.headers_mut().append(header::SET_COOKIE, value);
                }
            }
            response
        }
        Err(SignInRefusal::Invalid) => {
            // The one answer to an unknown email, a wrong password and a disabled user.
            let invalid = say("sign-in-invalid");
            form_page(&console, visitor_language(&headers), StatusCode::UNAUTHORIZED, &form.email, Some(&invalid))
        }
        Err(SignInRefusal::Locked { until }) => {
            let seconds = (until.as_millis() - Timestamp::now().as_millis()).max(1000) / 1000;
            let minutes = (seconds + 59) / 60;
            let text = say_with("sign-in-locked", &[("minutes", minutes.to_string())]);
            let mut response = form_page(
                &console,
                visitor_language(&headers),
                StatusCode::TOO_MANY_REQUESTS,
                &form.email,
                Some(&text),
            );
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            response
        }
    }
}

/// Ends the session and clears its cookie.
pub(crate) async fn sign_out(State(console): State<Console>, request: Protected<NoFields>) -> Response {
    if let Err(e) = console.services.sign_out(&request.signed.token).await {
        return pages::failure(&e);
    }
    let mut response = Redirect::to(SIGN_IN_PATH).into_response();
    if let Ok(value) = HeaderValue::from_str(&set_cookie(&console, SESSION_COOKIE, None, "/console")) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}
