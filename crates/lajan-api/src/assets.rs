//! The assets Lajan pays in (spec §1) and their issuers per environment: shipped sandbox
//! defaults (derived accounts on the simulated ledger) and live issuers from configuration.

use crate::stellar::sandbox_issuer;
use lajan_domain::Environment;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

pub struct AssetInfo {
    pub code: &'static str,
    pub kind: &'static str,
    pub name: &'static str,
}

pub const ASSETS: [AssetInfo; 6] = [
    AssetInfo { code: "HTG", kind: "fiat-pegged", name: "Haitian gourde (tokenized)" },
    AssetInfo { code: "USD", kind: "fiat-pegged", name: "US dollar (tokenized)" },
    AssetInfo { code: "USDC", kind: "stablecoin", name: "USD Coin" },
    AssetInfo { code: "USDT", kind: "stablecoin", name: "Tether USD" },
    AssetInfo { code: "EURC", kind: "stablecoin", name: "Euro Coin" },
    AssetInfo { code: "XLM", kind: "native", name: "Stellar lumens" },
];

/// The issuer of `code` in `env`, when one is known: sandbox issuers are shipped; live ones come
/// from `live` (configuration). `None` for XLM, which has no issuer.
pub fn issuer(env: Environment, code: &str, live: &BTreeMap<String, String>) -> Option<String> {
    if code == "XLM" {
        return None;
    }
    match env {
        Environment::Test => ASSETS.iter().any(|a| a.code == code).then(|| sandbox_issuer(code)),
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
            (a.code == "XLM" || issuer.is_some()).then(|| AssetView {
                code: a.code.to_owned(),
                kind: a.kind.to_owned(),
                name: a.name.to_owned(),
                issuer,
            })
        })
        .collect()
}
