//! An organization's own domain (`homeDomain`): the `stellar.toml` a request for that host gets
//! names the organization and its SEP-1 `[DOCUMENTATION]`, with the endpoints on that domain; a
//! SEP-10 challenge asked there is for that domain (read by the official Python `stellar-sdk`
//! with it as home and web auth domain) and its token names it. A domain is served only once its
//! organization proved it holds it with a DNS TXT record, and is one organization's: the first
//! to prove it.

use lajan_domain::Environment;
use lajan_domain::org::Tier;
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_ledger::testing::keypair;
use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
use lajan_services::webhook_guard::FixedResolver;
use lajan_testkit::{TestApp, TestConfig, expect_error};
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::{Arc, LazyLock};

/// The DNS the tests' organizations publish their proofs in (each test's domains are its own).
pub(crate) static DNS: LazyLock<Arc<FixedResolver>> = LazyLock::new(Arc::default);

pub(crate) fn with_dns() -> TestConfig {
    let mut config = lajan_testkit::test_config();
    config.services.resolver = DNS.clone();
    config
}

/// Publishes the TXT record `GET /v1/settings/home-domain` asks `key`'s organization for (beside
/// what the name holds already), and verifies.
async fn prove(app: &TestApp, key: &str) -> reqwest::Response {
    let check: Value =
        app.http.get(app.url("/v1/settings/home-domain")).bearer_auth(key).send().await.unwrap().json().await.unwrap();
    DNS.add_txt(check["record"]["name"].as_str().unwrap(), check["record"]["value"].as_str().unwrap());
    app.http.post(app.url("/v1/settings/home-domain/verify")).bearer_auth(key).send().await.unwrap()
}

/// This test's organization's domain: each run (SQLite, PostgreSQL) its own.
fn domain_of(app: &TestApp) -> String {
    format!("pay.{}.example", app.org.id.to_ascii_lowercase().replace('_', "-"))
}

async fn toml_at(app: &TestApp, host: Option<&str>) -> toml::Value {
    let mut request = app.http.get(app.url("/.well-known/stellar.toml"));
    if let Some(host) = host {
        request = request.header("host", host);
    }
    let text = request.send().await.unwrap().text().await.unwrap();
    toml::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

async fn challenge_at(app: &TestApp, host: &str, query: &str) -> (u16, Value) {
    let r = app.http.get(app.url(&format!("/auth{query}"))).header("host", host).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

fn claims(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

/// The wallet's reading of a challenge with the official SDK: for `domain` as both home and web
/// auth domain, signed by the service's key.
const SDK_READS_FOR_DOMAIN: &str = r#"
import json, sys
from stellar_sdk.sep.stellar_web_authentication import read_challenge_transaction
c = json.load(sys.stdin)
read = read_challenge_transaction(c["xdr"], c["server"], c["domain"], c["domain"], c["passphrase"])
print(json.dumps({"client": read.client_account_id, "home_domain": read.matched_home_domain}))
"#;

api_test!(an_organization_s_own_domain_names_it_to_wallets_and_authenticates_them_there, with_dns(), |app| {
    let domain = domain_of(app);
    let profile = json!({ "homeDomain": domain, "orgUrl": "https://acme.example", "orgDescription": "Microfinance",
                          "orgSupportEmail": "help@acme.example" });
    let saved: Value = app.put("/v1/settings", &profile).await.json().await.unwrap();
    assert_eq!((&saved["homeDomain"], &saved["orgLogo"]), (&json!(domain), &Value::Null), "{saved}");

    // Named, not yet proved: nobody's, and not served.
    assert!(toml_at(app, Some(&domain)).await.get("DOCUMENTATION").is_none(), "served before it was proved");
    let check: Value = app.get("/v1/settings/home-domain").await.json().await.unwrap();
    assert_eq!((&check["domain"], &check["status"]), (&json!(domain), &json!("pending")), "{check}");
    assert_eq!(check["record"]["name"], json!(format!("_lajan-verification.{domain}")));
    assert!(check["record"]["value"].as_str().unwrap().starts_with("lajan-verification="), "{check}");
    let again: Value = app.get("/v1/settings/home-domain").await.json().await.unwrap();
    assert_eq!(again["record"], check["record"], "one token per domain");
    let unproved = app.post("/v1/settings/home-domain/verify", &json!({})).await;
    expect_error(unproved, 400, "domain_not_verified").await;
    let proved = prove(app, &app.key).await;
    assert_eq!(proved.status(), 200);
    let proved: Value = proved.json().await.unwrap();
    assert_eq!(proved["status"], "verified", "{proved}");
    assert!(proved["verifiedAt"].is_string());

    // Its host gets the organization; any other, the deployment.
    let theirs = toml_at(app, Some(&domain)).await;
    let docs = &theirs["DOCUMENTATION"];
    assert_eq!(docs["ORG_NAME"].as_str(), Some(app.org.name.as_str()), "{theirs}");
    assert_eq!(
        (docs["ORG_URL"].as_str(), docs["ORG_SUPPORT_EMAIL"].as_str()),
        (Some("https://acme.example"), Some("help@acme.example"))
    );
    assert!(docs.get("ORG_LOGO").is_none());
    assert_eq!(theirs["WEB_AUTH_ENDPOINT"].as_str(), Some(format!("https://{domain}/auth").as_str()));
    assert_eq!(theirs["TRANSFER_SERVER_SEP0024"].as_str(), Some(format!("https://{domain}/sep24").as_str()));
    let ours = toml_at(app, None).await;
    assert!(ours.get("DOCUMENTATION").is_none(), "{ours}");
    assert_eq!(ours["WEB_AUTH_ENDPOINT"].as_str(), Some("https://pay.lajan.test/auth"));
    assert_eq!(theirs["SIGNING_KEY"], ours["SIGNING_KEY"], "one signing key for the deployment");
    assert!(toml_at(app, Some("elsewhere.example")).await.get("DOCUMENTATION").is_none());

    // A challenge asked at its domain is for its domain, and so is the token.
    let (client, seed) = keypair(31);
    let (status, body) = challenge_at(app, &domain, &format!("?account={client}")).await;
    assert_eq!(status, 200, "{body}");
    let xdr = body["transaction"].as_str().unwrap().to_owned();
    assert_eq!(lajan_ledger::sep10::challenge_home_domain(&xdr).as_deref(), Some(domain.as_str()));
    match tokio::task::spawn_blocking(stellar_sdk_python).await.unwrap() {
        Err(reason) => skip_without_sdk("home_domains: the SDK's reading", &reason),
        Ok(python) => {
            let input = json!({ "xdr": xdr, "server": ours["SIGNING_KEY"].as_str(), "domain": domain,
                            "passphrase": TESTNET_PASSPHRASE });
            let out =
                tokio::task::spawn_blocking(move || run_script(&python, SDK_READS_FOR_DOMAIN, &input.to_string()))
                    .await
                    .unwrap();
            let read: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(
                (read["client"].as_str(), read["home_domain"].as_str()),
                (Some(client.as_str()), Some(domain.as_str()))
            );
        }
    }
    let signed = lajan_ledger::sep10::sign_challenge(&xdr, TESTNET_PASSPHRASE, &seed).unwrap();
    let r = app.http.post(app.url("/auth")).json(&json!({ "transaction": signed })).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let token: Value = r.json().await.unwrap();
    assert_eq!(claims(token["token"].as_str().unwrap())["home_domain"], json!(domain));
    // Naming it from the deployment's host works too; a domain served by nobody does not.
    let (status, _) = challenge_at(app, "pay.lajan.test", &format!("?account={client}&home_domain={domain}")).await;
    assert_eq!(status, 200);
    let (status, body) = challenge_at(app, &domain, &format!("?account={client}&home_domain=evil.example")).await;
    assert_eq!(status, 400, "{body}");

    // A domain is the first prover's: another organization may name it, but cannot prove it
    // (its token is its own), nor take it even with its own record published beside.
    let other = app.org("Other", Tier::Standard).await;
    let other_key = app.key(Some(&other.id), Environment::Test, &["*"]).await;
    let claimed = app.send_json_with(&other_key, Method::PUT, "/v1/settings", &json!({ "homeDomain": domain })).await;
    assert_eq!(claimed.status(), 200, "a claim alone keeps nothing from anyone");
    let verify = app.url("/v1/settings/home-domain/verify");
    let squatted = app.http.post(&verify).bearer_auth(&other_key).send().await.unwrap();
    expect_error(squatted, 400, "domain_not_verified").await;
    expect_error(prove(app, &other_key).await, 400, "domain_in_use").await;
    let served = toml_at(app, Some(&domain)).await;
    assert_eq!(served["DOCUMENTATION"]["ORG_NAME"].as_str(), Some(app.org.name.as_str()), "still the prover's");
    // Never the deployment's own names, an address, or a name with a trailing dot.
    for own in ["pay.lajan.test", "127.0.0.1", "pay.lajan.test.", "localhost"] {
        let refused = app.send_json_with(&other_key, Method::PUT, "/v1/settings", &json!({ "homeDomain": own })).await;
        expect_error(refused, 400, "validation_error").await;
    }
    let bad = json!({ "homeDomain": "https://x.example", "orgUrl": "http://acme.example", "orgOfficialEmail": "nope" });
    let body = expect_error(app.put("/v1/settings", &bad).await, 400, "validation_error").await;
    assert_eq!(body["details"].as_array().map(Vec::len), Some(3), "{body}");

    // Cleared, its host meets the deployment again.
    let cleared: Value = app.put("/v1/settings", &json!({ "homeDomain": "" })).await.json().await.unwrap();
    assert_eq!((&cleared["homeDomain"], &cleared["orgUrl"]), (&Value::Null, &json!("https://acme.example")));
    assert!(toml_at(app, Some(&domain)).await.get("DOCUMENTATION").is_none());
    expect_error(app.get("/v1/settings/home-domain").await, 404, "not_found").await;
});
