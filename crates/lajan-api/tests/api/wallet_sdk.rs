//! A wallet's whole registration, driven with the official Python `stellar-sdk` as a wallet
//! would: `stellar.toml` through its SEP-1 reader, the challenge read and checked with its SEP-10
//! helpers, signed with the receiver's key and exchanged for a token, the refusals a careless or
//! hostile wallet meets (another network, a stranger's signature, an expired challenge, a
//! replay), then the SEP-24 deposit. The receiver completes the page (as a person in the wallet's
//! web view would), and the wallet sees the deposit `completed` with the payout's transaction,
//! paid exactly once.

use lajan_ledger::testing::keypair;
use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
use lajan_testkit::TestApp;
use secrecy::ExposeSecret;
use serde_json::{Value, json};

/// The wallet's side up to the deposit's page. Lajan's public URL (`https://pay.lajan.test`) is
/// the test server's, so the script maps one to the other for its requests; the home domain it
/// checks is the public one.
const WALLET_STARTS: &str = r#"
import json, sys, time, requests
from stellar_sdk import Keypair, Network, TransactionEnvelope
from stellar_sdk.sep.stellar_toml import fetch_stellar_toml
from stellar_sdk.sep.stellar_web_authentication import (
    build_challenge_transaction, read_challenge_transaction,
    verify_challenge_transaction_signed_by_client_master_key)
c = json.load(sys.stdin)
local = lambda url: url.replace(c["public"], c["base"])
toml = fetch_stellar_toml(c["domain"], use_http=True)
auth, sep24 = local(toml["WEB_AUTH_ENDPOINT"]), local(toml["TRANSFER_SERVER_SEP0024"])
server, passphrase, home = toml["SIGNING_KEY"], toml["NETWORK_PASSPHRASE"], c["home"]
me, stranger = Keypair.from_secret(c["secret"]), Keypair.random()

def challenge():
    xdr = requests.get(auth, params={"account": me.public_key}).json()["transaction"]
    read_challenge_transaction(xdr, server, home, home, passphrase)
    return xdr

def signed(xdr, key, network=None):
    envelope = TransactionEnvelope.from_xdr(xdr, network or passphrase)
    envelope.sign(key)
    return envelope.to_xdr()

def exchange(xdr):
    r = requests.post(auth, json={"transaction": xdr})
    return r.status_code, r.json()

refused = {}
refused["network"] = exchange(signed(challenge(), me, Network.PUBLIC_NETWORK_PASSPHRASE))
refused["stranger"] = exchange(signed(challenge(), stranger))
old = build_challenge_transaction(c["server_secret"], me.public_key, home, home, passphrase, timeout=1)
time.sleep(2)
refused["expired"] = exchange(signed(old, me))
mine = signed(challenge(), me)
verify_challenge_transaction_signed_by_client_master_key(mine, server, home, home, passphrase)
status, body = exchange(mine)
assert status == 200, body
refused["replay"] = exchange(mine)
token = body["token"]
headers = {"Authorization": "Bearer " + token}
info = requests.get(sep24 + "/info").json()
assert info["deposit"]["USDC"]["enabled"], info
started = requests.post(sep24 + "/transactions/deposit/interactive", headers=headers,
                        files={"asset_code": (None, "USDC"), "lang": (None, "ht")}).json()
print(json.dumps({"token": token, "account": me.public_key, "started": started,
                  "refused": {k: [s, b.get("error", "")] for k, (s, b) in refused.items()}}))
"#;

/// The wallet following its deposit.
const WALLET_FOLLOWS: &str = r#"
import json, sys, requests
c = json.load(sys.stdin)
r = requests.get(c["base"] + "/sep24/transaction", params={"id": c["id"]},
                 headers={"Authorization": "Bearer " + c["token"]})
print(json.dumps(r.json()["transaction"]))
"#;

async fn post_step(app: &TestApp, page: &str, step: &str, form: &[(&str, &str)]) -> u16 {
    app.http.post(app.url(&format!("{page}/{step}"))).form(form).send().await.unwrap().status().as_u16()
}

api_test!(a_wallet_registers_with_the_official_sdk_and_sees_its_payout_completed_once, |app| {
    let python = match tokio::task::spawn_blocking(stellar_sdk_python).await.unwrap() {
        Ok(python) => python,
        Err(reason) => return skip_without_sdk("wallet_sdk", &reason),
    };
    let rose = json!({ "firstName": "Rose", "lastName": "Pyè", "phoneNumber": "+50937000021",
                       "verification": { "type": "pin", "value": "2468" } });
    let (client_id, _) = crate::registration::invited(app, rose).await;
    let (_, secret) = keypair(36);
    // The service's own key (made now if it was not yet), for the one challenge the test makes
    // already expired.
    let (_, candidate) = keypair(37);
    let server_secret =
        app.db.store.sandbox_signing_seed(candidate.expose_secret(), lajan_domain::Timestamp::now()).await.unwrap();
    let base = app.url("").trim_end_matches('/').to_owned();
    let input = json!({
        "domain": base.trim_start_matches("http://"), "base": base, "public": "https://pay.lajan.test",
        "home": "pay.lajan.test", "secret": secret.expose_secret(), "server_secret": server_secret,
    });
    let script = python.clone();
    let out =
        tokio::task::spawn_blocking(move || run_script(&script, WALLET_STARTS, &input.to_string())).await.unwrap();
    let wallet: Value = serde_json::from_str(&out).unwrap();
    for (case, words) in [
        ("network", "not signed by"),
        ("stranger", "not signed by the client"),
        ("expired", "expired"),
        ("replay", "already exchanged"),
    ] {
        let refused = &wallet["refused"][case];
        assert_eq!(refused[0], 400, "{case}: {refused}");
        assert!(refused[1].as_str().is_some_and(|e| e.contains(words)), "{case}: {refused}");
    }
    let started = &wallet["started"];
    assert_eq!(started["type"], "interactive_customer_info_needed", "{started}");

    // The receiver, in the wallet's web view: their number, the code sent to it, their PIN.
    let page = started["url"].as_str().unwrap().strip_prefix("https://pay.lajan.test").unwrap().to_owned();
    assert_eq!(post_step(app, &page, "contact", &[("contact", "+509 3700 0021")]).await, 200);
    let code = crate::registration::code_in(&crate::registration::last_text(app, &client_id).await);
    assert_eq!(post_step(app, &page, "confirm", &[("code", &code)]).await, 200);
    assert_eq!(post_step(app, &page, "verify", &[("answer", "2468")]).await, 200);
    app.drain_payouts().await;
    app.drain_payouts().await;

    let input = json!({ "base": base, "id": started["id"], "token": wallet["token"] });
    let out =
        tokio::task::spawn_blocking(move || run_script(&python, WALLET_FOLLOWS, &input.to_string())).await.unwrap();
    let seen: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (seen["status"].as_str(), seen["to"].as_str()),
        (Some("completed"), wallet["account"].as_str()),
        "{seen}"
    );
    let payout: Value = app
        .get(&format!("/v1/payouts/{}", seen["external_transaction_id"].as_str().unwrap()))
        .await
        .json()
        .await
        .unwrap();
    let attempts = payout["attempts"].as_array().unwrap();
    assert_eq!((payout["execStatus"].as_str(), attempts.len()), (Some("sent"), 1), "paid exactly once: {payout}");
    assert_eq!(seen["stellar_transaction_id"], attempts[0]["txHash"]);
    assert_eq!(payout["walletAccountId"], wallet["account"]);
});
