//! Invoices: list, get, create (optionally sending at once), update a draft, send, void.

use super::common::{IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use super::doc_types::{Currency, SendChannel};
use crate::auth::Authed;
use crate::auth::scope::{InvoicesRead, InvoicesWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiQuery, ExactNumber, OptionalJson, Pagination, not_null, nullable, search_text};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::FieldError;
use lajan_domain::id::IdKind;
use lajan_domain::installment::InstallmentInput;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice::{InvoiceStatus, LineItemInput};
use lajan_domain::message::Channel;
use lajan_domain::validation::parse_reason;
use lajan_services::invoices::{InvoiceRequest, InvoiceUpdate, Sent};
use lajan_services::views::invoices::{InvoiceSummary, InvoiceView};
use lajan_services::views::messages::QueuedMessage;
use lajan_store::invoices::InvoiceQuery;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/invoices", get(list).post(create))
        .route("/invoices/{id}", get(fetch).put(update))
        .route("/invoices/{id}/send", post(send))
        .route("/invoices/{id}/void", post(void))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct LineItemBody {
    #[schema(required = true, nullable = false, example = "Loan processing fee")]
    pub description: Option<String>,
    /// Greater than 0, at most 4 decimal places.
    #[schema(value_type = Option<f64>, required = true, nullable = false, exclusive_minimum = 0, multiple_of = 0.0001, example = 3)]
    pub quantity: Option<ExactNumber>,
    /// At most 2 decimal places; read exactly.
    #[schema(value_type = Option<f64>, required = true, nullable = false, minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 19.99)]
    pub unit_price: Option<ExactNumber>,
    /// Percent, 0 to 100, at most 3 decimal places; default: the organization's `defaultTaxRate`.
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 100, multiple_of = 0.001, example = 10)]
    pub tax_rate: Option<ExactNumber>,
}

fn line_inputs(items: &[LineItemBody]) -> Vec<LineItemInput> {
    items
        .iter()
        .map(|l| LineItemInput {
            description: l.description.clone(),
            quantity: l.quantity.as_ref().map(ExactNumber::text),
            unit_price: l.unit_price.as_ref().map(ExactNumber::text),
            tax_rate: l.tax_rate.as_ref().map(ExactNumber::text),
        })
        .collect()
}

/// One part of the total, due on its date.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct InstallmentBody {
    /// Greater than 0, at most 2 decimal places; read exactly.
    #[schema(value_type = Option<f64>, required = true, nullable = false, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 1250)]
    pub amount: Option<ExactNumber>,
    /// `YYYY-MM-DD`, after the instalment before it.
    #[schema(required = true, nullable = false, example = "2027-01-31")]
    pub due_date: Option<String>,
}

fn installment_inputs(rows: &[InstallmentBody]) -> Vec<InstallmentInput> {
    rows.iter()
        .map(|r| InstallmentInput { amount: r.amount.as_ref().map(ExactNumber::text), due_date: r.due_date.clone() })
        .collect()
}

/// A new invoice. It starts as a draft unless `sendImmediately` is true.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CreateInvoice {
    #[schema(required = true, nullable = false)]
    pub client_id: Option<String>,
    /// HTG or USD; default: the organization's `defaultCurrency`.
    #[schema(value_type = Option<Currency>, example = "HTG")]
    pub currency: Option<String>,
    /// `YYYY-MM-DD`, from 2000-01-01 to 2099-12-31. Required unless `installments` are given
    /// (then it is the last one's, and may be left out).
    #[schema(nullable = false, example = "2026-12-01")]
    pub due_date: Option<String>,
    /// 1 to 100 lines.
    #[schema(required = true, nullable = false, min_items = 1, max_items = 100)]
    pub line_items: Option<Vec<LineItemBody>>,
    /// A note for the customer: at most 1000 characters; line breaks are kept, other control
    /// characters refused.
    pub memo: Option<String>,
    /// The parts the total is due in, in date order, summing to it exactly (refused naming the
    /// row otherwise, `invalid_installments`); at most 120. Payments fill them oldest first, and
    /// the invoice is overdue while one is past due.
    #[schema(nullable = false, max_items = 120)]
    pub installments: Option<Vec<InstallmentBody>>,
    /// When it is first sent, pay what it can from the client's credit balance in its currency
    /// (an overpayment, what a voided or credited invoice received): a payment of method
    /// `credit_balance`, with `invoice.payment_received` (and `invoice.paid` when that covers
    /// it all). Default false.
    pub apply_credit_balance: Option<bool>,
    /// Send by every channel the client can receive right after creating it.
    pub send_immediately: Option<bool>,
}

/// Changes to a draft; fields left out are kept, `memo: null` clears the memo. The other fields
/// cannot be cleared: `null` for them is a `validation_error`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct UpdateInvoice {
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub client_id: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, value_type = Option<Currency>)]
    pub currency: Option<String>,
    /// `YYYY-MM-DD`, from 2000-01-01 to 2099-12-31.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub due_date: Option<String>,
    /// 1 to 100 lines.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, min_items = 1, max_items = 100)]
    pub line_items: Option<Vec<LineItemBody>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub memo: Option<Option<String>>,
    /// The whole plan again (`[]`: due at once on `dueDate`). Left out, a plan is kept, and must
    /// still sum to the total when the line items change.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false, max_items = 120)]
    pub installments: Option<Vec<InstallmentBody>>,
    /// Whether its first send pays from the client's credit balance.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub apply_credit_balance: Option<bool>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SendInvoice {
    /// `email` and/or `sms`; left out: every channel the client can receive. An empty list is
    /// refused.
    #[schema(value_type = Option<Vec<SendChannel>>, min_items = 1, example = json!(["email", "sms"]))]
    pub channels: Option<Vec<String>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SendResult {
    /// The send was recorded and its messages queued: it says nothing of their delivery, which
    /// `messages` (and `GET /v1/messages/{id}`, and the `message.*` events) follow.
    pub success: bool,
    /// The channels a message was queued on.
    pub sent_via: Vec<String>,
    /// The invoice's status after the send.
    pub status: String,
    /// The messages the send queued, as they stood when it answered: `queued` when live (the
    /// worker hands them to their provider), `delivered` (simulated) in the sandbox.
    pub messages: Vec<QueuedMessage>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VoidInvoice {
    /// Why the invoice is cancelled (optional, at most 500 characters, no control characters
    /// but line breaks).
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct VoidResult {
    pub success: bool,
    pub status: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct InvoiceList {
    pub data: Vec<InvoiceSummary>,
    pub pagination: PaginationView,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct InvoiceFilters {
    /// draft, sent, viewed, partially_paid, paid, overdue or void.
    #[param(inline, value_type = Option<super::doc_types::InvoiceStatusFilter>)]
    pub status: Option<String>,
    #[serde(rename = "clientId")]
    #[param(rename = "clientId")]
    pub client_id: Option<String>,
    /// Matches the invoice number or the client's name.
    pub search: Option<String>,
}

/// The channels asked for; empty when the body named none, which means every channel the
/// client can receive. An explicit empty list asks for nothing and is refused.
fn parse_channels(raw: Option<Vec<String>>) -> Result<Vec<Channel>, ApiError> {
    let Some(raw) = raw else { return Ok(Vec::new()) };
    if raw.is_empty() {
        return Err(ApiError::validation(vec![FieldError::new(
            "channels",
            "must name at least one channel (email, sms); leave it out to use every channel the client can receive",
        )]));
    }
    let mut channels = Vec::new();
    for (i, name) in raw.iter().enumerate() {
        let channel = Channel::INVOICE.into_iter().find(|c| c.as_str() == name).ok_or_else(|| {
            ApiError::validation(vec![FieldError::new(
                format!("channels[{i}]"),
                format!("unknown channel {name:?}: expected email or sms"),
            )])
        })?;
        if !channels.contains(&channel) {
            channels.push(channel);
        }
    }
    Ok(channels)
}

#[utoipa::path(get, operation_id = "listInvoices", path = "/v1/invoices", tag = "Invoices", params(InvoiceFilters, PageParams),
    responses((status = 200, body = InvoiceList), (status = 400, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
    ApiQuery(f): ApiQuery<InvoiceFilters>,
) -> ApiResult<Json<InvoiceList>> {
    let status = f
        .status
        .as_deref()
        .map(str::parse::<InvoiceStatus>)
        .transpose()
        .map_err(|e| ApiError::validation(vec![FieldError::new("status", e)]))?;
    if let Some(bad) = super::common::id_filter_error("clientId", "a client", IdKind::Client, f.client_id.as_deref()) {
        return Err(ApiError::validation(vec![bad]));
    }
    let query = InvoiceQuery { status, client_id: f.client_id, search: search_text(f.search)?, page };
    let found = state.store.list_invoices(auth.tenant(), &query).await?;
    let pagination = PaginationView::of(&found);
    Ok(Json(InvoiceList { data: found.items.iter().map(InvoiceSummary::from_detail).collect(), pagination }))
}

#[utoipa::path(get, operation_id = "getInvoice", path = "/v1/invoices/{id}", tag = "Invoices", params(("id" = String, Path)),
    responses((status = 200, body = InvoiceView), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<InvoiceView>> {
    let d = state.store.get_invoice(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("invoice"))?;
    Ok(Json(InvoiceView::from_detail(&d, state.public_url())))
}

#[utoipa::path(post, operation_id = "createInvoice", path = "/v1/invoices", tag = "Invoices", request_body = CreateInvoice,
    params(IdempotencyKeyHeader),
    responses((status = 201, body = InvoiceView), (status = 400, body = ErrorBody, description = "validation_error, invalid_currency, invalid_due_date, invalid_line_items, invalid_installments, invalid_client or no_channel_available")))]
pub(crate) async fn create(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<CreateInvoice>,
) -> ApiResult<(StatusCode, Json<InvoiceView>)> {
    let request = InvoiceRequest {
        client_id: body.client_id,
        currency: body.currency,
        due_date: body.due_date,
        line_items: body.line_items.as_deref().map(line_inputs),
        memo: body.memo,
        installments: body.installments.as_deref().map(installment_inputs),
        apply_credit_balance: body.apply_credit_balance.unwrap_or(false),
        send_immediately: body.send_immediately.unwrap_or(false),
    };
    let public_url = state.public_url();
    let render = |d: &InvoiceDetail| json_bytes(&InvoiceView::from_detail(d, public_url));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let created = state.services.create_invoice(auth.tenant(), request, answer).await?;
    Ok((StatusCode::CREATED, Json(InvoiceView::from_detail(&created, public_url))))
}

#[utoipa::path(put, operation_id = "updateInvoice", path = "/v1/invoices/{id}", tag = "Invoices", params(("id" = String, Path)), request_body = UpdateInvoice,
    responses((status = 200, body = InvoiceView), (status = 400, body = ErrorBody, description = "cannot_update when not a draft; validation_error, invalid_currency, invalid_due_date, invalid_line_items, invalid_installments, invalid_client"), (status = 404, body = ErrorBody)))]
pub(crate) async fn update(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<UpdateInvoice>,
) -> ApiResult<Json<InvoiceView>> {
    let update = InvoiceUpdate {
        client_id: body.client_id,
        currency: body.currency,
        due_date: body.due_date,
        line_items: body.line_items.as_deref().map(line_inputs),
        memo: body.memo,
        installments: body.installments.as_deref().map(installment_inputs),
        apply_credit_balance: body.apply_credit_balance,
    };
    let d = state.services.update_invoice(auth.tenant(), &id, update).await?;
    Ok(Json(InvoiceView::from_detail(&d, state.public_url())))
}

#[utoipa::path(post, operation_id = "sendInvoice", path = "/v1/invoices/{id}/send", tag = "Invoices", params(("id" = String, Path), IdempotencyKeyHeader), request_body(content = SendInvoice, description = super::doc_types::OPTIONAL_BODY),
    responses((status = 200, body = SendResult), (status = 400, body = ErrorBody, description = "cannot_send (paid or void) or no_channel_available"), (status = 404, body = ErrorBody)))]
pub(crate) async fn send(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<SendInvoice>,
) -> ApiResult<Json<SendResult>> {
    let channels = parse_channels(body.channels)?;
    let view = |(d, sent): &Sent| SendResult {
        success: true,
        sent_via: sent.iter().map(|m| m.channel.as_str().to_owned()).collect(),
        status: d.invoice.status.as_str().to_owned(),
        messages: sent.iter().map(QueuedMessage::from).collect(),
    };
    let render = |result: &Sent| json_bytes(&view(result));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let sent = state.services.send_invoice(auth.tenant(), &id, &channels, answer).await?;
    Ok(Json(view(&sent)))
}

#[utoipa::path(post, operation_id = "voidInvoice", path = "/v1/invoices/{id}/void", tag = "Invoices",
    description = "Cancels an invoice that is not paid: its payment link stops taking payments, and what it received (if anything) is held on the client's credit balance. Voiding a void invoice changes nothing.",
    params(("id" = String, Path), IdempotencyKeyHeader), request_body(content = VoidInvoice, description = super::doc_types::OPTIONAL_BODY),
    responses((status = 200, body = VoidResult), (status = 400, body = ErrorBody, description = "cannot_void (paid)"), (status = 404, body = ErrorBody)))]
pub(crate) async fn void(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<VoidInvoice>,
) -> ApiResult<Json<VoidResult>> {
    let reason = parse_reason(body.reason.as_deref())?;
    let view =
        |(d, _): &(InvoiceDetail, bool)| VoidResult { success: true, status: d.invoice.status.as_str().to_owned() };
    let render = |result: &(InvoiceDetail, bool)| json_bytes(&view(result));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let voided = state.services.void_invoice(auth.tenant(), &id, reason.as_deref(), answer).await?;
    Ok(Json(view(&voided)))
}
