//! The second step before an act that cannot be taken back (approve, reject, void, submit a
//! disbursement), without JavaScript: the first post answers a page saying what will happen,
//! whose button posts the same fields again, to the same path, with `confirmed`; and the
//! notice a page shows after an act (`?done=approved`).

use crate::pages::{Frame, render};
use axum::http::StatusCode;
use axum::response::Response;
use lajan_i18n::say;
use minijinja::context;
use serde::Deserialize;

/// The confirmation page of one act.
pub(crate) struct Confirm<'a> {
    /// What will happen, in words (amounts and names included).
    pub text: String,
    /// The fields to post again, besides the CSRF value and `confirmed`.
    pub fields: Vec<(&'static str, String)>,
    /// The button's catalogue key (`confirm-yes-approve`), and whether it undoes or refuses.
    pub button: &'static str,
    pub danger: bool,
    /// The page to return to without acting.
    pub back: &'a str,
}

/// The page asking to confirm: nothing is done until its button is pressed, which posts to the
/// act's own path (the frame's: the page answers the act's first post).
pub(crate) fn page(frame: Frame, confirm: Confirm<'_>) -> Response {
    let fields: Vec<_> = confirm.fields.iter().map(|(name, value)| context! { name, value }).collect();
    let values = context! { frame, text => confirm.text, fields,
    button => say(confirm.button), danger => confirm.danger, back => confirm.back };
    render(StatusCode::OK, "confirm.html", values)
}

/// `?done=` after an act: the notice its page shows.
#[derive(Deserialize, Default)]
pub(crate) struct Done {
    #[serde(default)]
    done: Option<String>,
}

/// The acts a page may report, each with its notice's catalogue key.
const NOTICES: &[(&str, &str)] = &[
    ("approved", "done-approved"),
    ("rejected", "done-rejected"),
    ("canceled", "done-canceled"),
    ("sent", "done-sent"),
    ("voided", "done-voided"),
    ("submitted", "done-submitted"),
    ("payment", "done-payment"),
    ("reversed", "done-reversed"),
    ("credit-note", "done-credit-note"),
    ("credit-note-voided", "done-credit-note-voided"),
];

impl Done {
    /// The notice for the act named, in the page's language; none for a name it does not know.
    pub(crate) fn notice(&self) -> Option<String> {
        let done = self.done.as_deref()?;
        NOTICES.iter().find(|(act, _)| *act == done).map(|(_, key)| say(key))
    }
}

/// `path` with `?done=act` (or `&done=act` when it has a query already).
pub(crate) fn reported(path: &str, act: &str) -> String {
    let joiner = if path.contains('?') { '&' } else { '?' };
    format!("{path}{joiner}done={act}")
}

/// An amount in the page's language with its asset or currency, for a confirmation's text.
pub(crate) fn money(amount: &str, unit: &str) -> String {
    format!("{} {unit}", lajan_i18n::formats::amount(lajan_i18n::answering_in(), amount))
}
