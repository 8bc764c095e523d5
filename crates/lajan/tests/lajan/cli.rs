//! The binary as an operator uses it: `orgs`, `keys`, `users`, and `serve` from an empty database
//! to a graceful stop on SIGTERM.

use crate::support::{Serve, free_port};
use std::process::{Command, Output};
use std::time::Duration;

fn lajan(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(args)
        .env("LAJAN_DATABASE_URL", format!("sqlite://{}", dir.join("cli.db").display()))
        .env_remove("LAJAN_CONFIG")
        .output()
        .expect("run lajan")
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn orgs_and_keys_print_only_what_scripts_need() {
    let dir = tempfile::tempdir().unwrap();
    // Only serve, worker and migrate create a database: a mistyped path is named, not created.
    let copy = dir.path().join("copy.db");
    for args in [
        &["keys", "create", "--env", "test"][..],
        &["orgs", "list"],
        &["users", "list"],
        &["backup", "--to", copy.to_str().unwrap()],
    ] {
        let missing = lajan(dir.path(), args);
        let said = String::from_utf8_lossy(&missing.stderr);
        assert!(!missing.status.success(), "{args:?} on a missing file: {said}");
        assert!(said.contains("there is no database at") && said.contains("cli.db"), "{args:?}: {said}");
        assert!(!dir.path().join("cli.db").exists() && !copy.exists(), "{args:?} created a file");
    }
    stdout(&lajan(dir.path(), &["migrate"]));
    let no_org = lajan(dir.path(), &["keys", "create", "--env", "test"]);
    assert!(!no_org.status.success());
    assert!(String::from_utf8_lossy(&no_org.stderr).contains("no organization"));

    let org = stdout(&lajan(dir.path(), &["orgs", "create", "--name", "Fonkoze", "--tier", "enterprise"]));
    assert!(org.starts_with("org_") && org.trim().lines().count() == 1, "{org:?}");
    let secret = stdout(&lajan(
        dir.path(),
        &["keys", "create", "--env", "live", "--scope", "clients:read", "--scope", "payouts:approve"],
    ));
    let secret = secret.trim_end();
    assert!(
        secret.starts_with("sk_live_") && secret.len() == 40 && !secret.contains(char::is_whitespace),
        "{secret:?}"
    );

    // The one organization may be renamed without naming it; the name payers read changes.
    stdout(&lajan(dir.path(), &["orgs", "rename", "--name", "Fonkoze Haïti"]));
    assert!(stdout(&lajan(dir.path(), &["orgs", "list"])).trim_end().ends_with("\tFonkoze Haïti"));
    let blank = lajan(dir.path(), &["orgs", "rename", "--name", " "]);
    assert!(!blank.status.success() && String::from_utf8_lossy(&blank.stderr).contains("--name"));

    stdout(&lajan(dir.path(), &["orgs", "create", "--name", "Second"]));
    let which = lajan(dir.path(), &["orgs", "rename", "--name", "Third"]);
    assert!(!which.status.success(), "two organizations need --org");
    stdout(&lajan(dir.path(), &["orgs", "rename", "--org", org.trim(), "--name", "Fonkoze"]));
    assert!(!lajan(dir.path(), &["orgs", "rename", "--org", "org_nope", "--name", "X"]).status.success());
    for hidden in ["Evil\u{202E}moc.knab", "Split\nline", "\u{3164}", "  "] {
        let refused = lajan(dir.path(), &["orgs", "create", "--name", hidden]);
        assert!(!refused.status.success(), "{hidden:?} was taken as a name");
        assert!(String::from_utf8_lossy(&refused.stderr).contains("--name"), "{hidden:?}");
    }
    let ambiguous = lajan(dir.path(), &["keys", "create", "--env", "test"]);
    assert!(!ambiguous.status.success(), "two organizations need --org");
    let test_key =
        stdout(&lajan(dir.path(), &["keys", "create", "--env", "test", "--org", org.trim(), "--name", "ci"]));
    assert!(test_key.starts_with("sk_test_"));
    let bad_scope =
        lajan(dir.path(), &["keys", "create", "--env", "test", "--org", org.trim(), "--scope", "clients:delete"]);
    assert!(!bad_scope.status.success());

    let list = stdout(&lajan(dir.path(), &["keys", "list"]));
    assert!(!list.contains(secret), "secrets are never listed");
    assert!(list.contains("clients:read,payouts:approve"));
    let key_id = list.lines().nth(1).unwrap().split('\t').next().unwrap().to_owned();
    assert!(key_id.starts_with("key_"));
    stdout(&lajan(dir.path(), &["keys", "revoke", &key_id]));
    let list = stdout(&lajan(dir.path(), &["keys", "list"]));
    assert!(list.lines().nth(1).unwrap().split('\t').nth(7).unwrap() != "-", "revocation recorded");
    assert!(!lajan(dir.path(), &["keys", "revoke", "key_nope"]).status.success());
    stdout(&lajan(dir.path(), &["migrate"]));
}

/// `lajan` with `stdin` written to its standard input.
fn lajan_with_stdin(dir: &std::path::Path, args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(args)
        .env("LAJAN_DATABASE_URL", format!("sqlite://{}", dir.join("cli.db").display()))
        .env_remove("LAJAN_CONFIG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run lajan");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn console_users_are_created_listed_and_disabled() {
    let dir = tempfile::tempdir().unwrap();
    stdout(&lajan(dir.path(), &["migrate"]));
    let org = stdout(&lajan(dir.path(), &["orgs", "create", "--name", "Fonkoze"]));
    let create = ["users", "create", "--email", "Amara@Example.ht", "--role", "approver", "--name", "Amara"];
    let password = stdout(&lajan(dir.path(), &create));
    let password = password.trim_end();
    assert!(password.len() == 20 && !password.contains(char::is_whitespace), "printed once: {password:?}");
    let again = lajan(dir.path(), &create);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("--email is in use already"),
        "the console's rule and words"
    );

    let typed = ["users", "create", "--email", "jn@example.ht", "--role", "viewer", "--password-stdin"];
    let quiet = lajan_with_stdin(dir.path(), &typed, "a long passphrase\n");
    assert_eq!(stdout(&quiet), "", "a password given is never printed");
    let short = lajan_with_stdin(
        dir.path(),
        &["users", "create", "--email", "s@example.ht", "--role", "maker", "--password-stdin"],
        "too short\n",
    );
    assert!(!short.status.success());
    assert!(String::from_utf8_lossy(&short.stderr).contains("--password must be at least 12 characters"));
    for (weak, says) in [("aaaaaaaaaaaaaaaa", "one character repeated"), ("password1234", "too easy to guess")] {
        let args = ["users", "create", "--email", "w@example.ht", "--role", "maker", "--password-stdin"];
        let refused = lajan_with_stdin(dir.path(), &args, &format!("{weak}\n"));
        assert!(!refused.status.success(), "{weak}");
        assert!(
            String::from_utf8_lossy(&refused.stderr).contains(says),
            "{weak}: {}",
            String::from_utf8_lossy(&refused.stderr)
        );
    }
    for (flag, value) in [("--email", "not-an-email"), ("--role", "owner")] {
        let mut args = vec!["users", "create", "--email", "x@example.ht", "--role", "maker"];
        let at = args.iter().position(|a| *a == flag).unwrap();
        args[at + 1] = value;
        assert!(!lajan(dir.path(), &args).status.success(), "{flag} {value}");
    }

    let list = stdout(&lajan(dir.path(), &["users", "list", "--org", org.trim()]));
    assert!(list.contains("amara@example.ht\tapprover") && list.contains("jn@example.ht\tviewer"), "{list}");
    assert!(!list.contains(password) && !list.contains("argon2"), "never a password or its hash: {list}");
    assert!(!list.contains("s@example.ht") && !list.contains("x@example.ht"), "nothing stored for refusals");
    assert!(stdout(&lajan(dir.path(), &["users", "disable", "--email", "AMARA@example.ht"])).is_empty());
    let list = stdout(&lajan(dir.path(), &["users", "list"]));
    let amara = list.lines().find(|l| l.contains("amara@example.ht")).unwrap();
    assert_ne!(amara.split('\t').nth(5), Some("-"), "disabled: {amara}");
    assert!(!lajan(dir.path(), &["users", "disable", "--email", "nobody@example.ht"]).status.success());
}

#[tokio::test]
async fn serve_prints_a_sandbox_key_once_and_stops_gracefully() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut first = Serve::start(dir.path(), port, &[]);
    let key = first.sandbox_key();
    // Its log goes to a pipe here, not a terminal: plain text, no colour codes.
    assert!(first.wait_for_line(|l| l.contains("INFO"), Duration::from_secs(5)).is_some(), "it logs");
    let coloured = first.wait_for_line(|l| l.contains('\u{1b}'), Duration::from_millis(200));
    assert_eq!(coloured, None, "ANSI escapes in a log that is not a terminal's");
    // No pooled connections: the second server listens on the same port as the first.
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let base = first.base.clone();
    assert_eq!(http.get(format!("{base}/healthz")).send().await.unwrap().status(), 200);
    let r = http.get(format!("{base}/v1/clients")).bearer_auth(&key).send().await.unwrap();
    assert_eq!(r.status(), 200);
    first.terminate();

    let mut second = Serve::start(dir.path(), port, &[]);
    assert_eq!(
        http.get(format!("{base}/v1/clients")).bearer_auth(&key).send().await.unwrap().status(),
        200,
        "the key persists"
    );
    let printed_again = second.wait_for_line(|l| l.contains("sk_test_"), Duration::from_secs(1)).is_some();
    second.terminate();
    assert!(!printed_again, "the key is printed only on the first start");
}

#[tokio::test]
async fn live_payouts_never_start_against_a_horizon_of_another_network() {
    use lajan_ledger::stellar::{PUBLIC_PASSPHRASE, TESTNET_PASSPHRASE};
    let public = lajan_ledger::testing::FakeStellar::start(PUBLIC_PASSPHRASE).await;
    let dir = tempfile::tempdir().unwrap();
    let seed = stellar_strkey::ed25519::PrivateKey([7; 32]).as_unredacted().to_string().as_str().to_owned();
    for command in ["serve", "worker"] {
        let output = tokio::task::spawn_blocking({
            let (dir, url, seed) = (dir.path().to_owned(), public.url().to_owned(), seed.clone());
            move || {
                Command::new(env!("CARGO_BIN_EXE_lajan"))
                    .arg(command)
                    .env("LAJAN_DATABASE_URL", format!("sqlite://{}", dir.join("live.db").display()))
                    .env("LAJAN_LISTEN", format!("127.0.0.1:{}", free_port()))
                    .env("LAJAN_METRICS_LISTEN", "off")
                    .env("LAJAN_LIVE_HORIZON_URL", url)
                    .env("LAJAN_LIVE_NETWORK_PASSPHRASE", TESTNET_PASSPHRASE)
                    .env("LAJAN_LIVE_DISTRIBUTION_SECRET", seed)
                    .env_remove("LAJAN_CONFIG")
                    .output()
                    .expect("run lajan")
            }
        })
        .await
        .unwrap();
        assert!(!output.status.success(), "{command} started against another network");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(TESTNET_PASSPHRASE) && stderr.contains(PUBLIC_PASSPHRASE), "{command}: {stderr}");
    }
}

/// A webhook secret is shown in the answers to a create and a rotation, and nowhere else: not in
/// reads, lists, deliveries or events, and not in the log, even at debug level.
#[tokio::test]
async fn webhook_secrets_stay_out_of_logs_and_reads() {
    let dir = tempfile::tempdir().unwrap();
    let mut serve = Serve::start(dir.path(), free_port(), &[("LAJAN_LOG", "debug")]);
    let key = serve.sandbox_key();
    let receiver = lajan_worker::testing::WebhookReceiver::start().await;
    receiver.respond_next(2, 500, &[], "no");
    let http = reqwest::Client::new();
    let base = serve.base.clone();
    let post =
        |path: &str, body: serde_json::Value| http.post(format!("{base}{path}")).bearer_auth(&key).json(&body).send();
    let created: serde_json::Value =
        post("/v1/webhook-endpoints", serde_json::json!({ "url": receiver.url("/h"), "events": ["*"] }))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    let rotated: serde_json::Value = post(&format!("/v1/webhook-endpoints/{id}/rotate-secret"), serde_json::json!({}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let secrets = [created["secret"].as_str().unwrap().to_owned(), rotated["secret"].as_str().unwrap().to_owned()];
    post(&format!("/v1/webhook-endpoints/{id}/test"), serde_json::json!({})).await.unwrap();
    post("/v1/clients", serde_json::json!({ "firstName": "A", "lastName": "B" })).await.unwrap();
    let delivered =
        lajan_worker::testing::wait_for(|| (receiver.received().len() >= 2).then_some(()), Duration::from_secs(10))
            .await;
    assert!(delivered.is_some(), "the running server delivered");

    let mut read = String::new();
    for path in [
        format!("/v1/webhook-endpoints/{id}"),
        "/v1/webhook-endpoints".to_owned(),
        format!("/v1/webhook-endpoints/{id}/deliveries"),
        "/v1/events".to_owned(),
    ] {
        read.push_str(&http.get(format!("{base}{path}")).bearer_auth(&key).send().await.unwrap().text().await.unwrap());
    }
    let log = serve.lines_so_far().join("\n");
    serve.terminate();
    assert!(log.contains("webhook-endpoints"), "the log saw the requests: {log}");
    for secret in &secrets {
        let key_part = secret.trim_start_matches("whsec_");
        assert!(!log.contains(key_part), "a secret in the log");
        assert!(!read.contains(key_part), "a secret in a read: {read}");
    }
}

#[tokio::test]
async fn a_backup_taken_under_writes_holds_every_write_acknowledged_before_it() {
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    // The load is far above the sandbox's default rate limit.
    let mut serve = Serve::start(dir.path(), free_port(), &[("LAJAN_RATE_LIMIT_STANDARD", "1000000")]);
    let key = serve.sandbox_key();
    let base = serve.base.clone();
    let http = reqwest::Client::new();
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let writing = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let (http, base, key) = (http.clone(), base.clone(), key.clone());
            let (acknowledged, writing) = (acknowledged.clone(), writing.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while writing.load(std::sync::atomic::Ordering::SeqCst) {
                    n += 1;
                    let body = serde_json::json!({ "firstName": format!("W{w}"), "lastName": format!("N{n}") });
                    let r = http.post(format!("{base}/v1/clients")).bearer_auth(&key).json(&body).send().await.unwrap();
                    assert_eq!(r.status(), 201);
                    let created: serde_json::Value = r.json().await.unwrap();
                    acknowledged.lock().unwrap().push(created["id"].as_str().unwrap().to_owned());
                }
            })
        })
        .collect();
    let started = std::time::Instant::now();
    while acknowledged.lock().unwrap().len() < 100 {
        assert!(writers.iter().all(|w| !w.is_finished()), "a writer stopped: {:?}", acknowledged.lock().unwrap().len());
        assert!(started.elapsed() < Duration::from_secs(60), "100 writes took over a minute");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let before: Vec<String> = acknowledged.lock().unwrap().clone();
    let copy = dir.path().join("copy.db");
    let backup = tokio::task::spawn_blocking({
        let (dir, copy) = (dir.path().to_owned(), copy.clone());
        move || {
            Command::new(env!("CARGO_BIN_EXE_lajan"))
                .args(["backup", "--to", copy.to_str().unwrap()])
                .env("LAJAN_DATABASE_URL", format!("sqlite://{}", dir.join("serve.db").display()))
                .env_remove("LAJAN_CONFIG")
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    let during = acknowledged.lock().unwrap().len();
    tokio::time::sleep(Duration::from_millis(200)).await;
    writing.store(false, std::sync::atomic::Ordering::SeqCst);
    for writer in writers {
        writer.await.unwrap();
    }
    assert!(backup.status.success(), "backup: {}", String::from_utf8_lossy(&backup.stderr));
    let after = acknowledged.lock().unwrap().len();
    assert!(during > before.len() || after > before.len(), "writes went on around the backup");

    use sqlx::Connection;
    let mut copied = sqlx::SqliteConnection::connect(&format!("sqlite://{}?mode=ro", copy.display())).await.unwrap();
    let check: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&mut copied).await.unwrap();
    assert_eq!(check, "ok");
    let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM clients").fetch_all(&mut copied).await.unwrap();
    let ids: std::collections::HashSet<String> = ids.into_iter().collect();
    let missing: Vec<&String> = before.iter().filter(|id| !ids.contains(*id)).collect();
    assert!(missing.is_empty(), "{} of {} acknowledged writes missing from the copy", missing.len(), before.len());
    copied.close().await.unwrap();

    // Restoring is copying the file back: a server over the copy serves what it holds.
    serve.terminate();
    let restored = tempfile::tempdir().unwrap();
    std::fs::copy(&copy, restored.path().join("serve.db")).unwrap();
    let again = Serve::start(restored.path(), free_port(), &[]);
    let r = http.get(format!("{}/v1/clients/{}", again.base, before[0])).bearer_auth(&key).send().await.unwrap();
    assert_eq!(r.status(), 200, "the restored database serves the backed-up client with the same key");
    again.terminate();

    std::fs::copy(&copy, dir.path().join("cli.db")).unwrap();
    let refused = lajan(dir.path(), &["backup", "--to", copy.to_str().unwrap()]);
    assert!(!refused.status.success(), "an existing file is never overwritten");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("exists already"));
}

#[test]
fn config_check_prints_the_effective_configuration_without_secrets() {
    let check = |env: &[(&str, &str)]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_lajan"));
        cmd.args(["config", "check"]).env_remove("LAJAN_CONFIG");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().expect("run lajan config check")
    };
    let secrets = [
        ("LAJAN_DATABASE_URL", "postgres://lajan:pg-hunter2@db.example.ht/lajan"),
        ("LAJAN_REDIS_URL", "redis://:redis-hunter2@127.0.0.1:6379"),
        ("LAJAN_SMTP_HOST", "smtp.example.ht"),
        ("LAJAN_SMTP_FROM", "billing@example.ht"),
        ("LAJAN_SMTP_USERNAME", "billing"),
        ("LAJAN_SMTP_PASSWORD", "smtp-hunter2"),
        ("LAJAN_RATE_LIMIT_STANDARD", "90"),
        ("LAJAN_LIVE_HORIZON_URL", "https://horizon:hz-hunter2@horizon.example.ht/?api_key=hz-hunter2"),
        ("LAJAN_LIVE_DISTRIBUTION_SECRET", "SDHUNTER2"),
        ("LAJAN_SMS_BASE_URL", "https://sms-hunter2@sms.example.ht"),
        ("LAJAN_SMS_ACCOUNT", "AC1"),
        ("LAJAN_SMS_TOKEN", "sms-hunter2"),
        ("LAJAN_SMS_FROM", "+50900000000"),
    ];
    let valid = check(&secrets);
    let printed = format!("{}{}", String::from_utf8_lossy(&valid.stdout), String::from_utf8_lossy(&valid.stderr));
    assert!(valid.status.success(), "{printed}");
    assert!(!printed.contains("hunter2"), "a secret was printed: {printed}");
    assert!(!printed.contains("HUNTER2"), "a secret was printed: {printed}");
    for shown in [
        "database = postgres://lajan:***@db.example.ht/lajan",
        "standard: 90",
        "[REDACTED]",
        "smtp.example.ht",
        "https://horizon:***@horizon.example.ht/?api_key=***",
        "https://***@sms.example.ht/",
    ] {
        assert!(printed.contains(shown), "{shown} in {printed}");
    }
    // A password may also be a parameter of the database URL.
    let in_query = check(&[("LAJAN_DATABASE_URL", "postgres://lajan@db.example.ht/lajan?password=pg-hunter2")]);
    let printed = String::from_utf8_lossy(&in_query.stdout);
    assert!(printed.contains("database = postgres://lajan@db.example.ht/lajan?password=***"), "{printed}");
    assert!(!printed.contains("hunter2"), "{printed}");

    assert!(printed.contains("metrics_listen = 127.0.0.1:9464"), "the default metrics address: {printed}");
    let off = check(&[("LAJAN_METRICS_LISTEN", "off")]);
    assert!(String::from_utf8_lossy(&off.stdout).contains("metrics_listen = off"));

    assert!(printed.contains("max_units: 256"), "the default group commit: {printed}");
    let grouped = check(&[("LAJAN_SQLITE_COMMIT_UNITS", "64"), ("LAJAN_SQLITE_COMMIT_WAIT_MS", "2")]);
    let grouped = String::from_utf8_lossy(&grouped.stdout);
    assert!(grouped.contains("max_units: 64") && grouped.contains("max_wait: 2ms"), "{grouped}");

    for (name, value) in [
        ("LAJAN_LISTEN", "nope"),
        ("LAJAN_METRICS_LISTEN", "9464"),
        ("LAJAN_SQLITE_COMMIT_UNITS", "0"),
        ("LAJAN_SQLITE_COMMIT_WAIT_MS", "5000"),
    ] {
        let invalid = check(&[(name, value)]);
        assert!(!invalid.status.success(), "an invalid configuration fails");
        let said = String::from_utf8_lossy(&invalid.stderr);
        assert!(said.contains("invalid") && said.contains(name), "{said}");
    }
}

/// `serve`'s start-up line names the database without the password given as a parameter (PostgreSQL
/// over trust authentication ignores it, so the server starts).
#[tokio::test]
async fn serve_logs_the_database_url_without_its_password() {
    let Some(db) = lajan_store::testing::postgres("serve_logs_the_database_url_without_its_password").await else {
        return;
    };
    let sep = if db.url.contains('?') { '&' } else { '?' };
    let url = format!("{}{sep}password=pg-hunter2", db.url);
    let mut serve = Serve::start_on(&url, free_port(), &[("LAJAN_METRICS_LISTEN", "off")]);
    let listening = serve.wait_for_line(|l| l.contains("lajan listening"), Duration::from_secs(30));
    let lines = serve.lines_so_far();
    serve.terminate();
    db.cleanup().await;
    let listening = listening.expect("the start-up line");
    assert!(listening.contains("password=***"), "{listening}");
    assert!(lines.iter().all(|l| !l.contains("hunter2")), "a password in the log: {lines:#?}");
}

/// `serve` answers `GET /metrics` on `LAJAN_METRICS_LISTEN`, and a second process asking for
/// the same address stops at start, naming the setting.
#[tokio::test]
async fn serve_exposes_metrics_on_their_own_address() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("metrics.db").display());
    let metrics = format!("127.0.0.1:{}", free_port());
    let serve = Serve::start_on(&url, free_port(), &[("LAJAN_METRICS_LISTEN", metrics.as_str())]);
    let scraped = reqwest::get(format!("http://{metrics}/metrics")).await.unwrap();
    assert_eq!(scraped.status(), 200);
    let text = scraped.text().await.unwrap();
    assert!(text.contains("lajan_build_info{version=") && text.contains("lajan_db_pool_connections"), "{text}");
    let on_the_api = reqwest::get(format!("{}/metrics", serve.base)).await.unwrap();
    assert_eq!(on_the_api.status(), 404, "metrics are not served on the API's address");

    let second = Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(["serve", "--listen", &format!("127.0.0.1:{}", free_port())])
        .env("LAJAN_DATABASE_URL", &url)
        .env("LAJAN_METRICS_LISTEN", &metrics)
        .env_remove("LAJAN_CONFIG")
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(String::from_utf8_lossy(&second.stderr).contains("LAJAN_METRICS_LISTEN"));
    serve.terminate();
}

/// With `LAJAN_LOG_FORMAT=json` every stderr line is a JSON object, each answered request has
/// one with its id, organization, route template, status and latency; and the API key, a
/// webhook secret, a console password and its session token, all sent or received on the
/// way, appear on no line (at `debug`, more than an operator runs).
#[tokio::test]
async fn json_logs_carry_each_request_and_no_secret() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("logs.db").display());
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let (out, err) = (dir.path().join("stdout"), dir.path().join("stderr"));
    let mut serve = Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("LAJAN_DATABASE_URL", &url)
        .env("LAJAN_LOG_FORMAT", "json")
        .env("LAJAN_LOG", "debug")
        .env("LAJAN_METRICS_LISTEN", "off")
        // The endpoint's name resolves nowhere here; allowed, the sandbox does not look it up.
        .env("LAJAN_SANDBOX_WEBHOOKS_PRIVATE", "allow")
        .env_remove("LAJAN_CONFIG")
        .stdout(Stdio::from(std::fs::File::create(&out).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err).unwrap()))
        .spawn()
        .unwrap();
    crate::support::wait_until_accepting(port, "serve");
    let started = std::time::Instant::now();
    let key = loop {
        let printed = std::fs::read_to_string(&out).unwrap();
        if let Some(key) = printed.split_whitespace().find(|w| w.starts_with("sk_test_")) {
            break key.to_owned();
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the first-run key goes to stdout: {printed}");
        std::thread::sleep(Duration::from_millis(25));
    };

    // The first run made the organization the user joins.
    // A password the user chose (a generated one would send them to choose their own first).
    let password = "Ops keeps the ledger by the river".to_owned();
    {
        use std::io::Write;
        let mut create = Command::new(env!("CARGO_BIN_EXE_lajan"))
            .args([
                "users",
                "create",
                "--email",
                "ops@example.ht",
                "--role",
                "admin",
                "--name",
                "Ops",
                "--password-stdin",
            ])
            .env("LAJAN_DATABASE_URL", &url)
            .env_remove("LAJAN_CONFIG")
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        create.stdin.take().unwrap().write_all(password.as_bytes()).unwrap();
        let created = create.wait_with_output().unwrap();
        assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    }
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let body = serde_json::json!({ "url": "https://hooks.example.ht/lajan", "events": ["*"] });
    let endpoint: serde_json::Value = http
        .post(format!("{base}/v1/webhook-endpoints"))
        .bearer_auth(&key)
        .header("x-request-id", "req-log-webhook")
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let webhook_secret = endpoint["secret"].as_str().expect("a secret").to_owned();
    let refused =
        http.get(format!("{base}/v1/clients?key={key}")).bearer_auth("sk_test_not-a-key").send().await.unwrap();
    assert_eq!(refused.status(), 401);
    // A console sign-in: the form's CSRF cookie and value, then the session cookie it sets.
    let form = http.get(format!("{base}/console/sign-in")).send().await.unwrap();
    let cookies: Vec<String> = form
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
        .collect();
    let html = form.text().await.unwrap();
    let csrf = html.split("name=\"csrf\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    let signed_in = http
        .post(format!("{base}/console/sign-in"))
        .header("cookie", cookies.join("; "))
        .header("origin", &base)
        .form(&[("email", "ops@example.ht"), ("password", password.as_str()), ("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), 303, "signed in");
    let session = signed_in
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().unwrap().strip_prefix("lajan_session="))
        .map(|v| v.split(';').next().unwrap().to_owned())
        .next()
        .expect("a session cookie");
    let dashboard = http.get(format!("{base}/console")).header("cookie", format!("lajan_session={session}")).send();
    assert_eq!(dashboard.await.unwrap().status(), 200);

    // A process that cannot start (its address is taken) says why in JSON too.
    let second = Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("LAJAN_DATABASE_URL", &url)
        .env("LAJAN_LOG_FORMAT", "json")
        .env("LAJAN_METRICS_LISTEN", "off")
        .env_remove("LAJAN_CONFIG")
        .output()
        .unwrap();
    assert!(!second.status.success());
    let said = String::from_utf8(second.stderr).unwrap();
    for line in said.lines() {
        let line: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        if line["fields"]["message"] == "stopped on an error" {
            assert!(line["fields"]["error"].as_str().unwrap().contains("binding"), "{line}");
        }
    }
    assert!(said.contains("stopped on an error"), "{said}");

    assert!(Command::new("kill").args(["-TERM", &serve.id().to_string()]).status().unwrap().success());
    assert!(serve.wait().unwrap().success());
    let logs = std::fs::read_to_string(&err).unwrap();
    let lines: Vec<serde_json::Value> = logs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not one JSON object ({e}): {line}")))
        .collect();
    let answered = lines
        .iter()
        .find(|l| l["fields"]["request_id"] == "req-log-webhook" && l["fields"]["message"] == "request answered")
        .unwrap_or_else(|| panic!("the request's line: {logs}"));
    let fields = &answered["fields"];
    assert_eq!((fields["route"].as_str(), fields["status"].as_u64()), (Some("/v1/webhook-endpoints"), Some(201)));
    assert!(fields["org"].as_str().is_some_and(|org| org.starts_with("org_")), "{answered}");
    assert!(fields["latency_ms"].as_f64().is_some(), "{answered}");
    assert_eq!(fields["client"], "127.0.0.1", "the client's address: {answered}");
    for (what, secret) in [
        ("the API key", key.as_str()),
        ("the API key's secret part", key.trim_start_matches("sk_test_")),
        ("a refused key", "sk_test_not-a-key"),
        ("the webhook secret", webhook_secret.as_str()),
        ("the webhook secret's key", webhook_secret.trim_start_matches("whsec_")),
        ("the console password", password.as_str()),
        ("the session token", session.as_str()),
    ] {
        assert!(!logs.contains(secret), "{what} is in the logs");
    }
}
