//! `GET /.well-known/stellar.toml` (SEP-1): how a Stellar wallet finds Lajan, the network it
//! speaks for, the key its challenges are signed with, and the assets it pays out.

use crate::error::ApiResult;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use lajan_services::stellar_service::StellarService;
use serde::Serialize;

/// The version of SEP-1 the file follows.
const SEP1_VERSION: &str = "2.7.0";

pub fn routes() -> Router<AppState> {
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
    currencies: Vec<Currency<'a>>,
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

async fn stellar_toml(State(state): State<AppState>) -> ApiResult<Response> {
    let service = state.services.stellar_service().await?;
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
        currencies,
    })
}
