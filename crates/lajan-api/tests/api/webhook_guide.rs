//! The guide's verification snippets (`docs/webhooks.md`, "Verifying") against a real delivery,
//! each on the official Standard Webhooks library of its language: each must accept the
//! delivery and refuse it with its body changed. Python and Node run the guide's text as written
//! (Node's library, pinned, is installed into `target/standardwebhooks-node` on first use); the
//! Rust one is compiled here, and the guide must show it word for word. Without python3, node
//! or the registries a language is skipped with a reason, unless
//! `LAJAN_REQUIRE_STANDARD_WEBHOOKS` is set (CI), where that is a failure.

use crate::standard_webhooks::{body_of, ensure_library, headers_of, run, run_json, run_python, skip};
use axum::http;
use lajan_domain::Timestamp;
use lajan_worker::testing::WebhookReceiver;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

const GUIDE: &str = include_str!("../../../../docs/webhooks.md");
const THIS_FILE: &str = include_str!("webhook_guide.rs");
const NODE_LIBRARY_VERSION: &str = "1.1.1";

// The guide's snippet as an integrator's crate would export it.
#[allow(unreachable_pub)]
// guide: rust
/// The event a delivery carries, or `None` when it is not genuine (answer 400).
pub fn verified_event(secret: &str, body: &[u8], headers: &http::HeaderMap) -> Option<serde_json::Value> {
    standardwebhooks::Webhook::new(secret).ok()?.verify(body, headers).ok()?;
    serde_json::from_slice(body).ok()
}
// guide: end

/// The code block after `<!-- verify: {language} -->` in the guide.
fn snippet(language: &str) -> &'static str {
    let marker = format!("<!-- verify: {language} -->");
    let at = GUIDE.find(&marker).unwrap_or_else(|| panic!("the guide has no {marker}"));
    let fence = &GUIDE[at + marker.len()..];
    let code = &fence[fence.find("```").expect("a code block")..];
    let code = &code[code.find('\n').expect("a fence line") + 1..];
    &code[..code.find("```").expect("the block's end")]
}

/// Reads what the Python harness prints for `{secret, body, tampered, headers}`.
const PYTHON_HARNESS: &str = r#"
import json, sys
case = json.load(sys.stdin)
json.dump({
    "genuine": verified_event(case["secret"], case["body"].encode(), case["headers"]),
    "tampered": verified_event(case["secret"], case["tampered"].encode(), case["headers"]),
}, sys.stdout)
"#;

const NODE_HARNESS: &str = r#"
import { readFileSync } from "node:fs";
import { verifiedEvent } from "./snippet.mjs";
const c = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify({
  genuine: verifiedEvent(c.secret, c.body, c.headers),
  tampered: verifiedEvent(c.secret, c.tampered, c.headers),
}));
"#;

/// The directory holding Node's pinned library, installed on first use.
fn ensure_node_library() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crate sits two levels below the root");
    let dir = root.join("target").join("standardwebhooks-node");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Run once per backend, perhaps in two processes at once: one installs, the other waits.
    let lock = std::fs::File::create(dir.with_extension("lock")).map_err(|e| e.to_string())?;
    lock.lock().map_err(|e| format!("cannot lock {}: {e}", dir.display()))?;
    let manifest = dir.join("node_modules/standardwebhooks/package.json");
    let installed = || {
        let text = std::fs::read_to_string(&manifest).ok()?;
        serde_json::from_str::<Value>(&text).ok()?["version"].as_str().map(str::to_owned)
    };
    if installed().as_deref() == Some(NODE_LIBRARY_VERSION) {
        return Ok(dir);
    }
    run(Command::new("node").arg("--version"))?;
    run(Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
        .arg(&dir)
        .arg(format!("standardwebhooks@{NODE_LIBRARY_VERSION}")))?;
    match installed() {
        Some(v) if v == NODE_LIBRARY_VERSION => Ok(dir),
        other => Err(format!("after npm install, standardwebhooks is {other:?}, expected {NODE_LIBRARY_VERSION}")),
    }
}

/// Runs the guide's Node snippet through the harness on `case`, in a directory of its own
/// beside the library (so its import resolves and parallel runs do not share files).
fn run_node(library: &Path, case: &Value) -> Value {
    let dir = library.join(format!("run-{}-{}", std::process::id(), lajan_domain::id::IdKind::Event.generate()));
    std::fs::create_dir_all(&dir).expect("a run directory");
    std::fs::write(dir.join("snippet.mjs"), snippet("node")).expect("write the snippet");
    std::fs::write(dir.join("harness.mjs"), NODE_HARNESS).expect("write the harness");
    let said = run_json(Command::new("node").arg(dir.join("harness.mjs")), case);
    let _ = std::fs::remove_dir_all(&dir);
    said
}

api_test!(the_guides_verification_snippets_accept_a_delivery_and_refuse_a_changed_one, |app| {
    let receiver = WebhookReceiver::start().await;
    let r = app.post("/v1/webhook-endpoints", &json!({ "url": receiver.url("/h"), "events": ["client.*"] })).await;
    let secret = r.json::<Value>().await.unwrap()["secret"].as_str().unwrap().to_owned();
    let client: Value =
        app.post("/v1/clients", &json!({ "firstName": "Wideline", "lastName": "Joseph" })).await.json().await.unwrap();
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    let delivery = receiver.received().pop().expect("a delivery");
    let body = body_of(&delivery);
    let tampered = body.replace("Wideline", "Wideliné");
    let case = json!({ "secret": secret, "body": body, "tampered": tampered, "headers": headers_of(&delivery) });

    let start = concat!("// guide", ": rust\n");
    let compiled = THIS_FILE.split(start).nth(1).and_then(|rest| rest.split("// guide: end").next());
    assert_eq!(compiled, Some(snippet("rust")), "the guide shows the Rust snippet this test compiles");
    let mut headers = http::HeaderMap::new();
    for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] {
        headers.insert(name, delivery.header(name).parse().unwrap());
    }
    let genuine = verified_event(&secret, body.as_bytes(), &headers).expect("Rust accepts the delivery");
    assert_eq!(genuine["data"]["object"]["id"], client["id"]);
    assert_eq!(verified_event(&secret, tampered.as_bytes(), &headers), None, "Rust refuses a changed body");

    let python = tokio::task::spawn_blocking(ensure_library).await.unwrap();
    match python {
        Ok(python) => {
            let said = run_python(&python, &format!("{}\n{PYTHON_HARNESS}", snippet("python")), &case);
            assert_eq!(said["genuine"]["data"]["object"]["id"], client["id"], "Python accepts it: {said}");
            assert_eq!(said["tampered"], Value::Null, "Python refuses a changed body: {said}");
        }
        Err(reason) => skip(&reason),
    }
    match tokio::task::spawn_blocking(ensure_node_library).await.unwrap() {
        Ok(library) => {
            let said = tokio::task::spawn_blocking(move || run_node(&library, &case)).await.unwrap();
            assert_eq!(said["genuine"]["data"]["object"]["id"], client["id"], "Node accepts it: {said}");
            assert_eq!(said["tampered"], Value::Null, "Node refuses a changed body: {said}");
        }
        Err(reason) => skip(&reason),
    }
});
