//! Disbursements from a spreadsheet (makers and admins): upload a CSV with a name and an asset;
//! every bad row comes back at once as a table (nothing is stored), the corrected file goes up
//! again; the draft is then submitted for approval. Both go through the API's service methods as
//! the user; the upload makes one draft however often it is posted.

use crate::confirm::{self, Confirm};
use crate::domain_text;
use crate::guard::Makers;
use crate::guard::{Protected, Signed, Upload, filled};
use crate::once::{self, Before};
use crate::pages::{self, WayBack, render};
use crate::state::Console;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use lajan_domain::asset::ASSETS;
use lajan_domain::disbursement::{Disbursement, DisbursementSource};
use lajan_domain::id::IdKind;
use lajan_domain::money::format_scaled;
use lajan_domain::user::Duty;
use lajan_domain::{FieldError, Invalid};
use lajan_i18n::{say, say_with};
use lajan_services::ServiceError;
use lajan_services::disbursement_csv::{COLUMNS, read_items};
use lajan_services::disbursements::{DisbursementRequest, ItemRequest};
use lajan_store::{IdempotentResponse, StoreError};
use minijinja::{Value, context};
use serde::Deserialize;

const PATH: &str = "/console/disbursements";

/// The cell of `field` in `item` as the file had it, for a bad row's line.
fn cell(item: &ItemRequest, field: &str) -> Option<String> {
    let verification = || item.verification.as_ref().and_then(|v| v.kind.clone());
    match field {
        "clientId" => item.client_id.clone(),
        "walletAccountId" => item.wallet_account_id.clone(),
        "assetAmount" => item.asset_amount.clone(),
        "memo" => item.memo.clone(),
        "externalId" => item.external_id.clone(),
        "phoneNumber" => item.phone_number.clone(),
        "email" => item.email.clone(),
        "firstName" => item.first_name.clone(),
        "lastName" => item.last_name.clone(),
        "verification" => verification(),
        _ => None,
    }
}

/// The form again: `values` what was typed, `problem` what was wrong with the file as a whole,
/// `rows` each bad row, beside its cells in `items` (the file's rows, in order).
fn form_page(
    signed: &Signed,
    status: StatusCode,
    values: Value,
    problem: Option<String>,
    rows: &[FieldError],
    items: &[ItemRequest],
) -> Response {
    let assets: Vec<&str> = ASSETS.iter().map(|a| a.code).collect();
    let rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            // A spreadsheet numbers its header 1: data row 5 is its row 6.
            let line = r.row.map(|row| row.saturating_add(1));
            let item = r.row.and_then(|row| items.binary_search_by_key(&row, |i| i.row).ok()).map(|at| &items[at]);
            let (external_id, value) = (item.and_then(|i| i.external_id.clone()), item.and_then(|i| cell(i, &r.field)));
            let message = domain_text::row_rule(&r.field, &r.message);
            context! { line, field => r.field, external_id, value, message }
        })
        .collect();
    let frame = signed.frame();
    render(status, "disbursement_new.html", context! { frame, assets, columns => COLUMNS, problem, rows, ..values })
}

pub(crate) async fn form(State(_console): State<Console>, signed: Signed) -> Response {
    if let Some(refused) = signed.refused_unless(Duty::Prepare) {
        return refused;
    }
    match once::new_key() {
        Ok(once) => form_page(&signed, StatusCode::OK, context! { once, asset => "USDC" }, None, &[], &[]),
        Err(e) => pages::failure(&e),
    }
}

pub(crate) async fn create(State(console): State<Console>, upload: Upload) -> Response {
    let signed = &upload.signed;
    if let Some(refused) = signed.refused_unless(Duty::Prepare) {
        return refused;
    }
    let tenant = signed.session.tenant();
    let (name, asset, key) = (upload.field("name"), upload.field("asset"), upload.field("once"));
    let claim = match once::before(&console, &tenant, signed.frame(), PATH, key).await {
        Ok(Before::Fresh(claim)) => claim,
        Ok(Before::Made(made)) => return made,
        Err(refused) => return refused,
    };
    let typed = context! { once => key, name, asset };
    if upload.file.is_empty() {
        let problem = Some(say("choose-csv-file"));
        return form_page(signed, StatusCode::BAD_REQUEST, typed, problem, &[], &[]);
    }
    let (items, row_errors) = match read_items(&upload.file) {
        Ok(read) => read,
        Err(unreadable) => {
            let (problem, rows) = explain(unreadable);
            return form_page(signed, StatusCode::BAD_REQUEST, typed, Some(problem), &rows, &[]);
        }
    };
    let request = DisbursementRequest {
        name: filled(name),
        asset_code: filled(asset),
        asset_issuer: None,
        source: DisbursementSource::Csv,
        items,
        row_errors,
    };
    let page_of = |d: &Disbursement| format!("/console/disbursements/{}", d.id);
    let body = |d: &Disbursement| page_of(d).into_bytes();
    let answer = IdempotentResponse { claim: &claim, status: 303, body: &body };
    match console.services.create_disbursement(&tenant, request, Some(answer)).await {
        Ok(made) => Redirect::to(&page_of(&made)).into_response(),
        Err(ServiceError::Store(StoreError::IdempotencyKeyTaken)) => once::taken(&console, &tenant, &claim).await,
        Err(ServiceError::Invalid(refusal)) => {
            let (problem, rows) = explain(refusal);
            // The file read again for the refused rows' cells: the request took the items, and
            // only a refusal needs them.
            let items = read_items(&upload.file).map(|(items, _)| items).unwrap_or_default();
            form_page(signed, StatusCode::BAD_REQUEST, typed, Some(problem), &rows, &items)
        }
        Err(e) => pages::failure(&e),
    }
}

/// What was wrong with the upload as a whole (the batch's fields, or the file), and each bad row.
fn explain(refusal: Invalid) -> (String, Vec<FieldError>) {
    let (rows, fields): (Vec<FieldError>, Vec<FieldError>) = refusal.details.into_iter().partition(|d| d.row.is_some());
    let problem = if fields.is_empty() && !rows.is_empty() {
        say_with("rows-invalid", &[("count", rows.len().to_string())])
    } else if fields.is_empty() {
        domain_text::rule(&refusal.message)
    } else {
        fields.iter().map(domain_text::field_line).collect::<Vec<_>>().join(" ")
    };
    (problem, rows)
}

/// The page asking to confirm submitting draft `id`, naming its size and total.
async fn confirm_submit(console: &Console, signed: &Signed, id: &str) -> Response {
    let tenant = signed.session.tenant();
    let read = || console.services.store.get_disbursement(&tenant, id);
    let batch = match pages::record(|| signed.frame(), IdKind::Disbursement, id, read).await {
        Ok(batch) => batch,
        Err(page) => return page,
    };
    let amount = confirm::money(&format_scaled(batch.total_amount, 2), batch.asset_code.as_str());
    let args = [("name", batch.name.clone()), ("count", batch.item_count.to_string()), ("amount", amount)];
    let back = format!("/console/disbursements/{id}");
    let text = say_with("confirm-submit-disbursement", &args);
    let confirm = Confirm { text, fields: vec![], button: "confirm-yes-submit", danger: false, back: &back };
    confirm::page(signed.frame(), confirm)
}

/// The submit form: its confirmation page's button sets `confirmed`.
#[derive(Deserialize)]
pub(crate) struct SubmitForm {
    #[serde(default)]
    confirmed: Option<String>,
}

/// Submits a draft for approval (or approves it at once, when the organization asks for none),
/// once the person confirmed what they submit.
pub(crate) async fn submit(
    State(console): State<Console>,
    Path(id): Path<String>,
    request: Protected<SubmitForm, Makers>,
) -> Response {
    let signed = &request.signed;
    let frame = signed.frame();
    if request.form.confirmed.is_none() {
        return confirm_submit(&console, signed, &id).await;
    }
    match console.services.submit_disbursement(&signed.session.tenant(), &id, None).await {
        Ok(_) => Redirect::to(&confirm::reported(&format!("/console/disbursements/{id}"), "submitted")).into_response(),
        Err(ServiceError::NotFound(_)) => pages::not_found(frame),
        Err(ServiceError::Invalid(refusal)) => {
            let href = format!("/console/disbursements/{id}");
            let back = WayBack { href: &href, label: say("back-to-disbursement") };
            pages::refused(frame, StatusCode::CONFLICT, &say("not-submitted"), &domain_text::refusal(&refusal), back)
        }
        Err(ServiceError::Unavailable(why)) => {
            tracing::warn!(%why, "a console submit could not be made");
            pages::message(StatusCode::SERVICE_UNAVAILABLE, &say("not-submitted"), &say("unavailable-explained"))
        }
        Err(e) => pages::failure(&e),
    }
}
