//! Rendering: the console's templates (HTML-escaped by name), the frame every signed-in page
//! shares (who, where, the sandbox banner, the CSRF value its forms carry), and the plain pages
//! for refusals and failures.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use lajan_domain::console::ConsoleSession;
use lajan_domain::id::IdKind;
use lajan_domain::user::Duty;
use lajan_i18n::{Lang, say};
use lajan_services::ServiceError;
use lajan_store::StoreResult;
use minijinja::{Environment, Value, context};
use serde::Serialize;
use std::sync::OnceLock;

const TEMPLATES: &[(&str, &str)] = &[
    ("layout.html", include_str!("../templates/layout.html")),
    ("sign_in.html", include_str!("../templates/sign_in.html")),
    ("dashboard.html", include_str!("../templates/dashboard.html")),
    ("message.html", include_str!("../templates/message.html")),
    ("confirm.html", include_str!("../templates/confirm.html")),
    ("pager.html", include_str!("../templates/pager.html")),
    ("macros.html", include_str!("../templates/macros.html")),
    ("timeline.html", include_str!("../templates/timeline.html")),
    ("invoices.html", include_str!("../templates/invoices.html")),
    ("invoice.html", include_str!("../templates/invoice.html")),
    ("payouts.html", include_str!("../templates/payouts.html")),
    ("payout.html", include_str!("../templates/payout.html")),
    ("clients.html", include_str!("../templates/clients.html")),
    ("client.html", include_str!("../templates/client.html")),
    ("client_form.html", include_str!("../templates/client_form.html")),
    ("events.html", include_str!("../templates/events.html")),
    ("messages.html", include_str!("../templates/messages.html")),
    ("keys.html", include_str!("../templates/keys.html")),
    ("users.html", include_str!("../templates/users.html")),
    ("audit.html", include_str!("../templates/audit.html")),
    ("approvals.html", include_str!("../templates/approvals.html")),
    ("payout_new.html", include_str!("../templates/payout_new.html")),
    ("disbursement_new.html", include_str!("../templates/disbursement_new.html")),
    ("invoice_form.html", include_str!("../templates/invoice_form.html")),
    ("settings.html", include_str!("../templates/settings.html")),
    ("password.html", include_str!("../templates/password.html")),
    ("webhooks.html", include_str!("../templates/webhooks.html")),
    ("webhook.html", include_str!("../templates/webhook.html")),
    ("webhook_delivery.html", include_str!("../templates/webhook_delivery.html")),
    ("disbursements.html", include_str!("../templates/disbursements.html")),
    ("disbursement.html", include_str!("../templates/disbursement.html")),
];

fn templates() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        lajan_i18n::add_to(&mut env);
        for (name, source) in TEMPLATES {
            env.add_template(name, source).unwrap_or_else(|e| panic!("console template {name} does not parse: {e}"));
        }
        env
    })
}

/// What the layout shows of the signed-in user and the environment they are looking at.
#[derive(Serialize)]
pub(crate) struct Frame {
    pub email: String,
    pub name: Option<String>,
    pub role: &'static str,
    pub environment: &'static str,
    pub sandbox: bool,
    /// Whether the header links to the admins' pages.
    pub admin: bool,
    /// Whether the user decides approvals (approvers and admins).
    pub approver: bool,
    /// Whether the user prepares invoices, payouts and disbursements (makers and admins).
    pub maker: bool,
    pub csrf: String,
    pub lang: Lang,
    /// The page shown, for the language switch to return to.
    pub path: String,
    /// The organization's timezone: the `when` filter shows times in it, naming it.
    pub timezone: String,
}

impl Frame {
    /// The frame of `session`'s pages in `lang`, on the page at `path`.
    pub(crate) fn new(session: &ConsoleSession, lang: Lang, path: String, timezone: String) -> Self {
        Frame {
            lang,
            path,
            timezone,
            email: session.user.email.clone(),
            name: session.user.name.clone(),
            role: session.user.role.as_str(),
            environment: session.environment.as_str(),
            sandbox: !session.environment.is_live(),
            admin: session.user.role.may(Duty::Administer),
            approver: session.user.role.may(Duty::Approve),
            maker: session.user.role.may(Duty::Prepare),
            csrf: session.csrf.clone(),
        }
    }
}

/// `template` rendered with `values` (which name `frame` on signed-in pages), answered with
/// `status`.
pub(crate) fn render(status: StatusCode, template: &str, values: Value) -> Response {
    let rendered = templates().get_template(template).and_then(|t| t.render(values));
    match rendered {
        Ok(html) => (status, Html(html)).into_response(),
        Err(e) => {
            tracing::error!(template, error = %e, "a console template failed to render");
            let (title, text) = (say("something-went-wrong"), say("logged-try-again"));
            let page = format!("<!doctype html><title>{title}</title><h1>{title}</h1><p>{text}</p>");
            (StatusCode::INTERNAL_SERVER_ERROR, Html(page)).into_response()
        }
    }
}

/// A CSV report as a download named `filename`; a report that could not be written is the
/// failure page.
pub(crate) fn csv_download(csv: std::io::Result<Vec<u8>>, filename: &str) -> Response {
    let csv = match csv {
        Ok(csv) => csv,
        Err(e) => return failure(&ServiceError::Unavailable(e.to_string())),
    };
    let mut response = csv.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// A page that says one thing: a refusal, a missing page.
pub(crate) fn message(status: StatusCode, title: &str, text: &str) -> Response {
    render(status, "message.html", context! { title, text, lang => lajan_i18n::answering_in() })
}

/// An action that was refused: why, and a link back to the page it came from.
pub(crate) struct WayBack<'a> {
    pub href: &'a str,
    pub label: String,
}

pub(crate) fn refused(frame: Frame, status: StatusCode, title: &str, text: &str, back: WayBack<'_>) -> Response {
    let values = context! { frame, title, text, back => back.href, back_text => back.label };
    render(status, "message.html", values)
}

/// The page for an id that names nothing this organization has in this environment (another
/// organization's ids, and the other environment's, look the same).
pub(crate) fn not_found(frame: Frame) -> Response {
    let (title, text) = (say("not-found"), say("not-found-explained"));
    render(StatusCode::NOT_FOUND, "message.html", context! { frame, title, text })
}

/// The record `id` names, read by `read` when `id` is of `kind` (any other id names nothing and
/// is never looked up), or the page to answer instead: not found (in `frame`), or the failure.
pub(crate) async fn record<T, Read: Future<Output = StoreResult<Option<T>>>>(
    frame: impl FnOnce() -> Frame,
    kind: IdKind,
    id: &str,
    read: impl FnOnce() -> Read,
) -> Result<T, Response> {
    let found = if kind.is_id(id) { read().await } else { Ok(None) };
    match found {
        Ok(Some(record)) => Ok(record),
        Ok(None) => Err(not_found(frame())),
        Err(e) => Err(failure(&e.into())),
    }
}

/// A use case that failed on our side (the database, the randomness source): logged, and a
/// page that says so without details.
pub(crate) fn failure(error: &ServiceError) -> Response {
    tracing::error!(error = %lajan_services::error::error_chain(error), "a console request failed");
    message(StatusCode::INTERNAL_SERVER_ERROR, &say("something-went-wrong"), &say("logged-try-again"))
}

/// A page that could not be made, already rendered as the page that says why. Handlers return
/// `Result<Response, Refused>` and `?` what fails: the store or a service (the failure page,
/// logged), or a list's query ([`crate::lists::BadQuery`], a 400 page).
pub(crate) struct Refused(pub Response);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        self.0
    }
}

impl From<ServiceError> for Refused {
    fn from(error: ServiceError) -> Self {
        Refused(failure(&error))
    }
}

impl From<lajan_store::StoreError> for Refused {
    fn from(error: lajan_store::StoreError) -> Self {
        Refused(failure(&error.into()))
    }
}
