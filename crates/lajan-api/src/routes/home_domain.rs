//! The proof of an organization's home domain: `GET /settings/home-domain` (the DNS TXT record
//! to publish) and `POST /settings/home-domain/verify` (Lajan looks it up; the domain is served
//! from then on).

use super::common::IdempotencyKeyHeader;
use crate::auth::Authed;
use crate::auth::scope::{SettingsRead, SettingsWrite};
use crate::error::{ApiResult, ErrorBody};
use crate::idempotency::Idempotency;
use crate::state::AppState;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_services::home_domains::HomeDomainCheck;
use serde::Serialize;
use utoipa::ToSchema;

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/settings/home-domain", get(fetch)).route("/settings/home-domain/verify", post(verify))
}

/// The organization's home domain and the DNS record that proves it holds it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HomeDomainView {
    #[schema(example = "pay.fonkoze.example")]
    pub domain: String,
    /// `pending` until the record was found; then `verified`, and the domain is served.
    #[schema(example = "pending", pattern = "^(pending|verified)$")]
    pub status: &'static str,
    /// The TXT record to add at the domain's DNS host.
    pub record: TxtRecordView,
    /// When the record was found (RFC 3339); null while pending.
    #[schema(example = json!(null))]
    pub verified_at: Option<String>,
}

/// A DNS TXT record: its name and what it holds.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TxtRecordView {
    #[schema(example = "TXT", pattern = "^TXT$")]
    pub r#type: &'static str,
    #[schema(example = "_lajan-verification.pay.fonkoze.example")]
    pub name: String,
    #[schema(example = "lajan-verification=3f9c2a7d8e1b4c6f0a5d9e2b7c4f1a8d")]
    pub value: String,
}

impl From<HomeDomainCheck> for HomeDomainView {
    fn from(check: HomeDomainCheck) -> Self {
        HomeDomainView {
            status: if check.proved_at.is_some() { "verified" } else { "pending" },
            verified_at: check.proved_at.map(|at| at.to_string()),
            record: TxtRecordView { r#type: "TXT", name: check.record_name, value: check.record_value },
            domain: check.domain,
        }
    }
}

#[utoipa::path(get, operation_id = "getHomeDomain", path = "/v1/settings/home-domain", tag = "Settings",
    description = "The home domain set in the settings (homeDomain) and the DNS TXT record that proves the organization holds it. A home domain is served (its stellar.toml, SEP-10 challenges for it) only once verified: add the record at the domain's DNS host, then POST /v1/settings/home-domain/verify. Setting another homeDomain starts a new proof.",
    responses((status = 200, body = HomeDomainView), (status = 404, body = ErrorBody, description = "not_found: no homeDomain is set")))]
pub(crate) async fn fetch(
    auth: Authed<SettingsRead>,
    State(state): State<AppState>,
) -> ApiResult<Json<HomeDomainView>> {
    Ok(Json(state.services.home_domain_check(auth.tenant()).await?.into()))
}

#[utoipa::path(post, operation_id = "verifyHomeDomain", path = "/v1/settings/home-domain/verify", tag = "Settings",
    params(IdempotencyKeyHeader),
    description = "Looks the home domain's TXT record up in DNS: when it holds the value given by GET /v1/settings/home-domain, the domain is verified and served from now on (verifying again changes nothing). A domain is one organization's: the first to verify it.",
    responses((status = 200, body = HomeDomainView),
        (status = 400, body = ErrorBody, description = "domain_not_verified: the record was not found (yet); domain_in_use: another organization verified this domain first"),
        (status = 404, body = ErrorBody, description = "not_found: no homeDomain is set"),
        (status = 503, body = ErrorBody, description = "DNS could not be asked; try again")))]
pub(crate) async fn verify(
    auth: Authed<SettingsWrite>,
    State(state): State<AppState>,
    _idempotency: Idempotency,
) -> ApiResult<Json<HomeDomainView>> {
    Ok(Json(state.services.verify_home_domain(auth.tenant()).await?.into()))
}
