//! `GET /.well-known/stellar.toml` (SEP-1): how a Stellar wallet finds Lajan, the network it
//! speaks for, the key its challenges are signed with, and the assets it pays out; at an
//! organization's home domain, the organization and its `[DOCUMENTATION]` too.

use crate::error::ApiResult;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use lajan_services::stellar_service::StellarService;
use serde::Serialize;

/// The version of SEP-1 the file follows.
const SEP1_VERSION: &str = "2.7.0";

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/.well-known/stellar.toml", get(stellar_toml))
}

#[derive(Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct StellarToml<'a> {
    version: &'static str,
    network_passphrase: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    signing_key: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    web_auth_endpoint: Option<&'a str>,
    #[serde(rename = "TRANSFER_SERVER_SEP0024", skip_serializing_if = "Option::is_none")]
    transfer_server_sep0024: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    documentation: Option<Documentation<'a>>,
    currencies: Vec<Currency<'a>>,
}

/// `[DOCUMENTATION]`: the organization whose home domain was asked for.
#[derive(Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct Documentation<'a> {
    org_name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    org_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    org_logo: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    org_description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    org_official_email: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    org_support_email: Option<&'a str>,
}

/// A `[[CURRENCIES]]` entry: an asset Lajan pays out (it issues none, so none is anchored).
#[derive(Serialize)]
struct Currency<'a> {
    code: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    issuer: Option<&'a str>,
    /// `test` in the sandbox, `live` on the live network.
    status: &'static str,
    display_decimals: u8,
    name: &'a str,
    is_asset_anchored: bool,
}

async fn stellar_toml(State(state): State<AppState>, headers: HeaderMap, uri: Uri) -> ApiResult<Response> {
    let host = crate::routes::common::request_host(&headers, &uri);
    let service = state.services.stellar_service(host.as_deref()).await?;
    let text = render(&service).map_err(|e| crate::error::ApiError::internal(&e))?;
    let mut response = text.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    // SEP-1: any web page (a browser wallet) may read it.
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    Ok(response)
}

fn render(service: &StellarService) -> Result<String, toml::ser::Error> {
    let status = if service.env.is_live() { "live" } else { "test" };
    let currencies = service
        .currencies
        .iter()
        .map(|a| Currency {
            code: &a.code,
            issuer: a.issuer.as_deref(),
            status,
            display_decimals: 2,
            name: &a.name,
            is_asset_anchored: false,
        })
        .collect();
    toml::to_string(&StellarToml {
        version: SEP1_VERSION,
        network_passphrase: &service.network_passphrase,
        signing_key: service.signing_key.as_deref(),
        web_auth_endpoint: service.web_auth_endpoint.as_deref(),
        transfer_server_sep0024: service.transfer_server_sep0024.as_deref(),
        documentation: service.organization.as_ref().map(|o| Documentation {
            org_name: &o.org.name,
            org_url: o.profile.org_url.as_deref(),
            org_logo: o.profile.org_logo.as_deref(),
            org_description: o.profile.org_description.as_deref(),
            org_official_email: o.profile.org_official_email.as_deref(),
            org_support_email: o.profile.org_support_email.as_deref(),
        }),
        currencies,
    })
}
