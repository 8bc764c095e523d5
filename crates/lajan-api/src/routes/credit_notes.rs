//! Credit notes on an invoice: `POST /v1/invoices/{id}/credit-notes` to issue one, `GET` to
//! list them, and `POST .../{creditNoteId}/void` to void one.

use super::common::{IdempotencyKeyHeader, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{InvoicesRead, InvoicesWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ExactNumber};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::credit_note::{CreditLineInput, CreditNoteInput};
use lajan_services::views::credit_notes::CreditNoteView;
use lajan_store::credit_notes::CreditNoteOnInvoice;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/invoices/{id}/credit-notes", get(list).post(issue))
        .route("/invoices/{id}/credit-notes/{creditNoteId}/void", post(void))
}

/// What a credit note's change answers (and its replay returns).
fn credit_note_view(c: &CreditNoteOnInvoice) -> CreditNoteView {
    CreditNoteView::of(&c.credit_note, c.invoice.invoice.currency)
}

/// What the invoice no longer asks for (an `amount`, or the units of its `lines`), and why.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct IssueCreditNote {
    /// In the invoice's currency: positive, at most 2 decimal places, at most what the invoice's
    /// credit notes leave of its total; read exactly. Give this or `lines`, or both when this is
    /// exactly what the lines take back (a check: any other amount is refused, `invalid_amount`).
    #[schema(value_type = f64, nullable = false, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 150)]
    pub amount: Option<ExactNumber>,
    /// The invoice's line items it takes back, each priced as the invoice priced it, tax
    /// included (units of a line are never credited twice; those that finish a line take
    /// exactly what is left of it). Give this or `amount` (or both: see `amount`).
    #[schema(nullable = false, min_items = 1, max_items = 100)]
    pub lines: Option<Vec<CreditLineBody>>,
    /// `waiver`, `rescheduling`, `duplicate` or `other`.
    #[schema(required = true, nullable = false, example = "waiver")]
    pub reason: Option<String>,
    /// At most 500 characters, line breaks kept.
    #[schema(example = "Late fee waived after the hurricane", max_length = 500)]
    pub memo: Option<String>,
}

/// Units of one of the invoice's line items to take back.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CreditLineBody {
    /// The line's place in the invoice's `lineItems`, from 1.
    #[schema(required = true, nullable = false, minimum = 1, example = 1)]
    pub line_item: Option<i64>,
    /// How many of its units: greater than 0, at most 4 decimal places, at most what earlier
    /// credit notes left of the line. Left out: all that is left of it.
    #[schema(value_type = Option<f64>, nullable = false, exclusive_minimum = 0, multiple_of = 0.0001, example = 1)]
    pub quantity: Option<ExactNumber>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CreditNoteList {
    pub data: Vec<CreditNoteView>,
}

#[utoipa::path(get, operation_id = "listCreditNotes", path = "/v1/invoices/{id}/credit-notes", tag = "Invoices",
    description = "The invoice's credit notes, oldest first, void ones included; those issued make its amountCredited.",
    params(("id" = String, Path)),
    responses((status = 200, body = CreditNoteList), (status = 404, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<CreditNoteList>> {
    let (currency, notes) = state.services.invoice_credit_notes(auth.tenant(), &id).await?;
    Ok(Json(CreditNoteList { data: notes.iter().map(|n| CreditNoteView::of(n, currency)).collect() }))
}

#[utoipa::path(post, operation_id = "issueCreditNote", path = "/v1/invoices/{id}/credit-notes", tag = "Invoices",
    description = "Reduces what a sent invoice asks for (a waiver, a rescheduling, a duplicate): before payment it lowers amountRemaining; what the invoice had received beyond its new total is held on the client's credit balance; a credit note that leaves nothing owed pays the invoice (invoice.paid). Numbered CN-000001 per organization, gapless. Records credit_note.created. Send an Idempotency-Key: a retry issues it once.",
    params(("id" = String, Path), IdempotencyKeyHeader), request_body = IssueCreditNote,
    responses((status = 201, body = CreditNoteView), (status = 400, body = ErrorBody, description = "invalid_amount (also past what the invoice still asks for), validation_error (amount or lines, each bad line named, reason, memo), cannot_credit (a draft or void invoice)"), (status = 404, body = ErrorBody)))]
pub(crate) async fn issue(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<IssueCreditNote>,
) -> ApiResult<(StatusCode, Json<CreditNoteView>)> {
    let lines = body.lines.map(|lines| {
        lines
            .iter()
            .map(|l| CreditLineInput { line_item: l.line_item, quantity: l.quantity.as_ref().map(ExactNumber::text) })
            .collect()
    });
    let input = CreditNoteInput {
        amount: body.amount.as_ref().map(ExactNumber::text),
        lines,
        reason: body.reason,
        memo: body.memo,
    };
    let render = |c: &CreditNoteOnInvoice| json_bytes(&credit_note_view(c));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let issued = state.services.issue_credit_note(auth.tenant(), &id, input, answer).await?;
    Ok((StatusCode::CREATED, Json(credit_note_view(&issued))))
}

#[utoipa::path(post, operation_id = "voidCreditNote", path = "/v1/invoices/{id}/credit-notes/{creditNoteId}/void", tag = "Invoices",
    description = "Voids a credit note (kept, with when and by whom): the invoice asks for its amount again, a paid invoice left short reopens, and an overpayment it had made is taken back from the client's credit balance. Records credit_note.voided. Send an Idempotency-Key: a retry voids it once.",
    params(("id" = String, Path), ("creditNoteId" = String, Path), IdempotencyKeyHeader),
    responses((status = 200, body = CreditNoteView), (status = 400, body = ErrorBody, description = "cannot_void (void already, or the invoice is void), credit_balance_spent (the overpayment it made was applied elsewhere)"), (status = 404, body = ErrorBody)))]
pub(crate) async fn void(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult<Json<CreditNoteView>> {
    let Path((id, credit_note_id)) = path.map_err(|_| ApiError::not_found("credit note"))?;
    let render = |c: &CreditNoteOnInvoice| json_bytes(&credit_note_view(c));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let voided = state.services.void_credit_note(auth.tenant(), &id, &credit_note_id, answer).await?;
    Ok(Json(credit_note_view(&voided)))
}
