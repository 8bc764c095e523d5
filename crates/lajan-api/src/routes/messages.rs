//! Messages: every email, SMS and WhatsApp message Lajan queued (invoice sends, invitations,
//! registration codes), what it is about, and where it is on its way, live and sandbox alike.

use super::common::{PageParams, PaginationView, ResourceId, id_filter_error};
use crate::auth::Authed;
use crate::auth::scope::InvoicesRead;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiQuery, Pagination};
use crate::state::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use lajan_domain::FieldError;
use lajan_domain::id::IdKind;
use lajan_domain::message::{Channel, MessageStatus};
pub(crate) use lajan_services::views::messages::MessageView;
use lajan_store::messages::MessageQuery;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/messages", get(list)).route("/messages/{id}", get(fetch))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct MessageList {
    pub data: Vec<MessageView>,
    pub pagination: PaginationView,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct MessageFilters {
    /// The messages of this invoice.
    #[serde(rename = "invoiceId")]
    #[param(rename = "invoiceId", pattern = "^inv_[0-9a-f]{32}$")]
    pub invoice_id: Option<String>,
    /// The messages to this client: invoice sends, reminders, receipts and invitations.
    #[serde(rename = "clientId")]
    #[param(rename = "clientId", pattern = "^cli_[0-9a-f]{32}$")]
    pub client_id: Option<String>,
    /// queued, sent, delivered, failed or undeliverable.
    #[param(inline, value_type = Option<super::doc_types::MessageStatusFilter>)]
    pub status: Option<String>,
    /// email, sms or whatsapp.
    #[param(inline, value_type = Option<super::doc_types::ChannelFilter>)]
    pub channel: Option<String>,
}

impl MessageFilters {
    /// The filters as the store reads them; every bad one named at once.
    fn query(self, page: lajan_domain::pagination::PageRequest) -> ApiResult<MessageQuery> {
        let mut errors: Vec<FieldError> = [
            id_filter_error("invoiceId", "an invoice", IdKind::Invoice, self.invoice_id.as_deref()),
            id_filter_error("clientId", "a client", IdKind::Client, self.client_id.as_deref()),
        ]
        .into_iter()
        .flatten()
        .collect();
        let (invoice_id, client_id) = (self.invoice_id, self.client_id);
        let status = self.status.as_deref().map(str::parse::<MessageStatus>).transpose();
        let channel = self.channel.as_deref().map(str::parse::<Channel>).transpose();
        let (status, channel) = match (status, channel) {
            (Ok(status), Ok(channel)) => (status, channel),
            (status, channel) => {
                errors.extend(status.err().map(|e| FieldError::new("status", e)));
                errors.extend(channel.err().map(|e| FieldError::new("channel", e)));
                (None, None)
            }
        };
        if !errors.is_empty() {
            return Err(ApiError::validation(errors));
        }
        Ok(MessageQuery { invoice_id, client_id, status, channel, page })
    }
}

#[utoipa::path(get, operation_id = "listMessages", path = "/v1/messages", tag = "Messages",
    description = "Every email, SMS and WhatsApp message Lajan queued, newest first, with its status. Needs `invoices:read`.",
    params(MessageFilters, PageParams),
    responses((status = 200, body = MessageList), (status = 400, body = ErrorBody, description = "validation_error (a filter), invalid_pagination")))]
pub(crate) async fn list(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
    ApiQuery(filters): ApiQuery<MessageFilters>,
) -> ApiResult<Json<MessageList>> {
    let found = state.store.list_messages(auth.tenant(), &filters.query(page)?).await?;
    let pagination = PaginationView::of(&found);
    Ok(Json(MessageList { data: found.items.iter().map(MessageView::from).collect(), pagination }))
}

#[utoipa::path(get, operation_id = "getMessage", path = "/v1/messages/{id}", tag = "Messages", params(("id" = String, Path)),
    responses((status = 200, body = MessageView), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<InvoicesRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<MessageView>> {
    let found = state.store.get_message(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("message"))?;
    Ok(Json(MessageView::from(&found)))
}
