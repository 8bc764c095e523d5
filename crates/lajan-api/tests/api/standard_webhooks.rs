//! A real delivery checked by code we did not write: the official Standard Webhooks library
//! (`standardwebhooks` from PyPI, pinned) verifies its signature, and rejects the same delivery
//! with a tampered body or once its timestamp is stale. The library is installed into
//! `target/standardwebhooks-venv` on first use. Without python3 or PyPI the test is skipped with
//! a reason, unless `LAJAN_REQUIRE_STANDARD_WEBHOOKS` is set (CI), where that is a failure.

use lajan_domain::Timestamp;
use lajan_worker::testing::{ReceivedWebhook, WebhookReceiver};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const LIBRARY_VERSION: &str = "1.1.0";

/// Verifies one delivery three ways; prints what the library said of each.
const VERIFY_SCRIPT: &str = r#"
import json, sys
from datetime import datetime, timedelta
import standardwebhooks.webhooks as sw

case = json.load(sys.stdin)
hook = sw.Webhook(case["secret"])

def verdict(body, headers):
    try:
        return {"ok": hook.verify(body, headers)}
    except sw.WebhookVerificationError as e:
        return {"error": str(e)}

genuine = verdict(case["body"], case["headers"])
tampered = verdict(case["body"].replace("client.created", "client.deleted"), case["headers"])

class TenMinutesLater(datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime.now(tz) + timedelta(minutes=10)

sw.datetime = TenMinutesLater
stale = verdict(case["body"], case["headers"])
json.dump({"genuine": genuine, "tampered": tampered, "stale": stale}, sys.stdout)
"#;

pub(crate) fn skip(reason: &str) {
    skip_unless_required("LAJAN_REQUIRE_STANDARD_WEBHOOKS", "the standardwebhooks library", reason);
}

/// Skips a check whose Python library (`library`) could not be had, saying why; a failure when
/// CI's `required` variable is set.
pub(crate) fn skip_unless_required(required: &str, library: &str, reason: &str) {
    if std::env::var_os(required).is_some() {
        panic!("{required} is set but {library} is unavailable: {reason}");
    }
    eprintln!("SKIPPED the check with {library}: {reason} (set {required}=1 to make this a failure)");
}

pub(crate) fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("could not run {cmd:?}: {e}"))?;
    out.status
        .success()
        .then_some(())
        .ok_or_else(|| format!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr)))
}

/// The venv's python with the pinned library importable, made on first use.
pub(crate) fn ensure_library() -> Result<PathBuf, String> {
    ensure_pypi("standardwebhooks", LIBRARY_VERSION)
}

/// A python with `package==version` from PyPI importable, in `target/<package>-venv`, made on
/// first use.
pub(crate) fn ensure_pypi(package: &str, version: &str) -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crate sits two levels below the root");
    let target = root.join("target");
    std::fs::create_dir_all(&target).map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    // Tests run once per backend, perhaps in two processes at once: one installs, the other waits.
    let lock = std::fs::File::create(target.join(format!("{package}-venv.lock"))).map_err(|e| e.to_string())?;
    lock.lock().map_err(|e| format!("cannot lock the venv: {e}"))?;
    let venv = target.join(format!("{package}-venv"));
    let python = venv.join("bin").join("python");
    let installed = |python: &Path| {
        Command::new(python)
            .args(["-c", &format!("import importlib.metadata as m; print(m.version({package:?}))")])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    if installed(&python).as_deref() == Some(version) {
        return Ok(python);
    }
    if !python.exists() {
        let _ = std::fs::remove_dir_all(&venv);
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    }
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", "--timeout", "60"])
        .arg(format!("{package}=={version}")))?;
    match installed(&python) {
        Some(v) if v == version => Ok(python),
        other => Err(format!("after pip install, {package} is {other:?}, expected {version}")),
    }
}

/// Verifies each `{secret, body, headers}` it reads; prints what the library said of each.
const VERIFY_EACH_SCRIPT: &str = r#"
import json, sys
import standardwebhooks.webhooks as sw

said = []
for case in json.load(sys.stdin):
    try:
        said.append({"ok": sw.Webhook(case["secret"]).verify(case["body"], case["headers"])})
    except sw.WebhookVerificationError as e:
        said.append({"error": str(e)})
json.dump(said, sys.stdout)
"#;

pub(crate) fn headers_of(delivery: &ReceivedWebhook) -> Value {
    ["webhook-id", "webhook-timestamp", "webhook-signature"]
        .into_iter()
        .map(|name| (name.to_owned(), Value::from(delivery.header(name))))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

pub(crate) fn body_of(delivery: &ReceivedWebhook) -> String {
    String::from_utf8(delivery.body.to_vec()).expect("a UTF-8 body")
}

/// Runs `command` with `input` on stdin and answers the JSON it prints; fails the test when it
/// fails, with what it said on stderr.
pub(crate) fn run_json(command: &mut Command, input: &Value) -> Value {
    let mut child =
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start the process");
    child.stdin.take().expect("stdin").write_all(input.to_string().as_bytes()).expect("write its input");
    let out = child.wait_with_output().expect("its output");
    assert!(out.status.success(), "{command:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{command:?} printed no JSON: {e}"))
}

/// Runs `script` with `input` on stdin and answers the JSON it prints.
pub(crate) fn run_python(python: &Path, script: &str, input: &Value) -> Value {
    run_json(Command::new(python).args(["-c", script]), input)
}

api_test!(the_official_library_verifies_a_delivery_and_rejects_tampering_and_staleness, |app| {
    let python = match tokio::task::spawn_blocking(ensure_library).await.unwrap() {
        Ok(python) => python,
        Err(reason) => return skip(&reason),
    };
    let receiver = WebhookReceiver::start().await;
    let r = app.post("/v1/webhook-endpoints", &json!({ "url": receiver.url("/h"), "events": ["client.*"] })).await;
    let secret = r.json::<Value>().await.unwrap()["secret"].as_str().unwrap().to_owned();
    let client: Value =
        app.post("/v1/clients", &json!({ "firstName": "Roselande", "lastName": "Pierre" })).await.json().await.unwrap();
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    let delivery = receiver.received().pop().expect("a delivery");
    let case = json!({ "secret": secret, "body": body_of(&delivery), "headers": headers_of(&delivery) });
    let said = run_python(&python, VERIFY_SCRIPT, &case);
    assert_eq!(said["genuine"]["ok"]["data"]["object"]["id"], client["id"], "{said}");
    assert_eq!(said["tampered"]["error"], "No matching signature found", "{said}");
    assert_eq!(said["stale"]["error"], "Message timestamp too old", "{said}");
});

api_test!(after_a_rotation_both_secrets_verify_for_a_day_then_only_the_new_one, |app| {
    let python = match tokio::task::spawn_blocking(ensure_library).await.unwrap() {
        Ok(python) => python,
        Err(reason) => return skip(&reason),
    };
    let receiver = WebhookReceiver::start().await;
    let r = app.post("/v1/webhook-endpoints", &json!({ "url": receiver.url("/h"), "events": ["client.*"] })).await;
    let created: Value = r.json().await.unwrap();
    let (id, old) = (created["id"].as_str().unwrap(), created["secret"].as_str().unwrap());
    let r = app.post(&format!("/v1/webhook-endpoints/{id}/rotate-secret"), &json!({})).await;
    assert_eq!(r.status(), 200);
    let rotated: Value = r.json().await.unwrap();
    let new = rotated["secret"].as_str().unwrap();
    assert!(new.starts_with("whsec_") && new != old, "{rotated}");
    let got: Value = app.get(&format!("/v1/webhook-endpoints/{id}")).await.json().await.unwrap();
    assert!(got.get("secret").is_none(), "{got}");

    app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await;
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
    let within = receiver.received().pop().expect("a delivery inside the window");
    assert_eq!(within.header("webhook-signature").split(' ').count(), 2, "two signatures for a day");
    app.post("/v1/clients", &json!({ "firstName": "C", "lastName": "D" })).await;
    let a_day_later = Timestamp::now().plus_millis(lajan_services::webhooks::ROTATION_OVERLAP_MS + 60_000);
    app.workers().deliver_webhooks_once(a_day_later).await.unwrap();
    let after = receiver.received().pop().expect("a delivery after the window");
    assert_eq!(after.header("webhook-signature").split(' ').count(), 1, "only the new one after");

    let cases: Vec<Value> = [(&within, old), (&within, new), (&after, old), (&after, new)]
        .into_iter()
        .map(|(d, secret)| json!({ "secret": secret, "body": body_of(d), "headers": headers_of(d) }))
        .collect();
    let said = run_python(&python, VERIFY_EACH_SCRIPT, &Value::from(cases));
    assert!(said[0]["ok"].is_object() && said[1]["ok"].is_object(), "both verify inside the window: {said}");
    assert_eq!(said[2]["error"], "No matching signature found", "{said}");
    assert!(said[3]["ok"].is_object(), "{said}");

    let r = app.post("/v1/webhook-endpoints/we_nope/rotate-secret", &json!({})).await;
    assert_eq!(r.status(), 404);
});
