//! An organization's own domain (`homeDomain`): the `stellar.toml` a request for that host gets
//! names the organization and its SEP-1 `[DOCUMENTATION]`, with the endpoints on that domain; a
//! SEP-10 challenge asked there is for that domain (read by the official Python `stellar-sdk`
//! with it as home and web auth domain) and its token names it. A domain is one organization's.

use lajan_domain::Environment;
use lajan_domain::org::Tier;
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_ledger::testing::keypair;
use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
use lajan_testkit::{TestApp, expect_error};
use reqwest::Method;
use serde_json::{Value, json};

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

api_test!(an_organization_s_own_domain_names_it_to_wallets_and_authenticates_them_there, |app| {
    let domain = domain_of(app);
    let profile = json!({ "homeDomain": domain, "orgUrl": "https://acme.example", "orgDescription": "Microfinance",
                          "orgSupportEmail": "help@acme.example" });
    let saved: Value = app.put("/v1/settings", &profile).await.json().await.unwrap();
    assert_eq!((&saved["homeDomain"], &saved["orgLogo"]), (&json!(domain), &Value::Null), "{saved}");

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

    // A domain is one organization's, and never the deployment's own.
    let other = app.org("Other", Tier::Standard).await;
    let other_key = app.key(Some(&other.id), Environment::Test, &["*"]).await;
    let taken = app.send_json_with(&other_key, Method::PUT, "/v1/settings", &json!({ "homeDomain": domain })).await;
    let body = expect_error(taken, 400, "validation_error").await;
    assert_eq!(
        (&body["details"][0]["field"], &body["details"][0]["message"]),
        (&json!("homeDomain"), &json!("is in use already"))
    );
    let own =
        app.send_json_with(&other_key, Method::PUT, "/v1/settings", &json!({ "homeDomain": "pay.lajan.test" })).await;
    expect_error(own, 400, "validation_error").await;
    let bad = json!({ "homeDomain": "https://x.example", "orgUrl": "http://acme.example", "orgOfficialEmail": "nope" });
    let body = expect_error(app.put("/v1/settings", &bad).await, 400, "validation_error").await;
    assert_eq!(body["details"].as_array().map(Vec::len), Some(3), "{body}");

    // Cleared, its host meets the deployment again.
    let cleared: Value = app.put("/v1/settings", &json!({ "homeDomain": "" })).await.json().await.unwrap();
    assert_eq!((&cleared["homeDomain"], &cleared["orgUrl"]), (&Value::Null, &json!("https://acme.example")));
    assert!(toml_at(app, Some(&domain)).await.get("DOCUMENTATION").is_none());
});
