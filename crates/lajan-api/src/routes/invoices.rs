//! Invoices: list, get, create (optionally sending at once), update a draft, send, void.

use super::{IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{InvoicesRead, InvoicesWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiQuery, ExactNumber, OptionalJson, Pagination, not_null, nullable};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::id::IdKind;
use lajan_domain::invoice::{
    DueDate, Invoice, InvoiceAction, InvoiceStatus, LineItemInput, Totals, parse_memo, price_line_items,
};
use lajan_domain::money::Currency;
use lajan_domain::payment::{IntentStatus, PaymentIntent, new_reference};
use lajan_domain::validation::{FieldErrors, parse_reason};
use lajan_domain::{FieldError, Invalid, Tenant, Timestamp};
use lajan_services::events::invoice_event;
use lajan_services::messages::invoice_messages;
use lajan_services::views::invoices::{InvoiceSummary, InvoiceView};
use lajan_store::StoreError;
use lajan_store::invoices::{Channel, InvoiceChanges, InvoiceDetail, InvoiceQuery, MessagesFor, NewMessage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/invoices", get(list).post(create))
        .route("/invoices/{id}", get(fetch).put(update))
        .route("/invoices/{id}/send", post(send))
        .route("/invoices/{id}/void", post(void))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LineItemBody {
    #[schema(required = true, example = "Loan processing fee")]
    pub description: Option<String>,
    /// Greater than 0, at most 4 decimal places.
    #[schema(value_type = Option<f64>, required = true, example = 3)]
    pub quantity: Option<ExactNumber>,
    /// At most 2 decimal places; read exactly.
    #[schema(value_type = Option<f64>, required = true, example = 19.99)]
    pub unit_price: Option<ExactNumber>,
    /// Percent, 0 to 100, at most 3 decimal places; default: the organization's `defaultTaxRate`.
    #[schema(value_type = Option<f64>, example = 10)]
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

/// A new invoice. It starts as a draft unless `sendImmediately` is true.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateInvoice {
    #[schema(required = true)]
    pub client_id: Option<String>,
    /// HTG or USD; default: the organization's `defaultCurrency`.
    #[schema(example = "HTG")]
    pub currency: Option<String>,
    /// `YYYY-MM-DD`, from 2000-01-01 to 2099-12-31.
    #[schema(required = true, example = "2026-12-01")]
    pub due_date: Option<String>,
    #[schema(required = true)]
    pub line_items: Option<Vec<LineItemBody>>,
    /// A note for the customer: at most 1000 characters; line breaks are kept, other control
    /// characters refused.
    pub memo: Option<String>,
    /// Send by every channel the client can receive right after creating it.
    pub send_immediately: Option<bool>,
}

/// Changes to a draft; fields left out are kept, `memo: null` clears the memo. The other fields
/// cannot be cleared: `null` for them is a `validation_error`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateInvoice {
    #[serde(default, deserialize_with = "not_null")]
    pub client_id: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub currency: Option<String>,
    /// `YYYY-MM-DD`, from 2000-01-01 to 2099-12-31.
    #[serde(default, deserialize_with = "not_null")]
    pub due_date: Option<String>,
    #[serde(default, deserialize_with = "not_null")]
    pub line_items: Option<Vec<LineItemBody>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub memo: Option<Option<String>>,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendInvoice {
    /// `email` and/or `sms`; left out: every channel the client can receive. An empty list is
    /// refused.
    #[schema(value_type = Option<Vec<String>>, example = json!(["email", "sms"]))]
    pub channels: Option<Vec<String>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendResult {
    pub success: bool,
    /// The channels a message was queued on.
    pub sent_via: Vec<String>,
    pub status: String,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VoidInvoice {
    /// Why the invoice is cancelled (optional, at most 500 characters, no control characters
    /// but line breaks).
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VoidResult {
    pub success: bool,
    pub status: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InvoiceList {
    pub data: Vec<InvoiceSummary>,
    pub pagination: PaginationView,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InvoiceFilters {
    /// draft, sent, viewed, paid, overdue or void.
    pub status: Option<String>,
    #[serde(rename = "clientId")]
    #[param(rename = "clientId")]
    pub client_id: Option<String>,
    /// Matches the invoice number or the client's name.
    pub search: Option<String>,
}

fn parse_currency(raw: &str) -> Result<Currency, Invalid> {
    raw.parse().map_err(|e: String| Invalid::new("invalid_currency", e))
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
        let channel: Channel = name
            .parse()
            .map_err(|e: String| ApiError::validation(vec![FieldError::new(format!("channels[{i}]"), e)]))?;
        if !channels.contains(&channel) {
            channels.push(channel);
        }
    }
    Ok(channels)
}

#[utoipa::path(get, path = "/v1/invoices", tag = "Invoices", params(InvoiceFilters, PageParams),
    responses((status = 200, body = InvoiceList), (status = 400, body = ErrorBody)))]
pub async fn list(
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
    let query = InvoiceQuery { status, client_id: f.client_id, search: f.search, page };
    let found = state.store.list_invoices(auth.tenant(), &query).await?;
    let pagination = PaginationView::of(&found);
    Ok(Json(InvoiceList { data: found.items.iter().map(InvoiceSummary::from_detail).collect(), pagination }))
}

#[utoipa::path(get, path = "/v1/invoices/{id}", tag = "Invoices", params(("id" = String, Path)),
    responses((status = 200, body = InvoiceView), (status = 404, body = ErrorBody)))]
pub async fn fetch(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<InvoiceView>> {
    let d = state.store.get_invoice(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("invoice"))?;
    Ok(Json(InvoiceView::from_detail(&d, state.public_url())))
}

#[utoipa::path(post, path = "/v1/invoices", tag = "Invoices", request_body = CreateInvoice,
    params(IdempotencyKeyHeader),
    responses((status = 201, body = InvoiceView), (status = 400, body = ErrorBody, description = "validation_error, invalid_currency, invalid_due_date, invalid_line_items, invalid_client or no_channel_available")))]
pub async fn create(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<CreateInvoice>,
) -> ApiResult<(StatusCode, Json<InvoiceView>)> {
    let tenant = auth.tenant();
    let mut errors = FieldErrors::new();
    for (field, present) in [
        ("clientId", body.client_id.is_some()),
        ("dueDate", body.due_date.is_some()),
        ("lineItems", body.line_items.is_some()),
    ] {
        if !present {
            errors.add(field, "is required");
        }
    }
    let memo = parse_memo(body.memo.as_deref(), &mut errors);
    errors.finish()?;
    let (Some(client_id), Some(due_date), Some(items)) = (body.client_id, body.due_date, body.line_items) else {
        return Err(ApiError::bad_request("validation_error", "clientId, dueDate and lineItems are required"));
    };
    let settings = state.store.get_settings(tenant).await?;
    let currency = body.currency.as_deref().map(parse_currency).transpose()?.unwrap_or(settings.default_currency);
    let due_date = DueDate::parse(&due_date)?;
    let (line_items, totals) = price_line_items(&line_inputs(&items), settings.default_tax_rate)?;
    let send_now = body.send_immediately.unwrap_or(false);
    let client = state.store.get_client(tenant, &client_id).await?.ok_or_else(|| invalid_client_error(&client_id))?;
    if send_now && client.email.is_none() && client.phone_number.is_none() {
        return Err(Invalid::new(
            "no_channel_available",
            "sendImmediately needs a client with an email or phone number",
        )
        .into());
    }
    let (invoice, intent) = new_invoice(tenant, client_id, currency, due_date, memo, line_items, totals);
    let public_url = state.public_url();
    let organization = if send_now { organization_name(&state, tenant).await? } else { String::new() };
    // Created and sent in one transaction, so a retry never finds one without the other.
    let messages = |d: &InvoiceDetail| invoice_messages(d, &organization, public_url, &[]);
    let view = |d: &InvoiceDetail| InvoiceView::from_detail(d, public_url);
    let render = |d: &InvoiceDetail| json_bytes(&view(d));
    let event = |d: &InvoiceDetail| invoice_event("invoice.created", d, public_url);
    let send: Option<MessagesFor<'_>> = if send_now { Some(&messages) } else { None };
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let created = state.store.create_invoice(tenant, &invoice, &intent, &event, send, answer).await?;
    if send_now {
        state.services.nudges.messages();
    }
    Ok((StatusCode::CREATED, Json(view(&created))))
}

/// The organization's name, which its invoice messages carry.
async fn organization_name(state: &AppState, tenant: &Tenant) -> ApiResult<String> {
    let org = state
        .store
        .get_organization(&tenant.org_id)
        .await?
        .ok_or_else(|| ApiError::internal(&StoreError::Corrupt("tenant without organization".into())))?;
    Ok(org.name)
}

fn invalid_client_error(id: &str) -> ApiError {
    Invalid::new("invalid_client", format!("No client with id {id:?}")).into()
}

/// A new draft invoice and its payment intent, ready for `create_invoice`.
pub fn new_invoice(
    tenant: &Tenant,
    client_id: String,
    currency: Currency,
    due_date: DueDate,
    memo: Option<String>,
    line_items: Vec<lajan_domain::invoice::LineItem>,
    totals: Totals,
) -> (Invoice, PaymentIntent) {
    let now = Timestamp::now();
    let id = IdKind::Invoice.generate();
    let intent = PaymentIntent {
        id: IdKind::PaymentIntent.generate(),
        org_id: tenant.org_id.clone(),
        env: tenant.env,
        amount: totals.total,
        currency,
        reference: new_reference(),
        status: IntentStatus::Active,
        amount_received: 0,
        invoice_id: Some(id.clone()),
        payment_link_id: None,
        created_at: now,
        paid_at: None,
        expires_at: None,
    };
    let invoice = Invoice {
        id,
        number: String::new(),
        client_id,
        currency,
        status: InvoiceStatus::Draft,
        due_date,
        memo,
        line_items,
        totals,
        amount_paid: 0,
        payment_intent_id: intent.id.clone(),
        created_at: now,
        updated_at: now,
        sent_at: None,
        paid_at: None,
        voided_at: None,
        void_reason: None,
    };
    (invoice, intent)
}

#[utoipa::path(put, path = "/v1/invoices/{id}", tag = "Invoices", params(("id" = String, Path)), request_body = UpdateInvoice,
    responses((status = 200, body = InvoiceView), (status = 400, body = ErrorBody, description = "cannot_update when not a draft"), (status = 404, body = ErrorBody)))]
pub async fn update(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<UpdateInvoice>,
) -> ApiResult<Json<InvoiceView>> {
    let tenant = auth.tenant();
    let mut errors = FieldErrors::new();
    let memo = body.memo.map(|m| parse_memo(m.as_deref(), &mut errors));
    errors.finish()?;
    let currency = body.currency.as_deref().map(parse_currency).transpose()?;
    let due_date = body.due_date.as_deref().map(DueDate::parse).transpose()?;
    let line_items = match &body.line_items {
        Some(items) => {
            let settings = state.store.get_settings(tenant).await?;
            Some(price_line_items(&line_inputs(items), settings.default_tax_rate)?)
        }
        None => None,
    };
    let changes = InvoiceChanges { client_id: body.client_id, currency, due_date, line_items, memo };
    let d = state
        .store
        .update_invoice(tenant, &id, &changes, Timestamp::now())
        .await
        .map_err(ApiError::not_found_as("invoice"))?;
    Ok(Json(InvoiceView::from_detail(&d, state.public_url())))
}

#[utoipa::path(post, path = "/v1/invoices/{id}/send", tag = "Invoices", params(("id" = String, Path), IdempotencyKeyHeader), request_body(content = SendInvoice, description = "Optional"),
    responses((status = 200, body = SendResult), (status = 400, body = ErrorBody, description = "cannot_send (paid or void) or no_channel_available"), (status = 404, body = ErrorBody)))]
pub async fn send(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<SendInvoice>,
) -> ApiResult<Json<SendResult>> {
    let tenant = auth.tenant();
    let channels = parse_channels(body.channels)?;
    let organization = organization_name(&state, tenant).await?;
    let public_url = state.public_url();
    let messages = |d: &InvoiceDetail| invoice_messages(d, &organization, public_url, &channels);
    let event = |d: &InvoiceDetail| invoice_event("invoice.sent", d, public_url);
    let view = |(d, sent): &(InvoiceDetail, Vec<NewMessage>)| SendResult {
        success: true,
        sent_via: sent.iter().map(|m| m.channel.as_str().to_owned()).collect(),
        status: d.invoice.status.as_str().to_owned(),
    };
    let render = |result: &(InvoiceDetail, Vec<NewMessage>)| json_bytes(&view(result));
    let sent = state
        .store
        .send_invoice(tenant, &id, Timestamp::now(), &messages, &event, idempotency.respond(StatusCode::OK, &render))
        .await
        .map_err(ApiError::not_found_as("invoice"))?;
    state.services.nudges.messages();
    Ok(Json(view(&sent)))
}

#[utoipa::path(post, path = "/v1/invoices/{id}/void", tag = "Invoices", params(("id" = String, Path), IdempotencyKeyHeader), request_body(content = VoidInvoice, description = "Optional"),
    responses((status = 200, body = VoidResult), (status = 400, body = ErrorBody, description = "cannot_void (paid)"), (status = 404, body = ErrorBody)))]
pub async fn void(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<VoidInvoice>,
) -> ApiResult<Json<VoidResult>> {
    let reason = parse_reason(body.reason.as_deref())?;
    let public_url = state.public_url();
    let event = |d: &InvoiceDetail| invoice_event("invoice.voided", d, public_url);
    let view =
        |(d, _): &(InvoiceDetail, bool)| VoidResult { success: true, status: d.invoice.status.as_str().to_owned() };
    let render = |result: &(InvoiceDetail, bool)| json_bytes(&view(result));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let voided = state
        .store
        .invoice_action(auth.tenant(), &id, InvoiceAction::Void, Timestamp::now(), reason.as_deref(), &event, answer)
        .await
        .map_err(ApiError::not_found_as("invoice"))?;
    Ok(Json(view(&voided)))
}
