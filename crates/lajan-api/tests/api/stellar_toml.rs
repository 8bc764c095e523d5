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
