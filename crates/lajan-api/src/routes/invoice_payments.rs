//! The payments counted on an invoice: `GET /v1/invoices/{id}/payments`, `POST` to count one
//! received outside Lajan, `POST .../{paymentId}/reverse` to stop one counting, and the
//! statement that explains the balance, `GET /v1/invoices/{id}/statement` (JSON or CSV).

use super::common::{IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{InvoicesRead, InvoicesWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ExactNumber, Pagination};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::Path;
use axum::extract::State;
use axum::extract::rejection::PathRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::invoice_payment::OutsidePaymentInput;
use lajan_services::views::invoice_payments::InvoicePaymentView;
use lajan_services::views::invoice_statement::StatementLineView;
use lajan_store::incoming_payments::PaymentOnInvoice;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/invoices/{id}/payments", get(list).post(record))
        .route("/invoices/{id}/payments/{paymentId}/reverse", post(reverse))
        .route("/invoices/{id}/statement", get(statement))
}

/// What a payment's change answers (and its replay returns): the payment, in its invoice's currency.
fn payment_view(r: &PaymentOnInvoice) -> InvoicePaymentView {
    InvoicePaymentView::of(&r.payment, r.invoice.invoice.currency)
}

/// A payment received outside Lajan.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct RecordPayment {
    /// In the invoice's currency: positive, at most 2 decimal places; read exactly. More than is
    /// due is counted too (the invoice is paid, and the excess, `amountOverpaid`, is held on the
    /// client's credit balance).
    #[schema(value_type = f64, required = true, nullable = false, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 500)]
    pub amount: Option<ExactNumber>,
    /// How it was paid: `cash`, `moncash`, `natcash` or `bank_transfer` (Stellar payments are
    /// counted from the ledger).
    #[schema(required = true, nullable = false, example = "cash")]
    pub method: Option<String>,
    /// What the payer's proof says (a receipt number, a MonCash transaction id): at most 100
    /// characters.
    #[schema(example = "REC-2026-0042", max_length = 100)]
    pub reference: Option<String>,
    /// When it was paid, RFC 3339, not in the future; default: now.
    #[schema(example = "2026-11-28T14:30:00-05:00")]
    pub paid_at: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct InvoicePaymentList {
    pub data: Vec<InvoicePaymentView>,
    pub pagination: PaginationView,
}

#[utoipa::path(get, operation_id = "listInvoicePayments", path = "/v1/invoices/{id}/payments", tag = "Invoices",
    description = "Every payment counted on the invoice, newest first, whatever its size: each Stellar payment carrying the invoice's reference is one (with its transaction hash as `reference`), and the sum of those not reversed is the invoice's `amountPaid`.",
    params(("id" = String, Path), PageParams),
    responses((status = 200, body = InvoicePaymentList), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    Pagination(page): Pagination,
) -> ApiResult<Json<InvoicePaymentList>> {
    let (currency, found) = state.services.invoice_payments(auth.tenant(), &id, page).await?;
    let data = found.items.iter().map(|p| InvoicePaymentView::of(p, currency)).collect();
    Ok(Json(InvoicePaymentList { data, pagination: PaginationView::of(&found) }))
}

#[utoipa::path(post, operation_id = "recordInvoicePayment", path = "/v1/invoices/{id}/payments", tag = "Invoices",
    description = "Counts a payment received outside Lajan (cash at a branch, MonCash, NatCash, a bank transfer) on a sent, viewed or overdue invoice, exactly as a ledger payment is counted: invoice.payment_received with the key (or console user) as its actor, and invoice.paid when it settles the invoice. Send an Idempotency-Key: a retry counts it once.",
    params(("id" = String, Path), IdempotencyKeyHeader), request_body = RecordPayment,
    responses((status = 201, body = InvoicePaymentView), (status = 400, body = ErrorBody, description = "invalid_amount, validation_error (method, reference, paidAt), cannot_pay (a draft, paid or void invoice)"), (status = 404, body = ErrorBody)))]
pub(crate) async fn record(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<RecordPayment>,
) -> ApiResult<(StatusCode, Json<InvoicePaymentView>)> {
    let input = OutsidePaymentInput {
        amount: body.amount.as_ref().map(ExactNumber::text),
        method: body.method,
        reference: body.reference,
        paid_at: body.paid_at,
    };
    let render = |r: &PaymentOnInvoice| json_bytes(&payment_view(r));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let counted = state.services.record_invoice_payment(auth.tenant(), &id, input, answer).await?;
    Ok((StatusCode::CREATED, Json(payment_view(&counted))))
}

/// Why a payment stops counting.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReversePayment {
    /// Required: at most 500 characters, line breaks kept.
    #[schema(
        required = true,
        nullable = false,
        example = "Counted twice: the branch entered the receipt again",
        min_length = 1,
        max_length = 500
    )]
    pub reason: Option<String>,
}

#[utoipa::path(post, operation_id = "reverseInvoicePayment", path = "/v1/invoices/{id}/payments/{paymentId}/reverse", tag = "Invoices",
    description = "Reverses a payment counted by mistake: it is kept, with why, when and by whom, and no longer counts towards amountPaid; a paid invoice that is not paid in full any more is partially_paid again, or sent when nothing paid is left (and overdue once past its due date). Records invoice.payment_reversed. Send an Idempotency-Key: a retry reverses it once.",
    params(("id" = String, Path), ("paymentId" = String, Path), IdempotencyKeyHeader), request_body = ReversePayment,
    responses((status = 200, body = InvoicePaymentView), (status = 400, body = ErrorBody, description = "validation_error (reason), cannot_reverse (reversed already)"), (status = 404, body = ErrorBody)))]
pub(crate) async fn reverse(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    path: Result<Path<(String, String)>, PathRejection>,
    ApiJson(body): ApiJson<ReversePayment>,
) -> ApiResult<Json<InvoicePaymentView>> {
    let Path((id, payment_id)) = path.map_err(|_| ApiError::not_found("payment"))?;
    let render = |r: &PaymentOnInvoice| json_bytes(&payment_view(r));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let reversed =
        state.services.reverse_invoice_payment(auth.tenant(), &id, &payment_id, body.reason.as_deref(), answer).await?;
    Ok(Json(payment_view(&reversed)))
}

/// Every movement of what the client owes on an invoice, oldest first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InvoiceStatement {
    #[schema(example = "inv_01a1fc8be56c7228a813c8461b65a699")]
    pub invoice_id: String,
    #[schema(example = "HTG")]
    pub currency: String,
    /// What is still owed: the last line's balance.
    #[schema(example = "750.00")]
    pub amount_remaining: String,
    pub data: Vec<StatementLineView>,
}

#[utoipa::path(get, operation_id = "getInvoiceStatement", path = "/v1/invoices/{id}/statement", tag = "Invoices",
    description = "Explains the invoice's balance line by line: its total, each payment (ledger or outside Lajan) and reversal, a void, and what moved to or from the client's credit balance, oldest first, each with the running balance; the last balance is amountRemaining. With Accept: text/csv, the same lines as a CSV a spreadsheet opens safely.",
    params(("id" = String, Path),
        ("Accept" = Option<String>, Header, description = "text/csv for the statement as CSV (columns at, type, amount, balance, sourceId, method, reference)")),
    responses(
        (status = 200, description = "The statement, or with Accept: text/csv its CSV", content(
            (InvoiceStatement = "application/json"),
            (String = "text/csv", example = "at,type,amount,balance,sourceId,method,reference\r\n"),
        )),
        (status = 404, body = ErrorBody)))]
pub(crate) async fn statement(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (invoice, movements) = state.services.invoice_statement(auth.tenant(), &id).await?;
    let data: Vec<StatementLineView> = movements.iter().map(StatementLineView::from).collect();
    if super::common::wants_csv(&headers) {
        let csv = lajan_services::report::statement_csv(&data).map_err(|e| ApiError::internal(&e))?;
        return Ok(super::common::csv_attachment(csv, &format!("{}-statement.csv", invoice.invoice.number)));
    }
    let i = &invoice.invoice;
    Ok(Json(InvoiceStatement {
        invoice_id: i.id.clone(),
        currency: i.currency.code().to_owned(),
        amount_remaining: lajan_services::views::money(i.amount_remaining()),
        data,
    })
    .into_response())
}
