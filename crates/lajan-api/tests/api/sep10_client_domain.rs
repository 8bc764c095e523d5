//! SEP-10 with a `client_domain`: Lajan reads the wallet's `stellar.toml` (from a wallet server
//! the test starts), puts its `SIGNING_KEY` in the challenge, and gives a token naming the wallet
//! only when that key signed too. The official Python `stellar-sdk` reads and verifies such a
//! challenge as a wallet does, and builds one Lajan accepts. A domain that cannot vouch, or that
//! reaches into Lajan's network, is refused in the SEP's shape.

use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;
use lajan_domain::Timestamp;
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_ledger::testing::keypair;
use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
use lajan_services::webhook_guard::FixedResolver;
use lajan_testkit::{TestApp, TestConfig, test_config};
use secrecy::ExposeSecret;
use serde_json::{Value, json};
use std::sync::Arc;

/// A wallet's web server on a loopback port answering `status` and `body` for its
/// `stellar.toml`; its domain (`127.0.0.1:port`) is what a challenge names.
async fn wallet_server(status: StatusCode, body: String) -> String {
    let app = Router::new().route("/.well-known/stellar.toml", get(move || async move { (status, body) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let domain = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move { axum::serve(listener, app).await });
    domain
}

/// A wallet whose `stellar.toml` names the account of key `byte`: its domain.
async fn wallet_signing_with(byte: u8) -> String {
    let (account, _) = keypair(byte);
    wallet_server(
        StatusCode::OK,
        format!("NETWORK_PASSPHRASE = \"{TESTNET_PASSPHRASE}\"\nSIGNING_KEY = \"{account}\"\n"),
    )
    .await
}

async fn challenge(app: &TestApp, query: &str) -> (u16, Value) {
    let r = app.http.get(app.url(&format!("/auth{query}"))).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

async fn exchange(app: &TestApp, transaction: &str) -> (u16, Value) {
    let r = app.http.post(app.url("/auth")).json(&json!({ "transaction": transaction })).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

fn sign(transaction: &str, seed: &secrecy::SecretString) -> String {
    lajan_ledger::sep10::sign_challenge(transaction, TESTNET_PASSPHRASE, seed).unwrap()
}

fn claims(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

api_test!(a_wallet_domain_s_key_signs_beside_the_account_and_the_token_names_the_wallet, |app| {
    let domain = wallet_signing_with(21).await;
    let (client, client_seed) = keypair(22);
    let (_, wallet_seed) = keypair(21);
    let (status, body) = challenge(app, &format!("?account={client}&client_domain={domain}")).await;
    assert_eq!(status, 200, "{body}");
    let unsigned = body["transaction"].as_str().unwrap();

    // The account's signature alone is not enough: the wallet's server must sign as well.
    let by_client = sign(unsigned, &client_seed);
    let (status, body) = exchange(app, &by_client).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains(&format!("{domain}'s SIGNING_KEY")), "{body}");

    let (status, body) = exchange(app, &sign(&by_client, &wallet_seed)).await;
    assert_eq!(status, 200, "{body}");
    let c = claims(body["token"].as_str().unwrap());
    assert_eq!((c["sub"].as_str(), c["client_domain"].as_str()), (Some(client.as_str()), Some(domain.as_str())));

    // Without a client_domain the token names none.
    let (_, body) = challenge(app, &format!("?account={client}")).await;
    let (_, body) = exchange(app, &sign(body["transaction"].as_str().unwrap(), &client_seed)).await;
    assert!(claims(body["token"].as_str().unwrap()).get("client_domain").is_none(), "{body}");
});

api_test!(a_wallet_domain_that_cannot_vouch_for_a_key_is_refused, |app| {
    let (client, _) = keypair(22);
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().to_string()
    };
    let cases = [
        (wallet_server(StatusCode::NOT_FOUND, "no".into()).await, "HTTP 404"),
        (wallet_server(StatusCode::OK, "NETWORK_PASSPHRASE = \"x\"\n".into()).await, "names no SIGNING_KEY"),
        (wallet_server(StatusCode::OK, "SIGNING_KEY = \"GABC\"\n".into()).await, "SIGNING_KEY"),
        (wallet_server(StatusCode::OK, "<html>".into()).await, "not TOML"),
        (wallet_server(StatusCode::OK, format!("X = \"{}\"", "a".repeat(101 * 1024))).await, "100 KB"),
        (closed, "could not be read"),
        ("wallet.example/path".to_owned(), "must be a domain"),
        ("WALLET.example".to_owned(), "must be a domain"),
    ];
    for (domain, words) in cases {
        let (status, body) = challenge(app, &format!("?account={client}&client_domain={domain}")).await;
        let error = body["error"].as_str().unwrap_or_default();
        assert_eq!((status, error.contains(words)), (400, true), "{domain}: {body}");
        assert_eq!(body.as_object().map(|o| o.len()), Some(1), "{body}");
    }
});

/// As `lajan serve` runs by default: the sandbox reads public addresses only.
fn guarded() -> TestConfig {
    let mut config = test_config();
    let resolver = Arc::new(FixedResolver::default());
    resolver.set("wallet.internal.example", &["10.1.2.3"]);
    config.services.resolver = resolver;
    config.services.sandbox_webhooks_private = false;
    config
}

api_test!(a_wallet_domain_inside_lajan_s_network_is_never_read, guarded(), |app| {
    let (client, _) = keypair(22);
    let local = wallet_signing_with(21).await;
    let mut reasons = std::collections::BTreeSet::new();
    for domain in [local.as_str(), "wallet.internal.example", "localhost:8000", "unresolvable.example"] {
        let (status, body) = challenge(app, &format!("?account={client}&client_domain={domain}")).await;
        let error = body["error"].as_str().unwrap_or_default();
        assert_eq!((status, error.contains("must reach a public address")), (400, true), "{domain}: {body}");
        reasons.insert(error.replace(domain, "<domain>"));
    }
    assert_eq!(reasons.len(), 1, "one answer, whether an internal name exists or not: {reasons:?}");
});

/// A wallet's side with the official SDK: reads Lajan's challenge naming its domain (the SDK
/// checks the `client_domain` operation), signs it with the account and the wallet's key and
/// verifies it as an anchor would; and builds a challenge of its own, with Lajan's key, naming
/// the same domain, for Lajan to accept.
const SDK_SIGNS_FOR_ITS_DOMAIN: &str = r#"
import json, sys
from stellar_sdk import Keypair, TransactionEnvelope
from stellar_sdk.sep.stellar_web_authentication import (
    build_challenge_transaction, read_challenge_transaction,
    verify_challenge_transaction_signed_by_client_master_key)
c = json.load(sys.stdin)
p = c["passphrase"]
read = read_challenge_transaction(c["xdr"], c["server"], c["domain"], c["domain"], p)
named = [op for op in read.transaction.transaction.operations if op.data_name == "client_domain"]
envelope = TransactionEnvelope.from_xdr(c["xdr"], p)
envelope.sign(Keypair.from_secret(c["client_secret"]))
envelope.sign(Keypair.from_secret(c["wallet_secret"]))
verify_challenge_transaction_signed_by_client_master_key(envelope.to_xdr(), c["server"], c["domain"], c["domain"], p)
built = build_challenge_transaction(c["server_secret"], read.client_account_id, c["domain"], c["domain"], p, 900,
                                    client_domain=c["client_domain"], client_signing_key=c["wallet"])
theirs = TransactionEnvelope.from_xdr(built, p)
theirs.sign(Keypair.from_secret(c["client_secret"]))
theirs.sign(Keypair.from_secret(c["wallet_secret"]))
print(json.dumps({"client_domain": named[0].data_value.decode(), "source": named[0].source.account_id,
                  "ours": envelope.to_xdr(), "theirs": theirs.to_xdr()}))
"#;

api_test!(the_official_sdk_reads_signs_and_builds_challenges_naming_a_wallet_domain, |app| {
    let python = match tokio::task::spawn_blocking(stellar_sdk_python).await.unwrap() {
        Ok(python) => python,
        Err(reason) => return skip_without_sdk("sep10 client_domain", &reason),
    };
    let domain = wallet_signing_with(21).await;
    let (wallet, wallet_seed) = keypair(21);
    let (client, client_seed) = keypair(22);
    let (status, body) = challenge(app, &format!("?account={client}&client_domain={domain}")).await;
    assert_eq!(status, 200, "{body}");
    // The seed the first challenge made and kept (the argument is kept only when none was).
    let server_seed =
        secrecy::SecretString::from(app.db.store.sandbox_signing_seed("unused", Timestamp::now()).await.unwrap());
    let server = lajan_ledger::stellar::account_of_secret(&server_seed).unwrap();
    let input = json!({
        "xdr": body["transaction"], "server": server, "domain": "pay.lajan.test", "passphrase": TESTNET_PASSPHRASE,
        "client_secret": client_seed.expose_secret(), "wallet_secret": wallet_seed.expose_secret(),
        "server_secret": server_seed.expose_secret(), "wallet": wallet, "client_domain": domain,
    });
    let out = tokio::task::spawn_blocking(move || run_script(&python, SDK_SIGNS_FOR_ITS_DOMAIN, &input.to_string()))
        .await
        .unwrap();
    let read: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (read["client_domain"].as_str(), read["source"].as_str()),
        (Some(domain.as_str()), Some(wallet.as_str()))
    );
    for signed in [&read["ours"], &read["theirs"]] {
        let (status, body) = exchange(app, signed.as_str().unwrap()).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(claims(body["token"].as_str().unwrap())["client_domain"].as_str(), Some(domain.as_str()));
    }
});
