//! SEP-10 challenges: what `GET /auth` answers is read, signed and verified by the official
//! Python `stellar-sdk`'s own SEP-10 helpers, as a wallet and an anchor would; every malformed
//! request is refused in the SEP's error shape.

use lajan_domain::Timestamp;
use lajan_ledger::stellar::{PUBLIC_PASSPHRASE, TESTNET_PASSPHRASE};
use lajan_ledger::testing::keypair;
use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
use lajan_testkit::TestApp;
use secrecy::ExposeSecret;
use serde_json::{Value, json};

async fn challenge(app: &TestApp, query: &str) -> (u16, Value) {
    let r = app.http.get(app.url(&format!("/auth{query}"))).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

/// Reads the challenge with the SDK (shape, server signature, time bounds, domains), signs it
/// with the client's key as a wallet does, and verifies that signature as an anchor does.
const SDK_CHECKS_CHALLENGE: &str = r#"
import json, sys
from stellar_sdk import Keypair, TransactionEnvelope
from stellar_sdk.sep.stellar_web_authentication import (
    read_challenge_transaction, verify_challenge_transaction_signed_by_client_master_key)
c = json.load(sys.stdin)
read = read_challenge_transaction(c["xdr"], c["server"], c["domain"], c["domain"], c["passphrase"])
envelope = TransactionEnvelope.from_xdr(c["xdr"], c["passphrase"])
envelope.sign(Keypair.from_secret(c["client_secret"]))
verify_challenge_transaction_signed_by_client_master_key(
    envelope.to_xdr(), c["server"], c["domain"], c["domain"], c["passphrase"])
tx = envelope.transaction
print(json.dumps({"client": read.client_account_id, "home_domain": read.matched_home_domain, "memo": read.memo,
                  "sequence": tx.sequence, "operations": len(tx.operations)}))
"#;

api_test!(a_challenge_is_what_the_official_sdk_reads_signs_and_verifies, |app| {
    let python = match tokio::task::spawn_blocking(stellar_sdk_python).await.unwrap() {
        Ok(python) => python,
        Err(reason) => return skip_without_sdk("sep10", &reason),
    };
    let toml_text = app.http.get(app.url("/.well-known/stellar.toml")).send().await.unwrap().text().await.unwrap();
    let toml: toml::Value = toml::from_str(&toml_text).unwrap();
    let server = toml["SIGNING_KEY"].as_str().unwrap().to_owned();
    // The home domain is public_url's host (the test configuration's), not the test server's.
    let domain = "pay.lajan.test".to_owned();
    let (client, client_secret) = keypair(11);

    for (query, memo) in
        [(format!("?account={client}"), Value::Null), (format!("?account={client}&memo=42"), json!(42))]
    {
        let (status, body) = challenge(app, &query).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["network_passphrase"], toml["NETWORK_PASSPHRASE"].as_str().unwrap());
        let input = json!({ "xdr": body["transaction"], "server": server, "domain": domain,
                            "passphrase": body["network_passphrase"], "client_secret": client_secret.expose_secret() });
        let python = python.clone();
        let out = tokio::task::spawn_blocking(move || run_script(&python, SDK_CHECKS_CHALLENGE, &input.to_string()))
            .await
            .unwrap();
        let read: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(read["client"], client.as_str());
        assert_eq!(read["home_domain"], domain.as_str());
        assert_eq!((&read["sequence"], &read["operations"], &read["memo"]), (&json!(0), &json!(2), &memo), "{read}");
    }
    // Each challenge is new: its nonce is random.
    let (_, first) = challenge(app, &format!("?account={client}")).await;
    let (_, second) = challenge(app, &format!("?account={client}")).await;
    assert_ne!(first["transaction"], second["transaction"]);
});

api_test!(a_malformed_request_is_refused_in_the_sep_s_shape, |app| {
    let (client, _) = keypair(11);
    let mut bad_checksum = client.clone();
    bad_checksum.replace_range(55..56, if client.ends_with('A') { "B" } else { "A" });
    for (query, words) in [
        (String::new(), "account is required"),
        ("?account=".to_owned(), "account is required"),
        (format!("?account={bad_checksum}"), "checksum"),
        (format!("?account={client}&memo=abc"), "id memo"),
        (format!("?account={client}&memo=007"), "id memo"),
        (format!("?account={client}&home_domain=evil.example"), "not served here"),
        (format!("?account={client}&client_domain=wallet.example/x"), "must be a domain"),
    ] {
        let (status, body) = challenge(app, &query).await;
        assert_eq!(status, 400, "{query}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(error.contains(words), "{query}: {body}");
        assert_eq!(body.as_object().map(|o| o.len()), Some(1), "only `error`, as SEP-10 writes it: {body}");
    }
});

/// A challenge for `account` as `GET /auth` answers it.
async fn challenge_for(app: &TestApp, account: &str) -> String {
    let (status, body) = challenge(app, &format!("?account={account}")).await;
    assert_eq!(status, 200, "{body}");
    body["transaction"].as_str().unwrap().to_owned()
}

fn signed(transaction: &str, passphrase: &str, seed: &secrecy::SecretString) -> String {
    lajan_ledger::sep10::sign_challenge(transaction, passphrase, seed).unwrap()
}

/// A SEP-10 token for the account of key `byte` (with an id `memo` when given), as a wallet gets
/// one: challenge, sign, exchange.
pub(crate) async fn wallet_token(app: &TestApp, byte: u8, memo: Option<u64>) -> (String, String) {
    let (account, seed) = keypair(byte);
    let query = match memo {
        Some(memo) => format!("?account={account}&memo={memo}"),
        None => format!("?account={account}"),
    };
    let (_, body) = challenge(app, &query).await;
    let transaction = signed(body["transaction"].as_str().unwrap(), TESTNET_PASSPHRASE, &seed);
    let (status, body) = exchange_json(app, &transaction).await;
    assert_eq!(status, 200, "{body}");
    (account, body["token"].as_str().unwrap().to_owned())
}

async fn exchange_json(app: &TestApp, transaction: &str) -> (u16, Value) {
    let r = app.http.post(app.url("/auth")).json(&json!({ "transaction": transaction })).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

/// The token's claims, read without checking its signature (a wallet cannot: only Lajan holds
/// the key); that Lajan accepts it is the SEP-24 tests' business.
fn claims(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

api_test!(a_signed_challenge_is_exchanged_once_for_a_token_naming_the_account, |app| {
    let (client, seed) = keypair(12);
    let transaction = signed(&challenge_for(app, &client).await, TESTNET_PASSPHRASE, &seed);
    let (status, body) = exchange_json(app, &transaction).await;
    assert_eq!(status, 200, "{body}");
    let c = claims(body["token"].as_str().unwrap());
    assert_eq!(c["sub"], client.as_str());
    assert_eq!(c["iss"], "https://pay.lajan.test/auth", "the WEB_AUTH_ENDPOINT that issued it");
    assert_eq!(c["home_domain"], "pay.lajan.test");
    assert_eq!(c["exp"].as_u64().unwrap() - c["iat"].as_u64().unwrap(), 3600, "short-lived: one hour");
    assert_eq!(c["jti"].as_str().map(str::len), Some(64), "the challenge's hash: {c}");

    // The same signed challenge again is a replay, whatever the encoding.
    let (status, body) = exchange_json(app, &transaction).await;
    assert_eq!(
        (status, body["error"].as_str().is_some_and(|e| e.contains("already exchanged"))),
        (400, true),
        "{body}"
    );

    // A form post (the SEP allows both) of a fresh challenge with a memo names account:memo.
    let (_, with_memo) = challenge(app, &format!("?account={client}&memo=7")).await;
    let transaction = signed(with_memo["transaction"].as_str().unwrap(), TESTNET_PASSPHRASE, &seed);
    let r = app.http.post(app.url("/auth")).form(&[("transaction", transaction.as_str())]).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(claims(body["token"].as_str().unwrap())["sub"], format!("{client}:7"));

    // A browser wallet may call it from its own origin.
    let preflight = app
        .http
        .request(reqwest::Method::OPTIONS, app.url("/auth"))
        .header("origin", "https://wallet.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");

    // The toml names where to authenticate.
    let toml_text = app.http.get(app.url("/.well-known/stellar.toml")).send().await.unwrap().text().await.unwrap();
    let toml: toml::Value = toml::from_str(&toml_text).unwrap();
    assert_eq!(toml["WEB_AUTH_ENDPOINT"].as_str(), Some("https://pay.lajan.test/auth"));
});

api_test!(a_challenge_signed_wrongly_or_expired_is_not_exchanged, |app| {
    let (client, seed) = keypair(12);
    let (_, stranger) = keypair(13);
    let fresh = challenge_for(app, &client).await;
    // Built with the service's own key but fifteen minutes and more ago: expired.
    let server_seed =
        secrecy::SecretString::from(app.db.store.sandbox_signing_seed("unused", Timestamp::now()).await.unwrap());
    let server_account = lajan_ledger::stellar::account_of_secret(&server_seed).unwrap();
    let now = u64::try_from(Timestamp::now().as_unix_seconds()).unwrap();
    let expired = lajan_ledger::sep10::build_challenge(&lajan_ledger::sep10::ChallengeRequest {
        network_passphrase: TESTNET_PASSPHRASE,
        signing_seed: &server_seed,
        server_account: &server_account,
        client_account: &client,
        memo: None,
        home_domain: "pay.lajan.test",
        web_auth_domain: "pay.lajan.test",
        now: now - 1000,
        nonce: [7; 48],
        client_domain: None,
    })
    .unwrap()
    .envelope_xdr_base64;
    for (transaction, words) in [
        (fresh.clone(), "not signed by the client"),
        (signed(&fresh, TESTNET_PASSPHRASE, &stranger), "not signed by the client"),
        (signed(&fresh, PUBLIC_PASSPHRASE, &seed), "not signed by the client"),
        (signed(&expired, TESTNET_PASSPHRASE, &seed), "expired"),
        ("AAAA".to_owned(), "not a base64 XDR"),
        (String::new(), "transaction is required"),
    ] {
        let (status, body) = exchange_json(app, &transaction).await;
        let error = body["error"].as_str().unwrap_or_default();
        assert_eq!((status, error.contains(words)), (400, true), "{words}: {body}");
        assert_eq!(body.as_object().map(|o| o.len()), Some(1), "{body}");
    }
    let r = app.http.post(app.url("/auth")).header("content-type", "application/json").body("{").send().await.unwrap();
    assert_eq!(r.status().as_u16(), 400);
    // A refusal spends nothing: the fresh challenge, signed rightly, still works once.
    let (status, body) = exchange_json(app, &signed(&fresh, TESTNET_PASSPHRASE, &seed)).await;
    assert_eq!(status, 200, "{body}");
});
