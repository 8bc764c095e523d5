//! Byte-for-byte parity of `lajan_ledger::stellar::build_and_sign` with the official Python `stellar-sdk`.
//!
//! The SDK is what Stellar's own tools and docs use, so matching its envelope XDR and hash exactly is
//! the strongest evidence that Horizon will accept what we sign. The SDK is installed from PyPI into
//! `target/stellar-sdk-venv` on first use and reused afterwards. Without python3 or PyPI the test is
//! skipped with a reason, unless `LAJAN_REQUIRE_STELLAR_SDK` is set (CI), where that is a failure.

use std::time::Instant;

use lajan_domain::stellar_memo::StellarMemo;
use lajan_ledger::stellar::{PUBLIC_PASSPHRASE, PaymentTx, TESTNET_PASSPHRASE, build_and_sign};
use lajan_ledger::testing::python_sdk::{run_script, skip_without_sdk, stellar_sdk_python};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{Value, json};

/// Builds the same transaction with the SDK for each case read from stdin (JSON), and prints the
/// results as JSON. Secrets come in on stdin, not argv, so they do not show up in `ps`.
const SDK_SCRIPT: &str = r#"
import json, sys
import stellar_sdk
from stellar_sdk import Account, Asset, Keypair, TransactionBuilder

results = []
for c in json.load(sys.stdin):
    signers = []
    for seed, raw_hex in zip(c["seeds"], c["raw_seeds_hex"]):
        kp = Keypair.from_secret(seed)
        # The S... StrKey was built in Rust: check it encodes the raw seed (without printing either).
        if kp.public_key != Keypair.from_raw_ed25519_seed(bytes.fromhex(raw_hex)).public_key:
            sys.exit("seed StrKey does not match the raw seed for case " + c["name"])
        signers.append(kp)
    asset = Asset.native() if c["code"] == "XLM" else Asset(c["code"], c["issuer"])
    builder = TransactionBuilder(
        source_account=Account(c["source"], c["sequence"] - 1),
        network_passphrase=c["passphrase"],
        base_fee=c["base_fee"],
    )
    builder.add_time_bounds(c["min_time"], c["max_time"])
    if c["memo_type"] == "text":
        builder.add_text_memo(c["memo"])
    elif c["memo_type"] == "id":
        builder.add_id_memo(int(c["memo"]))
    elif c["memo_type"] == "hash":
        builder.add_hash_memo(c["memo"])
    builder.append_payment_op(
        destination=c["destination"], asset=asset, amount=c["amount"], source=c["payment_source"]
    )
    envelope = builder.build()
    for kp in signers:
        envelope.sign(kp)
    results.append({"name": c["name"], "xdr": envelope.to_xdr(), "hash": envelope.hash_hex()})
json.dump({"version": stellar_sdk.__version__, "results": results}, sys.stdout)
"#;

/// A throwaway keypair from fixed bytes; these accounts hold nothing on any network.
struct TestKey {
    raw: [u8; 32],
    public: String,
    seed: SecretString,
}

fn test_key(byte: u8) -> TestKey {
    let raw = [byte; 32];
    let private = stellar_strkey::ed25519::PrivateKey(raw);
    let public = ed25519_public(&raw);
    let seed = SecretString::from(private.as_unredacted().to_string().as_str());
    TestKey { raw, public, seed }
}

/// Derives the G... key straight from the raw seed, outside the code under test.
fn ed25519_public(raw: &[u8; 32]) -> String {
    let key = ed25519_dalek::SigningKey::from_bytes(raw).verifying_key().to_bytes();
    stellar_strkey::ed25519::PublicKey(key).to_string().as_str().to_owned()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SDK takes amounts as decimal strings; cents map to exactly two decimals.
fn amount_string(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

struct Case {
    name: &'static str,
    passphrase: &'static str,
    sequence: i64,
    base_fee: u32,
    min_time: u64,
    max_time: u64,
    code: &'static str,
    amount_cents: i64,
    /// `(kind, value)` as the store keeps a memo (`text` may be empty, as the SDK allows).
    memo: Option<(&'static str, &'static str)>,
    /// A channel account is the transaction's source and signs first; the distribution account
    /// is the payment's source and signs second.
    channel: bool,
}

fn memo((kind, value): (&str, &str)) -> StellarMemo {
    match kind {
        "text" => StellarMemo::Text(value.to_owned()),
        _ => StellarMemo::from_stored(kind, value).unwrap_or_else(|e| panic!("memo {value:?}: {e}")),
    }
}

fn cases() -> Vec<Case> {
    let base = Case {
        name: "",
        passphrase: TESTNET_PASSPHRASE,
        sequence: 4_294_967_297,
        base_fee: 100,
        min_time: 1_700_000_000,
        max_time: 1_700_000_300,
        code: "XLM",
        amount_cents: 1,
        memo: None,
        channel: false,
    };
    vec![
        Case { name: "xlm 0.01 no memo", ..base },
        Case { name: "xlm empty memo", memo: Some(("text", "")), amount_cents: 100, ..base },
        Case {
            name: "usdc 125.50 memo",
            code: "USDC",
            amount_cents: 12_550,
            memo: Some(("text", "invoice 42")),
            ..base
        },
        Case { name: "1-char code, unbounded max_time", code: "A", max_time: 0, min_time: 0, amount_cents: 99, ..base },
        Case {
            name: "alphanum12 max amount, 28-byte memo",
            code: "LONGASSET123",
            amount_cents: 92_233_720_368_547,
            memo: Some(("text", "0123456789012345678901234567")),
            ..base
        },
        Case {
            name: "5-char code, utf-8 memo, mainnet, odd fee, huge seq",
            passphrase: PUBLIC_PASSPHRASE,
            code: "EURCX",
            amount_cents: 705,
            memo: Some(("text", "café ☕ paid")),
            base_fee: 12_345,
            sequence: i64::MAX,
            ..base
        },
        Case {
            name: "channel account source, two signers",
            code: "USDC",
            amount_cents: 2_500,
            memo: Some(("text", "payout pyt_1")),
            sequence: 8_589_934_593,
            channel: true,
            ..base
        },
        // An exchange's customer memos: the largest id, and a hash.
        Case {
            name: "id memo, u64 max",
            code: "USDC",
            amount_cents: 1_000,
            memo: Some(("id", "18446744073709551615")),
            ..base
        },
        Case {
            name: "hash memo",
            amount_cents: 300,
            memo: Some(("hash", "00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff0a1b")),
            ..base
        },
    ]
}

#[test]
fn matches_python_stellar_sdk() {
    let setup_started = Instant::now();
    let python = match stellar_sdk_python() {
        Ok(p) => p,
        Err(reason) => return skip_without_sdk("sdk_parity", &reason),
    };
    let setup = setup_started.elapsed();
    let compare_started = Instant::now();

    let (signer, dest, issuer, channel) = (test_key(1), test_key(2), test_key(3), test_key(4));
    let cases = cases();

    let mut rust = Vec::new();
    let mut inputs = Vec::new();
    for c in &cases {
        let issuer = (c.code != "XLM").then_some(issuer.public.as_str());
        let (source, payment_source) =
            if c.channel { (&channel, Some(signer.public.as_str())) } else { (&signer, None) };
        let signers: Vec<&TestKey> = if c.channel { vec![&channel, &signer] } else { vec![&signer] };
        let tx = PaymentTx {
            network_passphrase: c.passphrase,
            source_account: &source.public,
            payment_source,
            sequence: c.sequence,
            base_fee: c.base_fee,
            min_time: c.min_time,
            max_time: c.max_time,
            destination: &dest.public,
            asset_code: c.code,
            asset_issuer: issuer,
            amount_cents: c.amount_cents,
            memo: c.memo.map(memo),
        };
        let seeds: Vec<&SecretString> = signers.iter().map(|k| &k.seed).collect();
        rust.push(build_and_sign(&tx, &seeds).unwrap_or_else(|e| panic!("case {:?}: {e}", c.name)));
        inputs.push(json!({
            "name": c.name,
            "seeds": signers.iter().map(|k| k.seed.expose_secret()).collect::<Vec<_>>(),
            "raw_seeds_hex": signers.iter().map(|k| hex(&k.raw)).collect::<Vec<_>>(),
            "passphrase": c.passphrase,
            "source": source.public,
            "payment_source": payment_source,
            "sequence": c.sequence,
            "base_fee": c.base_fee,
            "min_time": c.min_time,
            "max_time": c.max_time,
            "destination": dest.public,
            "code": c.code,
            "issuer": issuer,
            "amount": amount_string(c.amount_cents),
            "memo_type": c.memo.map(|(kind, _)| kind),
            "memo": c.memo.map(|(_, value)| value),
        }));
    }

    let out = run_script(&python, SDK_SCRIPT, &Value::Array(inputs).to_string());
    let sdk: Value = serde_json::from_str(&out).expect("SDK script prints JSON");
    let results = sdk["results"].as_array().expect("results array");
    assert_eq!(results.len(), cases.len());

    for ((c, ours), theirs) in cases.iter().zip(&rust).zip(results) {
        assert_eq!(theirs["name"], c.name);
        assert_eq!(ours.envelope_xdr_base64, theirs["xdr"].as_str().unwrap(), "envelope XDR differs for {:?}", c.name);
        assert_eq!(ours.hash_hex, theirs["hash"].as_str().unwrap(), "hash differs for {:?}", c.name);
        eprintln!("sdk_parity: {:<55} identical, hash {}", c.name, ours.hash_hex);
    }
    eprintln!(
        "sdk_parity: {} cases identical to stellar-sdk {} (setup {:.1?}, comparison {:.1?})",
        cases.len(),
        sdk["version"].as_str().unwrap_or("?"),
        setup,
        compare_started.elapsed()
    );
}
