//! A client from the console (makers and admins): the form for a new client and for changing
//! one (names, email, phone, wallet and its memo, language, reminders, the question a receiver
//! answers before registering), through the API's service methods as the user, so the same
//! rules hold and every bad field is shown at once.

use crate::domain_text;
use crate::guard::Makers;
use crate::guard::{Protected, Signed, filled};
use crate::once::{self, Before};
use crate::pages::{self, render};
use crate::state::Console;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::client::{Client, ClientInput, ClientPatchInput, Language, VerificationInput};
use lajan_domain::id::IdKind;
use lajan_domain::user::Duty;
use lajan_domain::verification::VerificationKind;
use lajan_i18n::answering_in;
use lajan_i18n::typed::read_date;
use lajan_services::ServiceError;
use lajan_services::views::clients::ClientView;
use lajan_store::{IdempotentResponse, StoreError};
use minijinja::context;
use serde::{Deserialize, Serialize};

/// The form's fields, as posted and as shown again beside what was wrong with them.
#[derive(Deserialize, Serialize, Default)]
pub(crate) struct ClientForm {
    #[serde(default)]
    once: String,
    #[serde(default)]
    first_name: String,
    #[serde(default)]
    last_name: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    phone_number: String,
    #[serde(default)]
    wallet_account_id: String,
    #[serde(default)]
    wallet_memo: String,
    #[serde(default)]
    language: String,
    /// A box: absent when unticked.
    #[serde(default)]
    reminders_enabled: Option<String>,
    /// The question's kind; empty asks none (and, when changing a client, keeps theirs).
    #[serde(default)]
    verification_type: String,
    #[serde(default)]
    verification_value: String,
    /// Changing a client: remove the question they answer.
    #[serde(default)]
    remove_verification: Option<String>,
}

impl ClientForm {
    fn verification(&self) -> Option<VerificationInput> {
        filled(&self.verification_type).map(|kind| VerificationInput {
            kind: Some(kind),
            value: Some(read_date(answering_in(), &self.verification_value)),
        })
    }

    fn of(client: &Client) -> ClientForm {
        let view = ClientView::from(client);
        ClientForm {
            first_name: view.first_name,
            last_name: view.last_name,
            email: view.email.unwrap_or_default(),
            phone_number: view.phone_number.unwrap_or_default(),
            wallet_account_id: view.wallet_account_id.unwrap_or_default(),
            wallet_memo: view.wallet_memo.unwrap_or_default(),
            language: view.language.to_owned(),
            reminders_enabled: view.reminders_enabled.then(|| "on".to_owned()),
            ..ClientForm::default()
        }
    }
}

/// Shown beside the form: whether the question is set (its answer never is), and the
/// notice after a save.
#[derive(Default)]
struct Shown {
    asks: Option<&'static str>,
    saved: bool,
}

impl Shown {
    fn of(client: &Client, saved: bool) -> Shown {
        Shown { asks: client.verification.as_ref().map(|v| v.kind.as_str()), saved }
    }
}

fn form_page(
    signed: &Signed,
    status: StatusCode,
    form: &ClientForm,
    editing: Option<&str>,
    errors: Vec<String>,
    shown: Shown,
) -> Response {
    let languages: Vec<&str> = Language::ALL.iter().map(|l| l.as_str()).collect();
    let questions: Vec<&str> = VerificationKind::ALL.iter().map(|k| k.as_str()).collect();
    let action = editing.map_or_else(|| "/console/clients".to_owned(), |id| format!("/console/clients/{id}/edit"));
    let values = context! { frame => signed.frame(), form, languages, questions, errors, action, editing,
    asks => shown.asks, saved => shown.saved };
    render(status, "client_form.html", values)
}

pub(crate) async fn new(signed: Signed) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Prepare) {
        return refused;
    }
    let once = match once::new_key() {
        Ok(once) => once,
        Err(e) => return pages::failure(&e),
    };
    let form = ClientForm { once, reminders_enabled: Some("on".into()), ..ClientForm::default() };
    form_page(&signed, StatusCode::OK, &form, None, Vec::new(), Shown::default())
}

pub(crate) async fn create(State(console): State<Console>, request: Protected<ClientForm, Makers>) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let tenant = signed.session.tenant();
    let claim = match once::before(&console, &tenant, signed.frame(), "/console/clients", &form.once).await {
        Ok(Before::Fresh(claim)) => claim,
        Ok(Before::Made(made)) => return made,
        Err(refused) => return refused,
    };
    let input = ClientInput {
        first_name: Some(form.first_name.clone()),
        last_name: Some(form.last_name.clone()),
        email: filled(&form.email),
        phone_number: filled(&form.phone_number),
        wallet_account_id: filled(&form.wallet_account_id),
        wallet_memo: filled(&form.wallet_memo),
        wallet_memo_type: None,
        language: filled(&form.language),
        reminders_enabled: Some(form.reminders_enabled.is_some()),
        verification: form.verification(),
    };
    let page_of = |c: &Client| format!("/console/clients/{}/edit?saved=1", c.id);
    let body = |c: &Client| page_of(c).into_bytes();
    let answer = IdempotentResponse { claim: &claim, status: 303, body: &body };
    match console.services.create_client(&tenant, input, Some(answer)).await {
        Ok(made) => Redirect::to(&page_of(&made)).into_response(),
        Err(ServiceError::Store(StoreError::IdempotencyKeyTaken)) => once::taken(&console, &tenant, &claim).await,
        Err(ServiceError::Invalid(refusal)) => {
            let errors = domain_text::refusal_lines(&refusal);
            form_page(signed, StatusCode::BAD_REQUEST, form, None, errors, Shown::default())
        }
        Err(e) => pages::failure(&e),
    }
}

#[derive(Deserialize)]
pub(crate) struct Saved {
    #[serde(default)]
    saved: Option<String>,
}

/// The client `id` of this organization and environment, or the page that says there is none.
async fn client_of(console: &Console, signed: &Signed, id: &str) -> Result<Client, Response> {
    let tenant = signed.session.tenant();
    pages::record(|| signed.frame(), IdKind::Client, id, || console.services.store.get_client(&tenant, id)).await
}

pub(crate) async fn edit(
    State(console): State<Console>,
    signed: Signed,
    Path(id): Path<String>,
    Query(saved): Query<Saved>,
) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Prepare) {
        return refused;
    }
    let client = match client_of(&console, &signed, &id).await {
        Ok(client) => client,
        Err(page) => return page,
    };
    let shown = Shown::of(&client, saved.saved.is_some());
    form_page(&signed, StatusCode::OK, &ClientForm::of(&client), Some(&id), Vec::new(), shown)
}

pub(crate) async fn update(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<ClientForm, Makers>,
) -> Response {
    let (signed, form) = (&request.signed, &request.form);
    let client = match client_of(&console, signed, &id).await {
        Ok(client) => client,
        Err(page) => return page,
    };
    // The whole form is the client: an emptied field is cleared.
    let verification = match (form.remove_verification.is_some(), form.verification()) {
        (true, _) => Some(None),
        (false, Some(asked)) => Some(Some(asked)),
        (false, None) => None,
    };
    let patch = ClientPatchInput {
        first_name: Some(Some(form.first_name.clone())),
        last_name: Some(Some(form.last_name.clone())),
        email: Some(filled(&form.email)),
        phone_number: Some(filled(&form.phone_number)),
        wallet_account_id: Some(filled(&form.wallet_account_id)),
        wallet_memo: Some(filled(&form.wallet_memo)),
        wallet_memo_type: None,
        language: filled(&form.language).map(Some),
        reminders_enabled: Some(form.reminders_enabled.is_some()),
        verification,
    };
    let may_approve = signed.session.user.role.may(Duty::Approve);
    match console.services.update_client(&signed.session.tenant(), &id, patch, may_approve).await {
        Ok(_) => Redirect::to(&format!("/console/clients/{id}/edit?saved=1")).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(signed.frame()),
        Err(ServiceError::Invalid(refusal)) => {
            let errors = domain_text::refusal_lines(&refusal);
            form_page(signed, StatusCode::BAD_REQUEST, form, Some(&id), errors, Shown::of(&client, false))
        }
        Err(e) => pages::failure(&e),
    }
}
