//! The audit page (admins): who changed who may act for the organization (users and API keys
//! created or disabled, by whom), every change of the settings (what, who asked, who confirmed
//! or cancelled, and whether a second person confirmed a relaxed approval policy), and the latest
//! sign-in attempts, successful or not.

use crate::actors::Names;
use crate::guard::Signed;
use crate::pages::{self, render};
use crate::settings_changes::described;
use crate::state::Console;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use lajan_domain::Timestamp;
use lajan_domain::user::Duty;
use lajan_i18n::say_known;
use minijinja::{Value, context};

/// Lines of each list the page shows, newest first.
const SHOWN: u32 = 100;

pub(crate) async fn page(State(console): State<Console>, signed: Signed) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Administer) {
        return refused;
    }
    let (org_id, tenant) = (&signed.session.user.org_id, signed.session.tenant());
    let store = &console.services.store;
    let found = async {
        let changes = store.list_access_changes(org_id, SHOWN).await?;
        let sign_ins = store.list_sign_ins(org_id, SHOWN).await?;
        let settings = store.list_settings_changes(org_id, SHOWN).await?;
        Ok((changes, sign_ins, settings, Names::of(&console.services, &tenant).await?))
    };
    let (changes, sign_ins, settings, names) = match found.await {
        Ok(found) => found,
        Err(e) => return pages::failure(&e),
    };
    let changes: Vec<Value> = changes
        .iter()
        .map(|c| {
            context! { action => c.action.as_str(), subject => subject_in_words(&c.subject), subject_id => c.subject_id,
            by => names.label(&c.actor), at => c.at.to_string() }
        })
        .collect();
    let sign_ins: Vec<Value> = sign_ins
        .iter()
        .map(|s| {
            context! { email => s.email, outcome => s.outcome.as_str(), refusals => s.refusals, at => s.at.to_string() }
        })
        .collect();
    let now = Timestamp::now();
    let settings: Vec<Value> = settings
        .iter()
        .map(|c| {
            context! { lines => described(c), status => c.status_at(now).as_str(), sandbox => !c.env.is_live(),
            by => names.label(&c.requested_by), decided_by => c.decided_by.as_ref().map(|a| names.label(a)),
            at => c.requested_at.to_string() }
        })
        .collect();
    let frame = signed.frame();
    render(StatusCode::OK, "audit.html", context! { frame, changes, settings, sign_ins, shown => SHOWN })
}

/// A change's subject as recorded (`email (role)` for a user, `name (environment, hint…)` for a
/// key) with its role or environment in the request's language.
fn subject_in_words(subject: &str) -> String {
    let Some((name, inner)) = subject.strip_suffix(')').and_then(|s| s.rsplit_once(" (")) else {
        return subject.to_owned();
    };
    let (first, rest) = inner.split_once(", ").map_or((inner, None), |(f, r)| (f, Some(r)));
    let key = match first {
        "test" => "sandbox".to_owned(),
        "live" => "live".to_owned(),
        role => format!("role-{role}"),
    };
    let first = say_known(&key).unwrap_or_else(|| first.to_owned());
    match rest {
        Some(rest) => format!("{name} ({first}, {rest})"),
        None => format!("{name} ({first})"),
    }
}
