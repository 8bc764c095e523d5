//! SEP-10 both ways with the official Python `stellar-sdk`: a challenge the SDK builds (as
//! another anchor would) and signs as a wallet is one Lajan's check accepts, and one it signs
//! with a key that is not the client's is refused. (The other way, Lajan's challenge read and
//! verified by the SDK, runs through the router in `lajan-api`'s `sep10` tests.)

use lajan_ledger::sep10::{Expected, verify_challenge};
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_ledger::testing::keypair;
use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
use secrecy::ExposeSecret;
use serde_json::{Value, json};

const SDK_BUILDS_AND_SIGNS: &str = r#"
import json, sys
from stellar_sdk import Keypair, TransactionEnvelope
from stellar_sdk.sep.stellar_web_authentication import build_challenge_transaction
c = json.load(sys.stdin)
xdr = build_challenge_transaction(c["server_secret"], c["client"], c["domain"], c["domain"], c["passphrase"], 900)
out = {}
for name, secret in [("by_client", c["client_secret"]), ("by_stranger", c["stranger_secret"])]:
    envelope = TransactionEnvelope.from_xdr(xdr, c["passphrase"])
    envelope.sign(Keypair.from_secret(secret))
    out[name] = envelope.to_xdr()
print(json.dumps(out))
"#;

#[test]
fn a_challenge_the_sdk_builds_and_a_wallet_signs_is_accepted() {
    let python = match stellar_sdk_python() {
        Ok(p) => p,
        Err(reason) => return skip_without_sdk("sep10_sdk", &reason),
    };
    let (server, server_secret) = keypair(31);
    let (client, client_secret) = keypair(32);
    let (_, stranger_secret) = keypair(33);
    let input = json!({
        "server_secret": server_secret.expose_secret(), "client": client, "client_secret": client_secret.expose_secret(),
        "stranger_secret": stranger_secret.expose_secret(), "domain": "pay.lajan.test", "passphrase": TESTNET_PASSPHRASE,
    });
    let out: Value = serde_json::from_str(&run_script(&python, SDK_BUILDS_AND_SIGNS, &input.to_string())).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let expected = Expected {
        network_passphrase: TESTNET_PASSPHRASE,
        server_account: &server,
        home_domain: "pay.lajan.test",
        web_auth_domain: "pay.lajan.test",
        now,
    };
    let verified = verify_challenge(out["by_client"].as_str().unwrap(), &expected).unwrap();
    assert_eq!((verified.account.as_str(), verified.memo), (client.as_str(), None));
    let refused = verify_challenge(out["by_stranger"].as_str().unwrap(), &expected).unwrap_err();
    assert!(refused.contains("client account's master key"), "{refused}");
}
