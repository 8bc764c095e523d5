//! Clients: `GET/POST /clients`, `GET/PUT/DELETE /clients/{id}`. DELETE archives: the client
//! leaves this area but stays visible inside the invoices and payouts that reference it.

use super::common::{Deleted, IdempotencyKeyHeader, PageParams, PaginationView, ResourceId};
use crate::auth::Authed;
use crate::auth::scope::{ClientsRead, ClientsWrite};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiQuery, Pagination, not_null, nullable, search_text};
use crate::idempotency::{Idempotency, json_bytes};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use lajan_domain::client::{Client, ClientInput, ClientPatchInput, VerificationInput};
use lajan_domain::invitation::Invitation;
use lajan_domain::scope::Scope;
use lajan_services::views::clients::ClientView;
use lajan_services::views::invitations::InvitationView;
use lajan_store::ClientQuery;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/clients", get(list).post(create))
        .route("/clients/{id}", get(fetch).put(update).delete(archive))
        .route("/clients/{id}/invitation", get(invitation))
        .route("/clients/{id}/invite", axum::routing::post(invite))
        .route("/clients/{id}/invitation/unlock", axum::routing::post(unlock))
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ClientList {
    pub data: Vec<ClientView>,
    pub pagination: PaginationView,
}

/// A new client. `firstName` and `lastName` are required; the rest are optional.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct CreateClient {
    #[schema(required = true, nullable = false, example = "Marie")]
    pub first_name: Option<String>,
    #[schema(required = true, nullable = false, example = "Jean-Baptiste")]
    pub last_name: Option<String>,
    #[schema(example = "marie@example.ht")]
    pub email: Option<String>,
    /// As people write it: `+509 3710-2030`, `509 37 10 20 30`, or without the country code
    /// (`3710 2030`) for a number of the organization's `country`. Kept, and shown, in E.164.
    #[schema(example = "+509 3710 2030")]
    pub phone_number: Option<String>,
    #[schema(example = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H")]
    pub wallet_account_id: Option<String>,
    /// The memo the wallet needs to credit the client, when it is a custodial wallet or an
    /// exchange (needs `walletAccountId`): every payout to the wallet carries it.
    #[schema(example = "1234567")]
    pub wallet_memo: Option<String>,
    /// `text`, `id` or `hash`. Left out, it is read from `walletMemo`: a whole number without
    /// leading zeros is an id, 64 hex digits a hash, anything else text.
    #[schema(value_type = Option<crate::routes::doc_types::MemoType>)]
    pub wallet_memo_type: Option<String>,
    /// The language Lajan speaks to the client in: `ht`, `fr` or `en`; the settings'
    /// `defaultClientLanguage` when left out.
    #[schema(example = "ht", value_type = Option<crate::routes::doc_types::Language>)]
    pub language: Option<String>,
    /// Whether the organization's payment reminders go to the client (default true); invoices
    /// and receipts still do.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub reminders_enabled: Option<bool>,
    /// What the receiver must answer before registering a wallet (optional). Kept only as a
    /// slow hash of the normalized answer; never returned.
    pub verification: Option<VerificationRequest>,
}

/// A question and its answer: `date_of_birth` (`YYYY-MM-DD`), `year_month` (`YYYY-MM`), `pin`
/// (4 to 8 digits) or `national_id` (4 to 32 letters and digits; spaces, dashes and dots are
/// ignored, and case too).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VerificationRequest {
    #[serde(rename = "type")]
    #[schema(required = true, nullable = false, example = "date_of_birth")]
    pub kind: Option<String>,
    #[schema(required = true, nullable = false, example = "1990-05-07")]
    pub value: Option<String>,
}

impl VerificationRequest {
    pub(crate) fn input(self) -> VerificationInput {
        VerificationInput { kind: self.kind, value: self.value }
    }
}

/// A change to a client: fields left out are kept; `null` clears `email`, `phoneNumber`,
/// `walletAccountId` or `verification` (a client always has a `language`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct UpdateClient {
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>, nullable = false)]
    pub first_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>, nullable = false)]
    pub last_name: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub email: Option<Option<String>>,
    /// As people write it (see `CreateClient`); null removes it.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub phone_number: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub wallet_account_id: Option<Option<String>>,
    /// The memo the wallet needs; `null` removes it. A new `walletAccountId` given without a
    /// memo removes the old one: a memo belongs to one address.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub wallet_memo: Option<Option<String>>,
    /// `text`, `id` or `hash`, with `walletMemo`; read from it when left out.
    #[schema(value_type = Option<crate::routes::doc_types::MemoType>)]
    pub wallet_memo_type: Option<String>,
    /// `ht`, `fr` or `en`.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<crate::routes::doc_types::Language>, nullable = false)]
    pub language: Option<Option<String>>,
    /// Whether the organization's payment reminders go to the client.
    #[serde(default, deserialize_with = "not_null")]
    #[schema(nullable = false)]
    pub reminders_enabled: Option<bool>,
    /// A new question and answer; `null` removes the question.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<VerificationRequest>)]
    pub verification: Option<Option<VerificationRequest>>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ClientFilters {
    /// Matches first and last name, email, phone number or wallet address (case-insensitive, substring).
    pub search: Option<String>,
}

#[utoipa::path(get, operation_id = "listClients", path = "/v1/clients", tag = "Clients", params(ClientFilters, PageParams),
    responses((status = 200, body = ClientList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(crate) async fn list(
    auth: Authed<ClientsRead>,
    State(state): State<AppState>,
    Pagination(page): Pagination,
    ApiQuery(filters): ApiQuery<ClientFilters>,
) -> ApiResult<Json<ClientList>> {
    let query = ClientQuery { search: search_text(filters.search)?, page };
    let found = state.store.list_clients(auth.tenant(), &query).await?;
    let pagination = PaginationView::of(&found);
    Ok(Json(ClientList { data: found.items.iter().map(ClientView::from).collect(), pagination }))
}

#[utoipa::path(post, operation_id = "createClient", path = "/v1/clients", tag = "Clients", request_body = CreateClient,
    params(IdempotencyKeyHeader),
    responses((status = 201, body = ClientView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn create(
    auth: Authed<ClientsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ApiJson(body): ApiJson<CreateClient>,
) -> ApiResult<(StatusCode, Json<ClientView>)> {
    let input = ClientInput {
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email,
        phone_number: body.phone_number,
        wallet_account_id: body.wallet_account_id,
        wallet_memo: body.wallet_memo,
        wallet_memo_type: body.wallet_memo_type,
        language: body.language,
        reminders_enabled: body.reminders_enabled,
        verification: body.verification.map(VerificationRequest::input),
    };
    let render = |c: &Client| json_bytes(&ClientView::from(c));
    let answer = idempotency.respond(StatusCode::CREATED, &render);
    let client = state.services.create_client(auth.tenant(), input, answer).await?;
    Ok((StatusCode::CREATED, Json(ClientView::from(&client))))
}

#[utoipa::path(get, operation_id = "getClient", path = "/v1/clients/{id}", tag = "Clients", params(("id" = String, Path)),
    responses((status = 200, body = ClientView), (status = 404, body = ErrorBody)))]
pub(crate) async fn fetch(
    auth: Authed<ClientsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<ClientView>> {
    let client = state.store.get_client(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("client"))?;
    Ok(Json(ClientView::from(&client)))
}

#[utoipa::path(put, operation_id = "updateClient", path = "/v1/clients/{id}", tag = "Clients", params(("id" = String, Path)), request_body = UpdateClient,
    description = "Changes the fields given. A walletAccountId given to a client that had none sends the client's payouts waiting in awaiting_registration on their way (approved ones to ready_to_send, the others back to pending approval); when one of them is approved already, the key also needs payouts:approve, since it decides where approved money goes.",
    responses((status = 200, body = ClientView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "forbidden: the key lacks clients:write, or gives a wallet that approved payouts wait for without payouts:approve; nothing changed")))]
pub(crate) async fn update(
    auth: Authed<ClientsWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
    ApiJson(body): ApiJson<UpdateClient>,
) -> ApiResult<Json<ClientView>> {
    let patch = ClientPatchInput {
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email,
        phone_number: body.phone_number,
        wallet_account_id: body.wallet_account_id,
        wallet_memo: body.wallet_memo,
        wallet_memo_type: body.wallet_memo_type,
        language: body.language,
        reminders_enabled: body.reminders_enabled,
        verification: body.verification.map(|v| v.map(VerificationRequest::input)),
    };
    let may_approve_payouts = Scope::any_grants(&auth.0.scopes, &Scope::ApprovePayouts);
    let client = state.services.update_client(auth.tenant(), &id, patch, may_approve_payouts).await?;
    Ok(Json(ClientView::from(&client)))
}

#[utoipa::path(delete, operation_id = "deleteClient", path = "/v1/clients/{id}", tag = "Clients", params(("id" = String, Path)),
    responses((status = 200, body = Deleted), (status = 404, body = ErrorBody)))]
pub(crate) async fn archive(
    auth: Authed<ClientsWrite>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<Deleted>> {
    let client = state.services.archive_client(auth.tenant(), &id).await?;
    Ok(Json(Deleted { id: client.id, deleted: true }))
}

#[utoipa::path(get, operation_id = "getClientInvitation", path = "/v1/clients/{id}/invitation", tag = "Clients",
    params(("id" = String, Path)),
    description = "The client's invitation to register a wallet: sent when the first payout for a client without a wallet is approved, and again every invitationResendDays, at most invitationResends times, until the receiver registers.",
    responses((status = 200, body = InvitationView), (status = 404, body = ErrorBody, description = "no such client, or the client was never invited")))]
pub(crate) async fn invitation(
    auth: Authed<ClientsRead>,
    State(state): State<AppState>,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<InvitationView>> {
    let due = state.store.due_invitation(auth.tenant(), &id).await?.ok_or_else(|| ApiError::not_found("invitation"))?;
    Ok(Json(InvitationView::from(&due.invitation)))
}

#[utoipa::path(post, operation_id = "inviteClient", path = "/v1/clients/{id}/invite", tag = "Clients",
    params(("id" = String, Path), IdempotencyKeyHeader),
    description = "Sends the client's invitation again now, with a new link (every link of a live invitation works), by the same channel as the schedule: WhatsApp or SMS to a phone, else email. In the sandbox the message is kept in GET /v1/sandbox/messages instead of being delivered. At most once every ten minutes per client.",
    responses((status = 200, body = InvitationView),
        (status = 400, body = ErrorBody, description = "already_registered, nothing_waiting (no approved payout waits for the client's wallet), invitation_locked or no_channel_available; nothing was sent"),
        (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "rate_limited: sent less than ten minutes ago; Retry-After says when to ask again")))]
pub(crate) async fn invite(
    auth: Authed<ClientsWrite>,
    State(state): State<AppState>,
    idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<InvitationView>> {
    let render = |i: &Invitation| json_bytes(&InvitationView::from(i));
    let answer = idempotency.respond(StatusCode::OK, &render);
    let invitation = state.services.invite_client(auth.tenant(), &id, answer).await?;
    Ok(Json(InvitationView::from(&invitation)))
}

#[utoipa::path(post, operation_id = "unlockClientInvitation", path = "/v1/clients/{id}/invitation/unlock", tag = "Clients",
    params(("id" = String, Path), IdempotencyKeyHeader),
    description = "Lets a receiver whose invitation locked after five wrong answers to the organization's question try again (status back to invited, the count of wrong answers to zero), with client.verification_unlocked. Their links work again.",
    responses((status = 200, body = InvitationView),
        (status = 400, body = ErrorBody, description = "not_locked"),
        (status = 404, body = ErrorBody, description = "no such client, or never invited")))]
pub(crate) async fn unlock(
    auth: Authed<ClientsWrite>,
    State(state): State<AppState>,
    _idempotency: Idempotency,
    ResourceId(id): ResourceId,
) -> ApiResult<Json<InvitationView>> {
    let invitation = state.services.unlock_invitation(auth.tenant(), &id).await?;
    Ok(Json(InvitationView::from(&invitation)))
}
