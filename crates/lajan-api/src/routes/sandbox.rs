//! Sandbox tools (sandbox keys only): simulate a customer's payment to a payment intent, and
//! read the messages a sandbox `send` would have delivered.

use super::{PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{InvoicesRead, InvoicesWrite, PayoutsRead, PayoutsWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, OptionalJson, Pagination, number_text};
use crate::invoicing::money;
use crate::keys::hex;
use crate::state::AppState;
use crate::stellar::{sandbox_customer_account, sandbox_receiving_account};
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::id::IdKind;
use lajan_domain::money::parse_scaled;
use lajan_domain::payment::{IncomingPayment, IntentStatus, PaymentIntent};
use lajan_domain::{Invalid, Tenant, Timestamp};
use lajan_store::invoices::{IntentTarget, Message};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sandbox/payment-intents/{id}/pay", post(pay))
        .route("/sandbox/messages", get(messages))
        .route("/sandbox/balances", get(balances))
        .route("/sandbox/balances/top-up", post(top_up))
}

fn sandbox_only(tenant: &Tenant) -> ApiResult<()> {
    if tenant.env.is_live() {
        return Err(ApiError::forbidden("Sandbox tools need a sandbox key (sk_test_...)"));
    }
    Ok(())
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SimulatePayment {
    /// How much the simulated customer pays; default: what is still due. Less underpays (the
    /// invoice stays unpaid), more overpays (it is paid and the excess recorded).
    #[schema(value_type = Option<f64>, example = 100)]
    pub amount: Option<serde_json::Number>,
}

/// A payment recorded on the sandbox ledger.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SandboxPaymentView {
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
pub struct IntentState {
    pub id: String,
    /// active, inactive, expired or paid.
    pub status: String,
    pub amount: String,
    pub amount_received: String,
}

/// Why a customer cannot pay this intent now, if they cannot.
pub fn refusal(intent: &PaymentIntent, target: &IntentTarget, now: Timestamp) -> Option<&'static str> {
    match intent.effective_status(now) {
        IntentStatus::Paid => return Some("This has already been paid."),
        IntentStatus::Expired => return Some("This payment link has expired."),
        IntentStatus::Inactive if intent.invoice_id.is_some() => return Some("This invoice was voided."),
        IntentStatus::Inactive => return Some("This payment link is no longer active."),
        IntentStatus::Active => {}
    }
    match target {
        IntentTarget::Invoice(d) if !d.invoice.status.is_payable() => Some(match d.invoice.status {
            lajan_domain::invoice::InvoiceStatus::Draft => "This invoice has not been issued yet.",
            lajan_domain::invoice::InvoiceStatus::Void => "This invoice was voided.",
            _ => "This invoice has already been paid.",
        }),
        _ => None,
    }
}

/// Records a simulated customer payment on the sandbox ledger and lets the payment watcher
/// apply it, exactly as it applies payments seen on the live network.
pub async fn simulate_payment(
    state: &AppState,
    intent: &PaymentIntent,
    target: &IntentTarget,
    amount: Option<i64>,
) -> ApiResult<IncomingPayment> {
    if intent.env.is_live() {
        return Err(ApiError::forbidden("Only sandbox payments can be simulated"));
    }
    if let Some(reason) = refusal(intent, target, Timestamp::now()) {
        return Err(Invalid::new("cannot_pay", reason).into());
    }
    let due = intent.amount - intent.amount_received;
    let amount = amount.unwrap_or(if due > 0 { due } else { intent.amount });
    let source = sandbox_customer_account();
    let destination = sandbox_receiving_account(&intent.org_id);
    let id = IdKind::LedgerPayment.generate();
    let envelope = format!(
        "{{\"id\":\"{id}\",\"source\":\"{source}\",\"destination\":\"{destination}\",\"asset\":\"{}\",\"amount\":{amount},\"memo\":\"{}\"}}",
        intent.currency.code(),
        intent.reference
    );
    let payment = IncomingPayment {
        id,
        org_id: intent.org_id.clone(),
        env: intent.env,
        ledger_seq: 0,
        tx_hash: hex(&Sha256::digest(envelope.as_bytes())),
        source_account: source,
        destination_account: destination,
        asset_code: intent.currency.code().to_owned(),
        amount,
        memo: Some(intent.reference.clone()),
        created_at: Timestamp::now(),
        payment_intent_id: None,
        processed_at: None,
    };
    let (recorded, closes_at) =
        state.store.record_sandbox_payment(&payment, state.config.sandbox_ledger_close_ms).await?;
    // As a wallet does, the payer hears back once the ledger holding the payment has closed.
    crate::ledger::sandbox::wait_until(closes_at).await;
    state.jobs.apply_payments_once().await?;
    Ok(recorded)
}

#[utoipa::path(post, path = "/v1/sandbox/payment-intents/{id}/pay", tag = "Sandbox", params(("id" = String, Path, description = "pi_...")),
    request_body(content = SimulatePayment, description = "Optional"),
    responses((status = 201, body = SandboxPaymentView), (status = 400, body = ErrorBody, description = "cannot_pay (paid, void, inactive, expired or draft) or invalid_amount"),
        (status = 403, body = ErrorBody, description = "a live key"), (status = 404, body = ErrorBody)))]
pub async fn pay(
    auth: Authed<InvoicesWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    OptionalJson(body): OptionalJson<SimulatePayment>,
) -> ApiResult<(StatusCode, Json<SandboxPaymentView>)> {
    sandbox_only(auth.tenant())?;
    let amount = match &body.amount {
        None => None,
        Some(n) => match parse_scaled(&number_text(n), 2) {
            Ok(a) if a > 0 => Some(a),
            Ok(_) => return Err(Invalid::new("invalid_amount", "amount must be positive").into()),
            Err(e) => return Err(Invalid::new("invalid_amount", format!("amount {e}")).into()),
        },
    };
    let not_found = || ApiError::not_found("payment intent");
    let (intent, target) = state.store.get_payment_intent(&id).await?.ok_or_else(not_found)?;
    if intent.org_id != auth.tenant().org_id || intent.env != auth.tenant().env {
        return Err(not_found());
    }
    let payment = simulate_payment(&state, &intent, &target, amount).await?;
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

/// A message a sandbox `send` produced (kept here instead of being delivered).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageView {
    pub id: String,
    pub invoice_id: Option<String>,
    /// email or sms.
    pub channel: String,
    pub to: String,
    pub subject: Option<String>,
    pub text: String,
    pub html: Option<String>,
    /// `sandbox` for sandbox messages.
    pub status: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

impl From<&Message> for MessageView {
    fn from(m: &Message) -> Self {
        MessageView {
            id: m.id.clone(),
            invoice_id: m.invoice_id.clone(),
            channel: m.channel.as_str().to_owned(),
            to: m.recipient.clone(),
            subject: m.subject.clone(),
            text: m.body_text.clone(),
            html: m.body_html.clone(),
            status: m.status.clone(),
            created_at: m.created_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MessageList {
    pub data: Vec<MessageView>,
    pub pagination: PaginationView,
}

#[utoipa::path(get, path = "/v1/sandbox/messages", tag = "Sandbox",
    params(PageParams),
    responses((status = 200, body = MessageList), (status = 403, body = ErrorBody, description = "a live key")))]
pub async fn messages(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
) -> ApiResult<Json<MessageList>> {
    sandbox_only(auth.tenant())?;
    let found = state.store.list_messages(auth.tenant(), page).await?;
    let pagination = PaginationView::of(&found);
    Ok(Json(MessageList { data: found.items.iter().map(MessageView::from).collect(), pagination }))
}

/// One asset held by the organization's sandbox account.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceView {
    pub asset_code: String,
    #[schema(example = "1000000.00")]
    pub balance: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceList {
    /// The organization's account on the sandbox network (payouts are paid from it).
    pub account: String,
    pub data: Vec<BalanceView>,
}

async fn balance_list(state: &AppState, tenant: &Tenant) -> ApiResult<BalanceList> {
    let rows = state.store.sandbox_balances(tenant).await?;
    Ok(BalanceList {
        account: sandbox_receiving_account(&tenant.org_id),
        data: rows.into_iter().map(|(asset_code, b)| BalanceView { asset_code, balance: money(b) }).collect(),
    })
}

#[utoipa::path(get, path = "/v1/sandbox/balances", tag = "Sandbox",
    responses((status = 200, body = BalanceList, description = "Every asset starts at 1000000.00"), (status = 403, body = ErrorBody)))]
pub async fn balances(auth: Authed<PayoutsRead>, State(state): State<AppState>) -> ApiResult<Json<BalanceList>> {
    sandbox_only(auth.tenant())?;
    Ok(Json(balance_list(&state, auth.tenant()).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TopUp {
    #[schema(required = true, example = "USDC")]
    pub asset_code: Option<String>,
    /// Positive, at most 2 decimals.
    #[schema(value_type = f64, required = true, example = 5000)]
    pub amount: Option<serde_json::Number>,
}

#[utoipa::path(post, path = "/v1/sandbox/balances/top-up", tag = "Sandbox", request_body = TopUp,
    responses((status = 200, body = BalanceList), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn top_up(
    auth: Authed<PayoutsWrite>,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<TopUp>,
) -> ApiResult<Json<BalanceList>> {
    sandbox_only(auth.tenant())?;
    let (Some(code), Some(amount)) = (body.asset_code, body.amount) else {
        return Err(ApiError::bad_request("validation_error", "assetCode and amount are required"));
    };
    let code = lajan_domain::payout::AssetCode::parse(&code)?;
    let amount = lajan_domain::payout::parse_amount(&number_text(&amount))?;
    state.store.sandbox_top_up(auth.tenant(), code.as_str(), amount).await?;
    Ok(Json(balance_list(&state, auth.tenant()).await?))
}
