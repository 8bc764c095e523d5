//! SEP-1: `/.well-known/stellar.toml` tells a Stellar wallet which network Lajan speaks for,
//! the key its challenges are signed with, and the assets it pays out; a fresh deployment makes
//! and keeps its sandbox key, a live one names the configured key.

use crate::live::{Live, keypair};
use lajan_domain::client::WalletAddress;
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_testkit::{Server, TestConfig, test_config};
use toml::Value;

async fn stellar_toml(base: &str) -> Value {
    let r = reqwest::get(format!("{base}/.well-known/stellar.toml")).await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/plain; charset=utf-8");
    assert_eq!(r.headers()["access-control-allow-origin"], "*", "SEP-1: any origin may read it");
    let text = r.text().await.unwrap();
    toml::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn codes(doc: &Value) -> Vec<(String, Option<String>, String)> {
    doc["CURRENCIES"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let issuer = c.get("issuer").and_then(Value::as_str).map(str::to_owned);
            (c["code"].as_str().unwrap().to_owned(), issuer, c["status"].as_str().unwrap().to_owned())
        })
        .collect()
}

api_test!(a_fresh_deployment_describes_its_sandbox_to_wallets_with_a_key_it_keeps, |app| {
    let doc = stellar_toml(&app.url("")).await;
    assert_eq!(
        doc["NETWORK_PASSPHRASE"].as_str(),
        Some(TESTNET_PASSPHRASE),
        "sandbox wallets are test network wallets"
    );
    let key = doc["SIGNING_KEY"].as_str().expect("a signing key with no configuration").to_owned();
    assert!(WalletAddress::parse(&key).is_ok(), "{key}");
    let currencies = codes(&doc);
    let listed: Vec<&str> = currencies.iter().map(|(code, _, _)| code.as_str()).collect();
    assert_eq!(listed, ["HTG", "USD", "USDC", "USDT", "EURC", "XLM"]);
    for (code, issuer, status) in &currencies {
        assert_eq!(issuer.is_none(), code == "XLM", "{code}: an issuer for every credit asset");
        assert_eq!(status, "test");
    }
    assert_eq!(issuer_of(&currencies, "USDC"), lajan_ledger::sandbox::issuer("USDC"));

    // Another process of the deployment, and any restart, signs with the same key.
    assert_eq!(stellar_toml(&app.url("")).await["SIGNING_KEY"].as_str(), Some(key.as_str()));
    let other = Server::start(app.store().clone(), test_config()).await;
    assert_eq!(stellar_toml(&other.base).await["SIGNING_KEY"].as_str(), Some(key.as_str()));
    other.stop().await;
});

fn issuer_of(currencies: &[(String, Option<String>, String)], code: &str) -> Option<String> {
    currencies.iter().find(|(c, _, _)| c == code).and_then(|(_, issuer, _)| issuer.clone())
}

mod live_network {
    use super::*;

    async fn case(signed: bool) {
        let (account, secret) = keypair(9);
        let tweak = |c: &mut TestConfig| c.services.signing_secret = signed.then(|| secret.clone());
        let live = Live::start(lajan_store::testing::sqlite().await, 60, tweak).await;
        let doc = stellar_toml(&live.app.url("")).await;
        assert_eq!(doc["NETWORK_PASSPHRASE"].as_str(), Some(TESTNET_PASSPHRASE), "the live network configured");
        let currencies = codes(&doc);
        let listed: Vec<&str> = currencies.iter().map(|(code, _, _)| code.as_str()).collect();
        assert_eq!(listed, ["HTG", "USDC", "XLM"], "the assets with a configured issuer, and XLM");
        assert!(currencies.iter().all(|(_, _, status)| status == "live"));
        match signed {
            true => assert_eq!(doc["SIGNING_KEY"].as_str(), Some(account.as_str()), "the configured key"),
            false => assert!(doc.get("SIGNING_KEY").is_none(), "no key is made up for live: {doc}"),
        }
        live.app.stop().await;
    }

    #[tokio::test]
    async fn with_the_configured_signing_key() {
        case(true).await;
    }

    #[tokio::test]
    async fn without_one_names_none() {
        case(false).await;
    }
}

/// Reads the file as a wallet does, with the official SDK's SEP-1 reader, and checks the key is
/// one its `Keypair` accepts.
const SDK_READS_TOML: &str = r#"
import json, sys
from stellar_sdk import Keypair
from stellar_sdk.sep.stellar_toml import fetch_stellar_toml
doc = fetch_stellar_toml(sys.stdin.read().strip(), use_http=True)
Keypair.from_public_key(doc["SIGNING_KEY"])
print(json.dumps({"passphrase": doc["NETWORK_PASSPHRASE"], "key": doc["SIGNING_KEY"],
                  "currencies": [[c["code"], c.get("issuer")] for c in doc["CURRENCIES"]]}))
"#;

api_test!(the_official_sdk_reads_it_as_a_wallet_does, |app| {
    use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
    let python = match tokio::task::spawn_blocking(stellar_sdk_python).await.unwrap() {
        Ok(python) => python,
        Err(reason) => return skip_without_sdk("stellar_toml", &reason),
    };
    let domain = app.url("").trim_start_matches("http://").trim_end_matches('/').to_owned();
    // Blocking, off the runtime that serves the SDK's request.
    let out = tokio::task::spawn_blocking(move || run_script(&python, SDK_READS_TOML, &domain)).await.unwrap();
    let read: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ours = stellar_toml(&app.url("")).await;
    assert_eq!(read["passphrase"].as_str(), ours["NETWORK_PASSPHRASE"].as_str());
    assert_eq!(read["key"].as_str(), ours["SIGNING_KEY"].as_str());
    let currencies = read["currencies"].as_array().unwrap();
    assert_eq!(currencies.len(), 6, "{read}");
    assert_eq!(currencies[2][0], "USDC");
    assert_eq!(currencies[2][1].as_str(), lajan_ledger::sandbox::issuer("USDC").as_deref());
});
