//! The registry's assets (`lajan_domain::asset`) with their issuers per environment: shipped
//! sandbox issuers (derived accounts on the simulated ledger) and live issuers from configuration.

use lajan_domain::Environment;
use lajan_domain::asset::{ASSETS, NATIVE};
use lajan_ledger::sandbox;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The issuer of `code` in `env`, when one is known: sandbox issuers are shipped; live ones come
/// from `live` (configuration). `None` for XLM, which has no issuer.
pub fn issuer(env: Environment, code: &str, live: &BTreeMap<String, String>) -> Option<String> {
    match env {
        Environment::Test => sandbox::issuer(code),
        Environment::Live if code == NATIVE => None,
        Environment::Live => live.get(code).cloned(),
    }
}

/// An asset the organization can pay in from this environment.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssetView {
    #[schema(example = "USDC")]
    pub code: String,
    /// fiat-pegged, stablecoin or native.
    pub kind: String,
    pub name: String,
    /// The Stellar account that issues it; null for the native asset (XLM).
    pub issuer: Option<String>,
}

/// The registry's assets usable in `env`: every asset in the sandbox; in live, XLM and those
/// whose issuer is configured.
pub fn usable(env: Environment, live: &BTreeMap<String, String>) -> Vec<AssetView> {
    ASSETS
        .iter()
        .filter_map(|a| {
            let issuer = issuer(env, a.code, live);
            (a.code == NATIVE || issuer.is_some()).then(|| AssetView {
                code: a.code.to_owned(),
                kind: a.kind.to_owned(),
                name: a.name.to_owned(),
                issuer,
            })
        })
        .collect()
}
