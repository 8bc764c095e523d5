//! The payments counted on an invoice: `GET /v1/invoices/{id}/payments`.

use super::common::{PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::InvoicesRead;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Pagination;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use lajan_services::views::invoice_payments::InvoicePaymentView;
use serde::Serialize;
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new().route("/invoices/{id}/payments", get(list))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InvoicePaymentList {
    pub data: Vec<InvoicePaymentView>,
    pub pagination: PaginationView,
}

#[utoipa::path(get, operation_id = "listInvoicePayments", path = "/v1/invoices/{id}/payments", tag = "Invoices",
    description = "Every payment counted on the invoice, newest first, whatever its size: each Stellar payment carrying the invoice's reference is one (with its transaction hash as `reference`), and the sum of those not reversed is the invoice's `amountPaid`.",
    params(("id" = String, Path), PageParams),
    responses((status = 200, body = InvoicePaymentList), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    Pagination(page): Pagination,
) -> ApiResult<Json<InvoicePaymentList>> {
    let (currency, found) = state.services.invoice_payments(auth.tenant(), &id, page).await?;
    let data = found.items.iter().map(|p| InvoicePaymentView::of(p, currency)).collect();
    Ok(Json(InvoicePaymentList { data, pagination: PaginationView::of(&found) }))
}
