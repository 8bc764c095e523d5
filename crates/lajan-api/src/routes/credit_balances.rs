//! A client's credit balance: `GET /v1/clients/{id}/credit-balance` and the moves that explain
//! it, `GET /v1/clients/{id}/credit-balance/transactions`.

use super::common::{PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::ClientsRead;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Pagination;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use lajan_services::views::credit_balances::{CreditBalanceView, CreditTransactionView};
use serde::Serialize;
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/clients/{id}/credit-balance", get(balance))
        .route("/clients/{id}/credit-balance/transactions", get(transactions))
}

/// What the organization holds for a client.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClientCreditBalance {
    #[schema(example = "cli_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b")]
    pub client_id: String,
    /// One per currency the client ever held credit in (zero included), by currency code.
    pub balances: Vec<CreditBalanceView>,
}

#[utoipa::path(get, operation_id = "getClientCreditBalance", path = "/v1/clients/{id}/credit-balance", tag = "Clients",
    description = "What the organization holds for the client, per currency: what invoices received beyond what they ask for (an overpayment), and what invoices voided after payments had received. Each move is listed by listClientCreditTransactions.",
    params(("id" = String, Path)),
    responses((status = 200, body = ClientCreditBalance), (status = 404, body = ErrorBody)))]
pub(crate) async fn balance(
    auth: Authed<ClientsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<ClientCreditBalance>> {
    let balances = state.services.client_credit_balances(auth.tenant(), &id).await?;
    Ok(Json(ClientCreditBalance { client_id: id, balances: balances.iter().map(CreditBalanceView::from).collect() }))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct CreditTransactionList {
    pub data: Vec<CreditTransactionView>,
    pub pagination: PaginationView,
}

#[utoipa::path(get, operation_id = "listClientCreditTransactions", path = "/v1/clients/{id}/credit-balance/transactions", tag = "Clients",
    description = "Every move of the client's credit balance, newest first, each with why (`cause`), the invoice that made it, and the balance it left in its currency.",
    params(("id" = String, Path), PageParams),
    responses((status = 200, body = CreditTransactionList), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(crate) async fn transactions(
    auth: Authed<ClientsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    Pagination(page): Pagination,
) -> ApiResult<Json<CreditTransactionList>> {
    let found = state.services.client_credit_transactions(auth.tenant(), &id, page).await?;
    let data = found.items.iter().map(CreditTransactionView::from).collect();
    Ok(Json(CreditTransactionList { data, pagination: PaginationView::of(&found) }))
}
