//! Who is asking, in which language, and whether they meant to: the session cookie (no session,
//! no page: 303 to the sign-in form), the visitor's chosen language, and for every change the
//! session's CSRF value and a same-origin `Origin` or `Referer` (anything else is 403 and
//! changes nothing).

use crate::pages;
use crate::state::Console;
use axum::body::Bytes;
use axum::extract::{FromRef, FromRequest, FromRequestParts, Multipart, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use cookie::{Cookie, SameSite};
use lajan_domain::console::ConsoleSession;
use lajan_domain::user::Duty;
use lajan_i18n::{Lang, asked_language, say, text};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::marker::PhantomData;

/// The session's token. Only its digest is stored.
pub(crate) const SESSION_COOKIE: &str = "lajan_session";
pub(crate) const SIGN_IN_PATH: &str = "/console/sign-in";

/// The cookie keeping the language a visitor chose on the sign-in page, before any account.
pub(crate) const LANGUAGE_COOKIE: &str = "lajan_lang";

/// A visitor's language: the one they chose on the sign-in page, else their browser's.
pub(crate) fn visitor_language(headers: &HeaderMap) -> Lang {
    cookie_value(headers, LANGUAGE_COOKIE)
        .and_then(|chosen| Lang::parse(&chosen))
        .unwrap_or_else(|| asked_language(headers))
}

/// A posted form's text field, trimmed, unless it was left empty.
pub(crate) fn filled(text: &str) -> Option<String> {
    Some(text.trim().to_owned()).filter(|t| !t.is_empty())
}

/// The value of cookie `name` in the request, if it sent one.
pub(crate) fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_owned())
}

/// A `Set-Cookie` value for the console: readable by no script, sent on no cross-site request,
/// only to `path`, and only over https when the console is served so. `None` clears it.
pub(crate) fn set_cookie(console: &Console, name: &str, value: Option<&str>, path: &str) -> String {
    let mut cookie = Cookie::build((name, value.unwrap_or("").to_owned()))
        .http_only(true)
        .same_site(SameSite::Strict)
        .path(path.to_owned())
        .secure(console.secure_cookies);
    if value.is_none() {
        cookie = cookie.max_age(cookie::time::Duration::ZERO);
    }
    cookie.build().to_string()
}

/// Whether the request comes from a page of this console: its `Origin` (or, when a browser sent
/// none, its `Referer`) names the host the request was sent to, or the public URL's origin.
pub(crate) fn same_origin(public_origin: Option<&str>, headers: &HeaderMap) -> bool {
    let header_text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let Some(source) = header_text(header::ORIGIN).filter(|o| *o != "null").or_else(|| header_text(header::REFERER))
    else {
        return false;
    };
    let Ok(source) = url::Url::parse(source) else {
        return false;
    };
    if !matches!(source.scheme(), "http" | "https") {
        return false;
    }
    let origin = source.origin().ascii_serialization();
    if public_origin == Some(origin.as_str()) {
        return true;
    }
    let Some(authority) = lajan_domain::network::authority(&source) else {
        return false;
    };
    header_text(header::HOST).is_some_and(|host| host.eq_ignore_ascii_case(&authority))
}

/// Equal without saying where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A request from a signed-in user: their live session and its token.
/// Where a user whose password someone else chose is sent until they have chosen their own.
pub(crate) const SET_PASSWORD_PATH: &str = "/console/password";

pub(crate) struct Signed {
    pub session: ConsoleSession,
    pub token: String,
    /// The language the pages answer in.
    pub lang: Lang,
    /// The page asked for, with its query: where the language switch returns to.
    pub path: String,
    /// The organization's timezone in this environment (IANA): pages show times in it.
    pub timezone: String,
}

impl Signed {
    /// Whether a change came from one of this console's pages: a same-origin request carrying
    /// the session's CSRF value (anything else gets [`forbidden`]).
    fn posted_from_own_page(&self, console: &Console, headers: &HeaderMap, csrf: &str) -> bool {
        same_origin(console.public_origin.as_deref(), headers) && same_secret(csrf, &self.session.csrf)
    }

    /// What every page of this request shows around its content.
    pub(crate) fn frame(&self) -> pages::Frame {
        pages::Frame::new(&self.session, self.lang, self.path.clone(), self.timezone.clone())
    }

    /// The 403 page when the user's role may not do `duty`; `None` when it may.
    pub(crate) fn refused_unless(&self, duty: Duty) -> Option<Response> {
        let role = self.session.user.role;
        (!role.may(duty)).then(|| {
            let role = text(self.lang, &format!("role-{role}"), &[]);
            let text = text(self.lang, "role-not-allowed", &[("role", role)]);
            let title = lajan_i18n::text(self.lang, "not-allowed", &[]);
            pages::render(
                StatusCode::FORBIDDEN,
                "message.html",
                minijinja::context! { frame => self.frame(), title, text },
            )
        })
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Signed
where
    Console: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let console = Console::from_ref(state);
        let to_sign_in = || Redirect::to(SIGN_IN_PATH).into_response();
        let Some(token) = cookie_value(&parts.headers, SESSION_COOKIE) else {
            return Err(to_sign_in());
        };
        match console.services.console_session(&token).await {
            Ok(Some(session)) => {
                let chosen = session.user.language.as_deref().and_then(Lang::parse);
                let lang = chosen.unwrap_or_else(|| visitor_language(&parts.headers));
                lajan_i18n::answer_in(lang);
                let path = parts.uri.path_and_query().map_or("/console", |p| p.as_str()).to_owned();
                // An invited user sets their own password before anything else; they may still
                // sign out or switch the language.
                let may_wait = [SET_PASSWORD_PATH, "/console/sign-out", "/console/language"];
                if session.user.must_set_password && !may_wait.contains(&parts.uri.path()) {
                    return Err(Redirect::to(SET_PASSWORD_PATH).into_response());
                }
                let timezone = match console.services.store.get_settings(&session.tenant()).await {
                    Ok(settings) => settings.timezone,
                    Err(e) => return Err(pages::failure(&e.into())),
                };
                Ok(Signed { session, token, lang, path, timezone })
            }
            Ok(None) => Err(to_sign_in()),
            Err(e) => Err(pages::failure(&e)),
        }
    }
}

#[derive(Deserialize)]
struct CsrfField {
    #[serde(default)]
    csrf: String,
}

/// The form of a change that carries nothing but its CSRF value (sign out, revoke, disable).
#[derive(Deserialize)]
pub(crate) struct NoFields {}

/// Who may post a change: each marker names the duty its poster's role must allow.
pub(crate) trait MayPost {
    const DUTY: Option<Duty>;
}

/// Any signed-in user (their own password, language, environment, signing out).
pub(crate) struct AnyUser;
/// Makers and admins: they prepare invoices, payouts, disbursements and clients.
pub(crate) struct Makers;
/// Approvers and admins: they decide.
pub(crate) struct Approvers;
/// Admins: keys, users, webhooks, settings.
pub(crate) struct Admins;

impl MayPost for AnyUser {
    const DUTY: Option<Duty> = None;
}
impl MayPost for Makers {
    const DUTY: Option<Duty> = Some(Duty::Prepare);
}
impl MayPost for Approvers {
    const DUTY: Option<Duty> = Some(Duty::Approve);
}
impl MayPost for Admins {
    const DUTY: Option<Duty> = Some(Duty::Administer);
}

/// A change posted by a signed-in user from one of the console's own pages, carrying their
/// session's CSRF value, by a role `Who` allows (anyone else gets the 403 page naming their
/// role), with its form parsed.
pub(crate) struct Protected<T, Who: MayPost = AnyUser> {
    pub signed: Signed,
    pub form: T,
    who: PhantomData<fn() -> Who>,
}

impl<S: Send + Sync, T: DeserializeOwned, Who: MayPost> FromRequest<S> for Protected<T, Who>
where
    Console: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Response> {
        let console = Console::from_ref(state);
        let (mut parts, body) = request.into_parts();
        let signed = Signed::from_request_parts(&mut parts, state).await?;
        let headers = parts.headers.clone();
        let body =
            Bytes::from_request(Request::from_parts(parts, body), state).await.map_err(IntoResponse::into_response)?;
        let csrf = serde_urlencoded::from_bytes::<CsrfField>(&body).map(|f| f.csrf).unwrap_or_default();
        if !signed.posted_from_own_page(&console, &headers, &csrf) {
            return Err(forbidden());
        }
        if let Some(refused) = Who::DUTY.and_then(|duty| signed.refused_unless(duty)) {
            return Err(refused);
        }
        let form = serde_urlencoded::from_bytes(&body).map_err(|e| unreadable_form(&e))?;
        Ok(Protected { signed, form, who: PhantomData })
    }
}

/// A file posted by a signed-in user from one of the console's own pages
/// (`multipart/form-data`), with the session's CSRF value among its fields.
pub(crate) struct Upload {
    pub signed: Signed,
    /// The text fields, by name (the last one of a name wins).
    pub fields: HashMap<String, String>,
    /// The file field's content; empty when no file was chosen.
    pub file: Bytes,
}

impl Upload {
    pub(crate) fn field(&self, name: &str) -> &str {
        self.fields.get(name).map_or("", String::as_str)
    }
}

impl<S: Send + Sync> FromRequest<S> for Upload
where
    Console: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Response> {
        let console = Console::from_ref(state);
        let (mut parts, body) = request.into_parts();
        let signed = Signed::from_request_parts(&mut parts, state).await?;
        let headers = parts.headers.clone();
        let unreadable = |e: &dyn std::fmt::Display| unreadable_form(e);
        let mut form =
            Multipart::from_request(Request::from_parts(parts, body), state).await.map_err(|e| unreadable(&e))?;
        let (mut fields, mut file) = (HashMap::new(), Bytes::new());
        while let Some(field) = form.next_field().await.map_err(|e| unreadable(&e))? {
            let name = field.name().unwrap_or_default().to_owned();
            if field.file_name().is_some() {
                file = field.bytes().await.map_err(|e| unreadable(&e))?;
            } else {
                fields.insert(name, field.text().await.map_err(|e| unreadable(&e))?);
            }
        }
        if !signed.posted_from_own_page(&console, &headers, fields.get("csrf").map_or("", String::as_str)) {
            return Err(forbidden());
        }
        Ok(Upload { signed, fields, file })
    }
}

/// The answer to a change that did not come from this console's own page.
pub(crate) fn forbidden() -> Response {
    pages::message(StatusCode::FORBIDDEN, &say("request-refused"), &say("request-refused-explained"))
}

/// The answer to a form this console's pages would not have sent (what was wrong is logged: it
/// speaks of field names, not of what the person typed).
fn unreadable_form(error: &dyn std::fmt::Display) -> Response {
    tracing::info!(%error, "a console form could not be read");
    pages::message(StatusCode::BAD_REQUEST, &say("form-unreadable"), &say("form-unreadable-explained"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn cookies_are_read_from_any_cookie_header() {
        let h = headers(&[("cookie", "a=1; lajan_session=tok"), ("cookie", "b=2")]);
        assert_eq!(cookie_value(&h, "lajan_session").as_deref(), Some("tok"));
        assert_eq!(cookie_value(&h, "b").as_deref(), Some("2"));
        assert_eq!(cookie_value(&h, "c"), None);
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd") && !same_secret("abc", "ab") && !same_secret("", "a"));
    }

    #[test]
    fn only_this_console_s_pages_are_same_origin() {
        let host = ("host", "127.0.0.1:8080");
        let public = Some("https://lajan.example.ht");
        assert!(same_origin(None, &headers(&[host, ("origin", "http://127.0.0.1:8080")])));
        assert!(same_origin(None, &headers(&[host, ("referer", "http://127.0.0.1:8080/console/payouts")])));
        assert!(same_origin(public, &headers(&[host, ("origin", "https://lajan.example.ht")])), "behind a proxy");
        for refused in [
            vec![host],
            vec![host, ("origin", "null")],
            vec![host, ("origin", "https://evil.example")],
            vec![host, ("origin", "http://127.0.0.1:8081")],
            vec![host, ("origin", "http://127.0.0.1")],
            vec![host, ("referer", "https://evil.example/?http://127.0.0.1:8080")],
            vec![host, ("origin", "ftp://127.0.0.1:8080")],
            vec![("origin", "http://127.0.0.1:8080")],
        ] {
            assert!(!same_origin(public, &headers(&refused)), "{refused:?}");
        }
    }
}
