//! `lajan_ledger::horizon` against a loopback fake Horizon that answers with Horizon's documented JSON.
//!
//! A fake rather than testnet: the cases that matter for paying exactly once (504 then success, a
//! server that never answers, a transaction applied behind a timeout) cannot be provoked on demand
//! on a real network, and the tests must run offline.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_ledger::exactly_once::submit_exactly_once;
use lajan_ledger::horizon::{HorizonClient, HorizonError, Submitted};
use serde_json::{Value, json};

// Contains '+', '/' and '=' so the tests also prove the form encoding round-trips base64 intact.
const ENVELOPE: &str = "AAAAAgAAAAB+/zq8l3Hb0kWm0Ic2Yz+k3o/FvV0AAAAZAAAAAQAAAAEAAAAA==";
const HASH: &str = "3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889";
const ACCOUNT: &str = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";

/// What the fake Horizon answers and what it saw.
#[derive(Default)]
struct Fake {
    /// Answers to successive `POST /transactions`; the last one repeats forever.
    submit_script: Mutex<VecDeque<(u16, Value)>>,
    /// Every `tx` form value received, in order.
    received: Mutex<Vec<String>>,
    /// `GET /transactions/{hash}` bodies; anything else is a 404 problem.
    transactions: Mutex<HashMap<String, Value>>,
    /// `GET /accounts/{id}` bodies; anything else is a 404 problem.
    accounts: Mutex<HashMap<String, Value>>,
    /// `history_latest_ledger_closed_at` of `GET /`, in Unix seconds.
    latest_closed_at: AtomicU64,
}

impl Fake {
    fn submissions(&self, script: Vec<(u16, Value)>) -> &Self {
        *self.submit_script.lock().unwrap() = script.into();
        self
    }

    fn received(&self) -> Vec<String> {
        self.received.lock().unwrap().clone()
    }
}

fn success(ledger: i64) -> (u16, Value) {
    (
        200,
        json!({"hash": HASH, "ledger": ledger, "successful": true, "envelope_xdr": ENVELOPE, "result_xdr": "AAAAAAAAAGQAAAAAAAAAAQAAAAAAAAABAAAAAAAAAAA="}),
    )
}

fn failed(tx_code: &str, ops: &[&str]) -> (u16, Value) {
    let mut codes = json!({"transaction": tx_code});
    if !ops.is_empty() {
        codes["operations"] = json!(ops);
    }
    (
        400,
        json!({
            "type": "https://stellar.org/horizon-errors/transaction_failed",
            "title": "Transaction Failed",
            "status": 400,
            "detail": "The transaction failed when submitted to the stellar network.",
            "extras": {"envelope_xdr": ENVELOPE, "result_codes": codes, "result_xdr": "AAAAAAAAAGT/////AAAAAQAAAAAAAAAB////+wAAAAA="}
        }),
    )
}

fn timeout_504() -> (u16, Value) {
    (
        504,
        json!({
            "type": "https://stellar.org/horizon-errors/timeout",
            "title": "Timeout",
            "status": 504,
            "detail": "Your request timed out before completing. Please try your request again."
        }),
    )
}

fn not_found() -> (StatusCode, Json<Value>) {
    (
        StatusCode::NOT_FOUND,
        Json(json!({
            "type": "https://stellar.org/horizon-errors/not_found",
            "title": "Resource Missing",
            "status": 404,
            "detail": "The resource at the url requested was not found."
        })),
    )
}

fn reply((status, body): (u16, Value)) -> (StatusCode, Json<Value>) {
    (StatusCode::from_u16(status).unwrap(), Json(body))
}

async fn submit(State(fake): State<Arc<Fake>>, body: String) -> (StatusCode, Json<Value>) {
    // Decode the form body the way Horizon would: application/x-www-form-urlencoded.
    let url = reqwest::Url::parse(&format!("http://fake/?{body}")).unwrap();
    let tx = url.query_pairs().find(|(k, _)| k == "tx").map(|(_, v)| v.into_owned()).expect("a tx form field");
    fake.received.lock().unwrap().push(tx);
    let mut script = fake.submit_script.lock().unwrap();
    let next = if script.len() > 1 { script.pop_front() } else { script.front().cloned() };
    reply(next.expect("the test scripted a submission answer"))
}

async fn transaction(State(fake): State<Arc<Fake>>, Path(hash): Path<String>) -> (StatusCode, Json<Value>) {
    match fake.transactions.lock().unwrap().get(&hash) {
        Some(body) => (StatusCode::OK, Json(body.clone())),
        None => not_found(),
    }
}

async fn account(State(fake): State<Arc<Fake>>, Path(id): Path<String>) -> (StatusCode, Json<Value>) {
    match fake.accounts.lock().unwrap().get(&id) {
        Some(body) => (StatusCode::OK, Json(body.clone())),
        None => not_found(),
    }
}

async fn root(State(fake): State<Arc<Fake>>) -> (StatusCode, Json<Value>) {
    let closed = fake.latest_closed_at.load(Ordering::SeqCst);
    let text = jiff::Timestamp::from_second(i64::try_from(closed).unwrap()).unwrap().to_string();
    (StatusCode::OK, Json(serde_json::json!({ "history_latest_ledger": 100, "history_latest_ledger_closed_at": text })))
}

async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the fake Horizon on 127.0.0.1");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.expect("the fake Horizon stopped") });
    format!("http://{addr}")
}

/// Starts a fake Horizon and a client for it (with a trailing slash on the base, as people write it).
async fn fake_horizon() -> (Arc<Fake>, HorizonClient) {
    let fake = Arc::new(Fake::default());
    let router = Router::new()
        .route("/transactions", post(submit))
        .route("/transactions/{hash}", get(transaction))
        .route("/accounts/{id}", get(account))
        .route("/", get(root))
        .with_state(fake.clone());
    let base = serve(router).await;
    let client = HorizonClient::new(&format!("{base}/"), Duration::from_secs(5)).unwrap();
    (fake, client)
}

fn applied(ledger: i64) -> Submitted {
    Submitted { hash: HASH.to_owned(), ledger }
}

#[tokio::test]
async fn submit_success() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![success(4242)]);
    assert_eq!(client.submit(ENVELOPE).await.unwrap(), applied(4242));
    assert_eq!(fake.received(), [ENVELOPE]);
}

#[tokio::test]
async fn submit_tx_failed_reports_the_operation_code_and_is_final() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![failed("tx_failed", &["op_no_destination"])]);
    let e = client.submit(ENVELOPE).await.unwrap_err();
    let HorizonError::Rejected { tx_code, op_codes, .. } = &e else { panic!("expected Rejected, got {e:?}") };
    assert_eq!(tx_code, "tx_failed");
    assert_eq!(op_codes, &["op_no_destination"]);
    assert_eq!(e.error_code(), "op_no_destination");
    assert!(e.is_final());
}

#[tokio::test]
async fn submit_tx_bad_seq_is_not_final() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![failed("tx_bad_seq", &[])]);
    let e = client.submit(ENVELOPE).await.unwrap_err();
    assert!(matches!(&e, HorizonError::Rejected { op_codes, .. } if op_codes.is_empty()), "{e:?}");
    assert_eq!(e.error_code(), "tx_bad_seq");
    assert!(!e.is_final());
}

#[tokio::test]
async fn submit_504_is_unknown_and_the_identical_resubmission_succeeds() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![timeout_504(), success(77)]);
    let first = client.submit(ENVELOPE).await.unwrap_err();
    assert!(matches!(first, HorizonError::Unknown(_)), "{first:?}");
    assert!(!first.is_final());
    assert_eq!(client.submit(ENVELOPE).await.unwrap(), applied(77));
    assert_eq!(fake.received(), [ENVELOPE, ENVELOPE]);
}

#[tokio::test]
async fn transaction_ledger_found_and_missing() {
    let (fake, client) = fake_horizon().await;
    fake.transactions.lock().unwrap().insert(HASH.to_owned(), success(31337).1);
    assert_eq!(client.transaction_ledger(HASH).await.unwrap(), Some(31337));
    assert_eq!(client.transaction_ledger(&"0".repeat(64)).await.unwrap(), None);
}

#[tokio::test]
async fn transaction_ledger_of_a_failed_transaction_is_a_final_rejection() {
    let (fake, client) = fake_horizon().await;
    fake.transactions.lock().unwrap().insert(HASH.to_owned(), json!({"hash": HASH, "ledger": 9, "successful": false}));
    let e = client.transaction_ledger(HASH).await.unwrap_err();
    assert_eq!(e.error_code(), "tx_failed");
    assert!(e.is_final());
}

#[tokio::test]
async fn a_404_that_is_not_horizon_is_not_read_as_not_applied() {
    // E.g. a wrong base URL path: "not applied" would be a dangerous conclusion.
    let router = Router::new().fallback(|| async { (StatusCode::NOT_FOUND, "404 page not found") });
    let client = HorizonClient::new(&serve(router).await, Duration::from_secs(5)).unwrap();
    let e = client.transaction_ledger(HASH).await.unwrap_err();
    assert!(matches!(e, HorizonError::Other(_)), "{e:?}");
}

#[tokio::test]
async fn account_sequence_parses_the_decimal_string() {
    let (fake, client) = fake_horizon().await;
    fake.accounts
        .lock()
        .unwrap()
        .insert(ACCOUNT.to_owned(), json!({"id": ACCOUNT, "account_id": ACCOUNT, "sequence": "3697156681515009"}));
    assert_eq!(client.account_sequence(ACCOUNT).await.unwrap(), 3_697_156_681_515_009);

    let e = client.account_sequence("GUNKNOWN").await.unwrap_err();
    assert!(matches!(e, HorizonError::Other(ref m) if m.contains("does not exist")), "{e:?}");

    fake.accounts.lock().unwrap().insert("GBAD".to_owned(), json!({"sequence": "12x"}));
    assert!(matches!(client.account_sequence("GBAD").await, Err(HorizonError::Other(_))));
}

#[tokio::test]
async fn a_server_that_never_answers_is_unknown() {
    let router = Router::new().fallback(std::future::pending::<()>);
    let client = HorizonClient::new(&serve(router).await, Duration::from_millis(300)).unwrap();
    let e = client.submit(ENVELOPE).await.unwrap_err();
    assert!(matches!(e, HorizonError::Unknown(ref m) if m.contains("timed out")), "{e:?}");
}

#[tokio::test]
async fn a_refused_connection_is_unknown() {
    // Bind then drop, so the port is (almost certainly) closed.
    let addr = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let client = HorizonClient::new(&format!("http://{addr}"), Duration::from_secs(5)).unwrap();
    assert!(matches!(client.submit(ENVELOPE).await, Err(HorizonError::Unknown(_))));
}

#[tokio::test]
async fn exactly_once_resubmits_the_identical_envelope_after_a_504() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![timeout_504(), success(88)]);
    let got = submit_exactly_once(&client, ENVELOPE, HASH, 1_000, false, || 500).await.unwrap();
    assert_eq!(got, applied(88));
    assert_eq!(fake.received(), [ENVELOPE, ENVELOPE]);
}

/// A clock that advances 10 s each time it is read, so max_time passes after a few submissions
/// without the test waiting for it.
fn ticking_clock(start: u64) -> impl Fn() -> u64 {
    let t = AtomicU64::new(start);
    move || t.fetch_add(10, Ordering::SeqCst)
}

#[tokio::test]
async fn exactly_once_reconciles_by_hash_when_every_submission_times_out() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![timeout_504()]);
    // The network did apply it; Horizon just never told the submitter.
    fake.transactions.lock().unwrap().insert(HASH.to_owned(), success(99).1);
    let got = submit_exactly_once(&client, ENVELOPE, HASH, 125, false, ticking_clock(100)).await.unwrap();
    assert_eq!(got, applied(99));
    let received = fake.received();
    assert!(received.len() >= 2, "resubmitted while max_time had not passed: {received:?}");
    assert!(received.iter().all(|tx| tx == ENVELOPE), "{received:?}");
}

#[tokio::test]
async fn exactly_once_reports_too_late_when_never_applied() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![timeout_504()]);
    fake.latest_closed_at.store(130, Ordering::SeqCst);
    let e = submit_exactly_once(&client, ENVELOPE, HASH, 125, false, ticking_clock(100)).await.unwrap_err();
    assert_eq!(e.error_code(), "tx_too_late");
    assert!(e.is_final());
}

/// Horizon has not ingested a ledger past max_time yet: "not found" proves nothing, so the outcome
/// stays unknown and the caller must not build a new transaction.
#[tokio::test]
async fn exactly_once_stays_unknown_while_horizon_lags_behind_max_time() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![timeout_504()]);
    fake.latest_closed_at.store(120, Ordering::SeqCst);
    let e = submit_exactly_once(&client, ENVELOPE, HASH, 125, false, ticking_clock(100)).await.unwrap_err();
    assert!(matches!(e, lajan_ledger::horizon::HorizonError::Unknown(_)), "{e:?}");
    assert!(!e.is_final());
}

#[tokio::test]
async fn exactly_once_bad_seq_after_a_timeout_finds_the_earlier_copy() {
    // The first copy was applied behind the 504, so the resubmission hits an already used sequence.
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![timeout_504(), failed("tx_bad_seq", &[])]);
    fake.transactions.lock().unwrap().insert(HASH.to_owned(), success(55).1);
    let got = submit_exactly_once(&client, ENVELOPE, HASH, 1_000, false, || 500).await.unwrap();
    assert_eq!(got, applied(55));
}

#[tokio::test]
async fn exactly_once_returns_a_plain_bad_seq_for_the_caller_to_rebuild() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![failed("tx_bad_seq", &[])]);
    let e = submit_exactly_once(&client, ENVELOPE, HASH, 1_000, false, || 500).await.unwrap_err();
    assert_eq!(e.error_code(), "tx_bad_seq");
    assert_eq!(fake.received().len(), 1, "a refused envelope is not resubmitted");
}

#[tokio::test]
async fn exactly_once_passes_final_rejections_through() {
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![failed("tx_failed", &["op_no_destination"])]);
    let e = submit_exactly_once(&client, ENVELOPE, HASH, 1_000, false, || 500).await.unwrap_err();
    assert_eq!(e.error_code(), "op_no_destination");
    assert_eq!(fake.received().len(), 1);
}

#[tokio::test]
async fn a_bad_seq_for_an_envelope_sent_by_an_earlier_run_is_not_proof_of_nothing() {
    // After a crash the stored envelope is resubmitted; its first copy may sit in a ledger Horizon has
    // not ingested yet, so the bad sequence stays an unknown outcome until max_time settles it.
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![failed("tx_bad_seq", &[])]);
    // Horizon has not yet ingested a ledger past max_time, so even the final lookup proves nothing.
    let e = submit_exactly_once(&client, ENVELOPE, HASH, 125, true, ticking_clock(100)).await.unwrap_err();
    assert!(matches!(e, HorizonError::Unknown(_)), "{e:?}");
    assert!(fake.received().len() > 1, "resubmitted while max_time allowed");
}

#[tokio::test]
async fn a_refused_resend_after_an_unknown_outcome_is_not_proof_of_nothing() {
    // The first copy went out behind a 504 and may still land; a resend refused for its fee says
    // nothing about it. Only max_time settles it: unknown while Horizon is behind it, too late
    // once Horizon has closed a ledger past it without the hash.
    for (closed, settles) in [(120, false), (130, true)] {
        let (fake, client) = fake_horizon().await;
        fake.submissions(vec![timeout_504(), failed("tx_insufficient_fee", &[])]);
        fake.latest_closed_at.store(closed, Ordering::SeqCst);
        let e = submit_exactly_once(&client, ENVELOPE, HASH, 125, false, ticking_clock(100)).await.unwrap_err();
        if settles {
            assert_eq!(e.error_code(), "tx_too_late", "{e:?}");
        } else {
            assert!(matches!(e, HorizonError::Unknown(_)), "{e:?}");
        }
        assert_eq!(fake.received().len(), 2, "resent while max_time allowed");
    }
    // A resend included in a ledger and failed does settle the hash.
    let (fake, client) = fake_horizon().await;
    fake.submissions(vec![timeout_504(), failed("tx_failed", &["op_no_trust"])]);
    let e = submit_exactly_once(&client, ENVELOPE, HASH, 1_000, false, || 500).await.unwrap_err();
    assert_eq!(e.error_code(), "op_no_trust");
}

#[tokio::test]
async fn payments_are_read_after_the_cursor_with_their_memo() {
    let router = Router::new().route(
        "/accounts/{id}/payments",
        get(|Path(id): Path<String>, axum::extract::RawQuery(q): axum::extract::RawQuery| async move {
            assert_eq!(id, ACCOUNT);
            let q = q.unwrap_or_default();
            assert!(q.contains("order=asc") && q.contains("join=transactions") && q.contains("cursor=12"), "{q}");
            Json(json!({"_embedded": {"records": [{
                "id": "13", "paging_token": "13", "type": "payment", "transaction_hash": HASH,
                "transaction_successful": true, "from": "GA", "to": ACCOUNT, "asset_type": "credit_alphanum4",
                "asset_code": "USDC", "asset_issuer": "GI", "amount": "12.5000000",
                "transaction": {"ledger": 77, "memo_type": "text", "memo": "LJABC"}
            }, {
                "id": "14", "paging_token": "14", "type": "create_account", "transaction_hash": HASH,
                "transaction_successful": true, "account": ACCOUNT, "starting_balance": "5.0000000"
            }]}}))
        }),
    );
    let base = serve(router).await;
    let client = HorizonClient::new(&base, Duration::from_secs(5)).unwrap();
    let records = client.payments(ACCOUNT, Some("12"), 200).await.unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].amount, "12.5000000");
    assert_eq!(records[0].transaction.as_ref().unwrap().memo.as_deref(), Some("LJABC"));
    assert_eq!(records[1].kind, "create_account");
}
