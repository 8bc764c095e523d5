//! SEP-10 challenges: what `GET /auth` answers is read, signed and verified by the official
//! Python `stellar-sdk`'s own SEP-10 helpers, as a wallet and an anchor would; every malformed
//! request is refused in the SEP's error shape.

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
        (format!("?account={client}&client_domain=wallet.example"), "client_domain"),
    ] {
        let (status, body) = challenge(app, &query).await;
        assert_eq!(status, 400, "{query}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(error.contains(words), "{query}: {body}");
        assert_eq!(body.as_object().map(|o| o.len()), Some(1), "only `error`, as SEP-10 writes it: {body}");
    }
});
