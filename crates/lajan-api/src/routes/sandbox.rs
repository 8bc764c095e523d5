//! Sandbox tools (sandbox keys only): simulate a customer's payment to a payment intent, read
//! the messages a sandbox `send` would have delivered, and run an invoice's reminders at a
//! chosen time.

use super::common::{IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use super::messages::{MessageList, MessageView};
use crate::auth::Authed;
use crate::auth::scope::{InvoicesWrite, PayoutsRead, PayoutsWrite, SandboxRead};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ExactNumber, OptionalJson, Pagination};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::Timestamp;
use lajan_domain::hex::encode as hex;
use lajan_domain::money::parse_amount;
use lajan_services::sandbox::{Balances, sandbox_only};
use lajan_services::views::messages::ReminderView;
use lajan_services::views::money;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/sandbox/payment-intents/{id}/pay", post(pay))
        .route("/sandbox/messages", get(messages))
        .route("/sandbox/balances", get(balances))
        .route("/sandbox/balances/top-up", post(top_up))
        .route("/sandbox/invoices/{id}/remind", post(remind))
}

/// The instant to run an invoice's reminder schedule at.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RemindAt {
    /// RFC 3339, e.g. three days after an instalment's due date at the organization's
    /// `timeOfDay`.
    #[schema(example = "2027-02-03T14:00:00Z", format = DateTime)]
    pub at: String,
}

/// The reminders a run sent.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct RemindersSent {
    pub reminders: Vec<ReminderView>,
}

#[utoipa::path(post, operation_id = "remindSandboxInvoice", path = "/v1/sandbox/invoices/{id}/remind", tag = "Sandbox", params(("id" = String, Path, description = "inv_..."), IdempotencyKeyHeader),
    description = "Runs a sandbox invoice's reminder schedule as if it were `at` (the invoice's test clock), so a reminder days away can be read now: it sends what the worker would send then (none when nothing is due, already sent, paid, or the client opted out), with `invoice.reminder_sent` and the messages in `GET /v1/sandbox/messages`, worded as of `at` but dated now, so newest-first lists stay in order. The worker then looks at the invoice again after `at`. Needs a sandbox key with scope `invoices:write` (or `*`).",
    request_body = RemindAt,
    responses((status = 200, body = RemindersSent), (status = 400, body = ErrorBody, description = "validation_error: at"),
        (status = 403, body = ErrorBody, description = "a live key, or a key without invoices:write"), (status = 404, body = ErrorBody)))]
pub(crate) async fn remind(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    // Each reminder is sent once whatever the key; a retry with it answers the first run.
    _idempotency: Idempotency,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<RemindAt>,
) -> ApiResult<Json<RemindersSent>> {
    let at = Timestamp::parse_rfc3339(&body.at)
        .map_err(|e| ApiError::validation(vec![lajan_domain::FieldError::new("at", e)]))?;
    let sent = state.services.remind_sandbox_invoice(auth.tenant(), &id, at).await?;
    let reminders = sent.iter().map(|s| ReminderView::of(&s.reminder, &s.messages)).collect();
    Ok(Json(RemindersSent { reminders }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SimulatePayment {
    /// How much the simulated customer pays; default: what is still due. Less underpays (the
    /// invoice stays unpaid), more overpays (it is paid and the excess recorded). Positive, at
    /// most 2 decimal places and at most 922337203685.47.
    #[schema(value_type = Option<f64>, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 100)]
    pub amount: Option<ExactNumber>,
}

/// A payment recorded on the sandbox ledger.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SandboxPaymentView {
    pub id: String,
    /// SHA-256 of the simulated transaction envelope, hex.
    pub tx_hash: String,
    pub ledger_seq: i64,
    pub amount: String,
    pub asset_code: String,
    pub memo: Option<String>,
    pub source_account: String,
    pub destination_account: String,
    pub payment_intent: IntentState,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IntentState {
    pub id: String,
    /// active, inactive, expired or paid.
    pub status: String,
    pub amount: String,
    pub amount_received: String,
}

#[utoipa::path(post, operation_id = "simulateSandboxPayment", path = "/v1/sandbox/payment-intents/{id}/pay", tag = "Sandbox", params(("id" = String, Path, description = "pi_..."), IdempotencyKeyHeader),
    description = "Pays a payment intent as a simulated customer would. Needs a sandbox key with scope `invoices:write` (or `*`).",
    request_body(content = SimulatePayment, description = super::doc_types::OPTIONAL_BODY),
    responses((status = 201, body = SandboxPaymentView), (status = 400, body = ErrorBody, description = "cannot_pay (paid, void, inactive, expired or draft) or invalid_amount"),
        (status = 403, body = ErrorBody, description = "a live key, or a key without invoices:write"), (status = 404, body = ErrorBody)))]
pub(crate) async fn pay(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<SimulatePayment>,
) -> ApiResult<(StatusCode, Json<SandboxPaymentView>)> {
    let tenant = auth.tenant();
    sandbox_only(tenant)?;
    let amount = body.amount.map(|n| parse_amount("amount", &n.text())).transpose()?;
    let not_found = || ApiError::not_found("payment intent");
    let (intent, target) = state.store.get_payment_intent(&id).await?.ok_or_else(not_found)?;
    if intent.org_id != tenant.org_id || intent.env != tenant.env {
        return Err(not_found());
    }
    // Recording the payment and applying it are two steps; a retry with the key resubmits the
    // identical transaction, so a crash between them, or after them, pays once.
    let resubmit = idempotency.claim().map(|c| {
        let seed = format!("{}/{}/{}/{}", tenant.org_id, tenant.env.as_str(), c.key, c.request_hash);
        hex(&Sha256::digest(seed.as_bytes()))
    });
    let payment = state.services.simulate_payment(&intent, &target, amount, resubmit).await?;
    let (after, _) = state.store.get_payment_intent(&id).await?.ok_or_else(not_found)?;
    Ok((
        StatusCode::CREATED,
        Json(SandboxPaymentView {
            id: payment.id,
            tx_hash: payment.tx_hash,
            ledger_seq: payment.ledger_seq,
            amount: money(payment.amount),
            asset_code: payment.asset_code,
            memo: payment.memo,
            source_account: payment.source_account,
            destination_account: payment.destination_account,
            payment_intent: IntentState {
                id: after.id.clone(),
                status: after.effective_status(Timestamp::now()).as_str().to_owned(),
                amount: money(after.amount),
                amount_received: money(after.amount_received),
            },
        }),
    ))
}

#[utoipa::path(get, operation_id = "listSandboxMessages", path = "/v1/sandbox/messages", tag = "Sandbox",
    description = "The emails, SMS and WhatsApp messages sandbox sends and invitations produced, newest first, with their words whole: an invitation's link and a registration code, which `GET /v1/messages`, events, webhooks and the console show as `***`, are readable here so a test can walk a receiver's registration. Needs a sandbox key with scope `sandbox:read` (or `*`).",
    params(PageParams),
    responses((status = 200, body = MessageList), (status = 403, body = ErrorBody, description = "a live key, or a key without sandbox:read")))]
pub(crate) async fn messages(
    auth: Authed<SandboxRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
) -> ApiResult<Json<MessageList>> {
    sandbox_only(auth.tenant())?;
    let query = lajan_store::messages::MessageQuery { page, ..Default::default() };
    let found = state.store.list_messages(auth.tenant(), &query).await?;
    let pagination = PaginationView::of(&found);
    Ok(Json(MessageList { data: found.items.iter().map(MessageView::unredacted).collect(), pagination }))
}

/// One asset held by the organization's sandbox account.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BalanceView {
    pub asset_code: String,
    #[schema(example = "1000000.00")]
    pub balance: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BalanceList {
    /// The organization's account on the sandbox network (payouts are paid from it).
    pub account: String,
    pub data: Vec<BalanceView>,
}

fn balance_view(account: &str, balances: &[(String, i64)]) -> BalanceList {
    BalanceList {
        account: account.to_owned(),
        data: balances.iter().map(|(code, b)| BalanceView { asset_code: code.clone(), balance: money(*b) }).collect(),
    }
}

#[utoipa::path(get, operation_id = "getSandboxBalances", path = "/v1/sandbox/balances", tag = "Sandbox",
    description = "The organization's sandbox account and its balances. Needs a sandbox key with scope `payouts:read` (or `*`).",
    responses((status = 200, body = BalanceList, description = "Every asset starts at 1000000.00"), (status = 403, body = ErrorBody, description = "a live key, or a key without payouts:read")))]
pub(crate) async fn balances(auth: Authed<PayoutsRead>, State(state): State<AppState>) -> ApiResult<Json<BalanceList>> {
    let tenant = auth.tenant();
    sandbox_only(tenant)?;
    let balances = state.store.sandbox_balances(tenant).await?;
    Ok(Json(balance_view(&lajan_ledger::sandbox::receiving_account(&tenant.org_id), &balances)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct TopUp {
    /// One of the sandbox assets: HTG, USD, USDC, USDT, EURC, XLM (case-sensitive).
    #[schema(required = true, nullable = false, example = "USDC")]
    pub asset_code: Option<String>,
    /// Positive, at most 2 decimals; the balance may not pass 922337203685.47.
    #[schema(value_type = f64, required = true, exclusive_minimum = 0, maximum = 922337203685.47, multiple_of = 0.01, example = 5000)]
    pub amount: Option<ExactNumber>,
}

#[utoipa::path(post, operation_id = "topUpSandboxBalance", path = "/v1/sandbox/balances/top-up", tag = "Sandbox", request_body = TopUp,
    description = "Adds to one balance of the organization's sandbox account. Needs a sandbox key with scope `payouts:write` (or `*`).",
    params(IdempotencyKeyHeader),
    responses((status = 200, body = BalanceList), (status = 400, body = ErrorBody, description = "validation_error, invalid_asset_code or invalid_amount"), (status = 403, body = ErrorBody, description = "a live key, or a key without payouts:write")))]
pub(crate) async fn top_up(
    auth: Authed<PayoutsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<TopUp>,
) -> ApiResult<Json<BalanceList>> {
    let tenant = auth.tenant();
    let account = lajan_ledger::sandbox::receiving_account(&tenant.org_id);
    let view = |balances: &Balances| balance_view(&account, balances);
    let render = |balances: &Balances| json_bytes(&view(balances));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let amount = body.amount.map(|n| n.text());
    let balances = state.services.top_up_sandbox(tenant, body.asset_code, amount, answer).await?;
    Ok(Json(view(&balances)))
}
