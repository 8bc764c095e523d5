//! A loopback stand-in for a Stellar network behind Horizon, for tests of code that pays through
//! [`crate::horizon`] (the payout executor, the payment watcher).
//!
//! Unlike a scripted responder it keeps state the way the network does, so tests can check money
//! moved exactly once: accounts with sequence numbers, envelopes decoded and their signatures
//! checked, a transaction applied at most once (its sequence is then used), failed transactions
//! consuming their sequence, time bounds, and the payments each account received. Tests can make
//! the next submissions time out (504), with or without the transaction landing behind the timeout.

use crate::stellar_decode::decode_payment;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

/// A throwaway account (public key, secret seed) from fixed bytes, for a test to create.
pub fn keypair(byte: u8) -> (String, secrecy::SecretString) {
    let seed = stellar_strkey::ed25519::PrivateKey([byte; 32]).as_unredacted().to_string();
    let secret = secrecy::SecretString::from(seed.as_str().to_owned());
    (crate::stellar::account_of_secret(&secret).expect("any 32 bytes are an ed25519 seed"), secret)
}

/// A payment the fake network applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedPayment {
    pub paging_token: u64,
    pub ledger: i64,
    pub tx_hash: String,
    pub from: String,
    pub to: String,
    pub asset_code: String,
    pub asset_issuer: Option<String>,
    pub amount_stroops: i64,
    pub memo: Option<String>,
}

#[derive(Default)]
struct Network {
    /// Account id to current sequence number. Only these accounts exist.
    accounts: HashMap<String, i64>,
    /// Transactions in ledgers, by hash: (ledger, the failed operation's code for one that failed).
    transactions: HashMap<String, (i64, Option<&'static str>)>,
    payments: Vec<AppliedPayment>,
    ledger: i64,
    /// The next `n` submissions answer 504; `land` says whether they are applied anyway.
    timeouts: u32,
    land_behind_timeout: bool,
    /// The next `n` submissions wait for this to be notified before they answer 504 (applied
    /// first when the flag says so): answers that arrive after their executor's lease, or never.
    stall: Option<(Arc<tokio::sync::Notify>, bool, u32)>,
    /// While set, ledgers close on this clock (milliseconds): a submission waits in the open
    /// ledger and is applied and answered when it closes, one transaction per source account
    /// per ledger (a second waits for the next), as stellar-core's queue takes them.
    close_every_ms: Option<u64>,
    /// The open ledger's transactions.
    open: Vec<Queued>,
    /// The next `n` submissions are refused with this transaction code, applying nothing.
    refusals: Option<(u32, String)>,
    /// While set, every submission meets a fault drawn from this generator (see [`Fault`]).
    chaos: Option<SplitMix64>,
    /// The oldest ledger Horizon keeps, and when it closed (Unix seconds): history before it
    /// is gone. Ledger 1 at the start of 2020 unless a test trims it.
    elder: (i64, i64),
    /// Every submitted envelope's hash, in order (resubmissions included).
    submissions: Vec<String>,
    /// Accounts that hold no trustline for any credit asset.
    untrusting: BTreeSet<String>,
    /// What accounts hold, in stroops, by (account, asset code, issuer); only what tests fund.
    balances: BTreeMap<(String, String, Option<String>), i64>,
}

/// A transaction waiting in the open ledger: its source account, its envelope, and where to
/// answer when the ledger closes.
type Queued = (String, String, tokio::sync::oneshot::Sender<(StatusCode, Value)>);

/// The fake network and the Horizon URL it answers on.
pub struct FakeStellar {
    passphrase: String,
    url: String,
    network: Mutex<Network>,
    /// Notified when a ledger closes (with ledgers on a clock).
    closed: tokio::sync::Notify,
}

impl FakeStellar {
    /// Starts the fake Horizon on a loopback port for the network with this passphrase.
    pub async fn start(passphrase: &str) -> Arc<FakeStellar> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the fake Horizon on 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().expect("a bound address"));
        let fake = Arc::new(FakeStellar {
            passphrase: passphrase.to_owned(),
            url,
            network: Mutex::new(Network { ledger: 1000, elder: (1, 1_577_836_800), ..Network::default() }),
            closed: tokio::sync::Notify::new(),
        });
        let router = Router::new()
            .route("/", get(root))
            .route("/transactions", post(submit))
            .route("/transactions/{hash}", get(transaction))
            .route("/accounts/{id}", get(account))
            .route("/accounts/{id}/payments", get(payments))
            .route("/ledgers/{sequence}", get(ledger))
            .with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, router).await.expect("the fake Horizon stopped") });
        fake
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    fn net(&self) -> MutexGuard<'_, Network> {
        self.network.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates (funds) an account with this sequence number.
    pub fn create_account(&self, id: &str, sequence: i64) {
        self.net().accounts.insert(id.to_owned(), sequence);
    }

    /// Makes an existing account refuse credit assets (`op_no_trust`).
    pub fn without_trustlines(&self, id: &str) {
        self.net().untrusting.insert(id.to_owned());
    }

    /// Sets what an account holds of an asset (`None` issuer: XLM), in stroops.
    pub fn fund(&self, id: &str, asset_code: &str, asset_issuer: Option<&str>, stroops: i64) {
        let key = (id.to_owned(), asset_code.to_owned(), asset_issuer.map(str::to_owned));
        self.net().balances.insert(key, stroops);
    }

    pub fn sequence(&self, id: &str) -> Option<i64> {
        self.net().accounts.get(id).copied()
    }

    /// The next `n` submissions answer 504 Timeout; with `land`, each is applied first.
    pub fn time_out_next(&self, n: u32, land: bool) {
        let mut net = self.net();
        net.timeouts = n;
        net.land_behind_timeout = land;
    }

    /// The next submission is received (and applied first with `land`), then its answer, a 504,
    /// waits until the returned handle is notified.
    pub fn stall_next_submission(&self, land: bool) -> Arc<tokio::sync::Notify> {
        self.stall_submissions(1, land)
    }

    /// [`FakeStellar::stall_next_submission`] for the next `n` submissions.
    pub fn stall_submissions(&self, n: u32, land: bool) -> Arc<tokio::sync::Notify> {
        let release = Arc::new(tokio::sync::Notify::new());
        self.net().stall = Some((release.clone(), land, n));
        release
    }

    /// From now on ledgers close every `ms` (see `Network::close_every_ms`); before, every
    /// submission closes a ledger of its own at once.
    pub fn close_ledgers_every(self: &Arc<Self>, ms: u64) {
        self.net().close_every_ms = Some(ms);
        let fake = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
                let Some(fake) = fake.upgrade() else { return };
                fake.close_ledger();
            }
        });
    }

    /// Closes the open ledger: applies its transactions in one ledger and answers them.
    fn close_ledger(&self) {
        let mut net = self.net();
        let queued = std::mem::take(&mut net.open);
        if !queued.is_empty() {
            net.ledger += 1;
            let ledger = net.ledger;
            for (_, envelope, answer) in queued {
                let _ = answer.send(self.apply_in(&mut net, &envelope, Some(ledger)));
            }
        }
        drop(net);
        self.closed.notify_waiters();
    }

    /// The ledger each applied payment landed in, oldest first.
    pub fn payment_ledgers(&self) -> Vec<i64> {
        self.net().payments.iter().map(|p| p.ledger).collect()
    }

    /// The next `n` submissions are refused with transaction code `code` (e.g.
    /// `tx_insufficient_fee` under surge pricing), nothing applied.
    pub fn refuse_next(&self, n: u32, code: &str) {
        self.net().refusals = Some((n, code.to_owned()));
    }

    /// From now on each submission meets a fault drawn from `seed`: answered normally, a 504
    /// after applying it, a 504 without, refused for its fee, or queued: applied or not after up
    /// to 1.5 s, then a 504. The same seed draws the same faults in the same order.
    pub fn start_chaos(&self, seed: u64) {
        self.net().chaos = Some(SplitMix64(seed));
    }

    /// Every submission is answered normally again.
    pub fn stop_chaos(&self) {
        self.net().chaos = None;
    }

    /// Horizon drops its history before now: its oldest ledger is the current one.
    pub fn trim_history(&self) {
        let mut net = self.net();
        net.elder = (net.ledger, jiff::Timestamp::now().as_second());
    }

    /// Hashes of every submission received, resubmissions included.
    pub fn submissions(&self) -> Vec<String> {
        self.net().submissions.clone()
    }

    /// Every payment applied, oldest first.
    pub fn payments(&self) -> Vec<AppliedPayment> {
        self.net().payments.clone()
    }

    /// Someone outside pays `to` (an incoming payment for the watcher to find); returns the hash.
    pub fn pay(
        &self,
        from: &str,
        to: &str,
        asset: (&str, Option<&str>),
        amount_stroops: i64,
        memo: Option<&str>,
    ) -> String {
        let mut net = self.net();
        net.ledger += 1;
        let hash =
            lajan_domain::hex::encode(&Sha256::digest(format!("external {} {from} {to} {amount_stroops}", net.ledger)));
        let ledger = net.ledger;
        net.transactions.insert(hash.clone(), (ledger, None));
        let paging_token = next_token(&net);
        net.payments.push(AppliedPayment {
            paging_token,
            ledger,
            tx_hash: hash.clone(),
            from: from.to_owned(),
            to: to.to_owned(),
            asset_code: asset.0.to_owned(),
            asset_issuer: asset.1.map(str::to_owned),
            amount_stroops,
            memo: memo.map(str::to_owned),
        });
        hash
    }

    /// A submission whose answer is lost: applied when `land`, else only recorded.
    fn receive_unanswered(&self, net: &mut Network, envelope: &str, land: bool) {
        if land {
            self.apply(net, envelope);
        } else if let Ok(tx) = decode_payment(envelope, &self.passphrase) {
            net.submissions.push(tx.hash_hex);
        }
    }

    /// Applies an envelope the way stellar-core would, in a ledger of its own, answering
    /// Horizon's status and body.
    fn apply(&self, net: &mut Network, envelope: &str) -> (StatusCode, Value) {
        self.apply_in(net, envelope, None)
    }

    /// [`FakeStellar::apply`] in `ledger` (the closing one) when given.
    fn apply_in(&self, net: &mut Network, envelope: &str, ledger: Option<i64>) -> (StatusCode, Value) {
        let Ok(tx) = decode_payment(envelope, &self.passphrase) else {
            return problem(400, "transaction_malformed", "Transaction Malformed", None);
        };
        net.submissions.push(tx.hash_hex.clone());
        let now = jiff::Timestamp::now().as_second().max(0).unsigned_abs();
        let refuse = |code: &str, ops: &[&str]| {
            let mut codes = json!({ "transaction": code });
            if !ops.is_empty() {
                codes["operations"] = json!(ops);
            }
            problem(400, "transaction_failed", "Transaction Failed", Some(codes))
        };
        if tx.max_time != 0 && now > tx.max_time {
            return refuse("tx_too_late", &[]);
        }
        if let Some((n, code)) = net.refusals.take() {
            if n > 1 {
                net.refusals = Some((n - 1, code.clone()));
            }
            return refuse(&code, &[]);
        }
        let Some(&current) = net.accounts.get(&tx.source_account) else {
            return refuse("tx_no_source_account", &[]);
        };
        if tx.sequence != current + 1 {
            return refuse("tx_bad_seq", &[]);
        }
        // The source signs for its sequence and fee, the payer (a channel's distribution
        // account) for the payment.
        if !tx.signed_by_source || !tx.signed_by_payer {
            return refuse("tx_bad_auth", &[]);
        }
        // From here the transaction is in a ledger: its sequence is used even if it fails.
        net.accounts.insert(tx.source_account.clone(), tx.sequence);
        let ledger = ledger.unwrap_or_else(|| {
            net.ledger += 1;
            net.ledger
        });
        let op_error = if !net.accounts.contains_key(&tx.destination) {
            Some("op_no_destination")
        } else if tx.asset_code != "XLM" && net.untrusting.contains(&tx.destination) {
            Some("op_no_trust")
        } else {
            None
        };
        if let Some(op) = op_error {
            net.transactions.insert(tx.hash_hex.clone(), (ledger, Some(op)));
            return refuse("tx_failed", &[op]);
        }
        net.transactions.insert(tx.hash_hex.clone(), (ledger, None));
        let paging_token = next_token(net);
        net.payments.push(AppliedPayment {
            paging_token,
            ledger,
            tx_hash: tx.hash_hex.clone(),
            from: tx.payer,
            to: tx.destination,
            asset_code: tx.asset_code,
            asset_issuer: tx.asset_issuer,
            amount_stroops: tx.amount_stroops,
            memo: tx.memo_text,
        });
        (StatusCode::OK, json!({ "hash": tx.hash_hex, "ledger": ledger, "successful": true, "envelope_xdr": envelope }))
    }
}

/// What a submission meets while chaos is on.
enum Fault {
    None,
    /// Answered 504 at once, applied first when `land`.
    Timeout {
        land: bool,
    },
    /// Refused with `tx_insufficient_fee`, nothing applied.
    FeeRefused,
    /// Queued: applied after `ms` when `land` (unless the request is dropped first), then
    /// answered 504.
    Late {
        land: bool,
        ms: u64,
    },
}

impl Fault {
    fn draw(rng: &mut SplitMix64) -> Fault {
        let land = rng.next_u64().is_multiple_of(2);
        match rng.next_u64() % 10 {
            0 | 1 => Fault::Timeout { land },
            2 => Fault::FeeRefused,
            3 | 4 => Fault::Late { land, ms: 200 + rng.next_u64() % 1_300 },
            _ => Fault::None,
        }
    }
}

/// A small deterministic generator (SplitMix64): the same seed gives the same faults.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn next_token(net: &Network) -> u64 {
    net.payments.last().map_or(1, |p| p.paging_token + 1)
}

fn problem(status: u16, kind: &str, title: &str, result_codes: Option<Value>) -> (StatusCode, Value) {
    let mut body = json!({
        "type": format!("https://stellar.org/horizon-errors/{kind}"),
        "title": title,
        "status": status,
    });
    if let Some(codes) = result_codes {
        body["extras"] = json!({ "result_codes": codes });
    }
    (StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), body)
}

fn not_found() -> (StatusCode, Json<Value>) {
    let (status, body) = problem(404, "not_found", "Resource Missing", None);
    (status, Json(body))
}

async fn root(State(fake): State<Arc<FakeStellar>>) -> Json<Value> {
    let net = fake.net();
    // Every submission closes its ledger at once, so Horizon has always ingested "now".
    Json(json!({
        "network_passphrase": fake.passphrase,
        "history_elder_ledger": net.elder.0,
        "history_latest_ledger": net.ledger,
        "history_latest_ledger_closed_at": jiff::Timestamp::now().to_string(),
    }))
}

async fn ledger(State(fake): State<Arc<FakeStellar>>, Path(sequence): Path<i64>) -> (StatusCode, Json<Value>) {
    let net = fake.net();
    if sequence < net.elder.0 || sequence > net.ledger {
        return not_found();
    }
    // Only the oldest ledger's close time matters to the tests; later ones closed "now".
    let closed = if sequence == net.elder.0 { net.elder.1 } else { jiff::Timestamp::now().as_second() };
    let closed_at = jiff::Timestamp::from_second(closed).map(|t| t.to_string()).unwrap_or_default();
    (StatusCode::OK, Json(json!({ "sequence": sequence, "closed_at": closed_at })))
}

#[derive(Deserialize)]
struct SubmitForm {
    tx: String,
}

async fn submit(State(fake): State<Arc<FakeStellar>>, Form(form): Form<SubmitForm>) -> (StatusCode, Json<Value>) {
    let delay = {
        let mut net = fake.net();
        match net.chaos.as_mut().map(Fault::draw) {
            None | Some(Fault::None) => None,
            Some(Fault::Timeout { land }) => {
                fake.receive_unanswered(&mut net, &form.tx, land);
                Some((0, false))
            }
            Some(Fault::FeeRefused) => {
                if let Ok(tx) = decode_payment(&form.tx, &fake.passphrase) {
                    net.submissions.push(tx.hash_hex);
                }
                let codes = json!({ "transaction": "tx_insufficient_fee" });
                let (status, body) = problem(400, "transaction_failed", "Transaction Failed", Some(codes));
                return (status, Json(body));
            }
            Some(Fault::Late { land, ms }) => {
                fake.receive_unanswered(&mut net, &form.tx, false);
                Some((ms, land))
            }
        }
    };
    if let Some((ms, land)) = delay {
        // Accepted into the queue, applied (or dropped) when its ledger closes, answered 504.
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
        if land {
            fake.apply(&mut fake.net(), &form.tx);
        }
        let (status, body) = problem(504, "timeout", "Timeout", None);
        return (status, Json(body));
    }
    if fake.net().close_every_ms.is_some() {
        return queue_for_close(&fake, form.tx).await;
    }
    let stalled = {
        let mut net = fake.net();
        let stall = net.stall.take();
        if let Some((release, land, n)) = stall {
            if n > 1 {
                net.stall = Some((release.clone(), land, n - 1));
            }
            fake.receive_unanswered(&mut net, &form.tx, land);
            Some(release)
        } else if net.timeouts > 0 {
            net.timeouts -= 1;
            let land = net.land_behind_timeout;
            fake.receive_unanswered(&mut net, &form.tx, land);
            None
        } else {
            let (status, body) = fake.apply(&mut net, &form.tx);
            return (status, Json(body));
        }
    };
    if let Some(release) = stalled {
        release.notified().await;
    }
    let (status, body) = problem(504, "timeout", "Timeout", None);
    (status, Json(body))
}

/// Waits in the open ledger (or, while its source already has a transaction there, for the next
/// one) and answers when that ledger closes.
async fn queue_for_close(fake: &FakeStellar, envelope: String) -> (StatusCode, Json<Value>) {
    let source = decode_payment(&envelope, &fake.passphrase).map(|tx| tx.source_account).unwrap_or_default();
    loop {
        let closed = fake.closed.notified();
        let answer = {
            let mut net = fake.net();
            if net.open.iter().any(|(queued, ..)| *queued == source) {
                None
            } else {
                let (send, answer) = tokio::sync::oneshot::channel();
                net.open.push((source.clone(), envelope.clone(), send));
                Some(answer)
            }
        };
        match answer {
            Some(answer) => {
                let (status, body) = answer.await.unwrap_or_else(|_| problem(504, "timeout", "Timeout", None));
                return (status, Json(body));
            }
            None => closed.await,
        }
    }
}

async fn transaction(State(fake): State<Arc<FakeStellar>>, Path(hash): Path<String>) -> (StatusCode, Json<Value>) {
    let Some(&(ledger, failed)) = fake.net().transactions.get(&hash) else { return not_found() };
    // A failed one carries its result XDR, as Horizon's does: the reason, when the answer was lost.
    let result_xdr = failed.and_then(crate::stellar_decode::failed_payment_result_xdr);
    let body = json!({ "hash": hash, "ledger": ledger, "successful": failed.is_none(), "result_xdr": result_xdr });
    (StatusCode::OK, Json(body))
}

async fn account(State(fake): State<Arc<FakeStellar>>, Path(id): Path<String>) -> (StatusCode, Json<Value>) {
    let net = fake.net();
    match net.accounts.get(&id) {
        Some(seq) => {
            let balances: Vec<Value> = net
                .balances
                .iter()
                .filter(|((account, ..), _)| *account == id)
                .map(|((_, code, issuer), stroops)| {
                    let balance = format!("{}.{:07}", stroops / 10_000_000, stroops % 10_000_000);
                    match issuer {
                        None => json!({ "balance": balance, "asset_type": "native" }),
                        Some(issuer) => json!({ "balance": balance, "asset_type": "credit_alphanum4",
                                                "asset_code": code, "asset_issuer": issuer }),
                    }
                })
                .collect();
            (StatusCode::OK, Json(json!({ "id": id, "sequence": seq.to_string(), "balances": balances })))
        }
        None => not_found(),
    }
}

#[derive(Deserialize)]
struct PageQuery {
    cursor: Option<String>,
    limit: Option<usize>,
}

async fn payments(
    State(fake): State<Arc<FakeStellar>>,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
) -> Json<Value> {
    let after: u64 = q.cursor.and_then(|c| c.parse().ok()).unwrap_or(0);
    let records: Vec<Value> = fake
        .net()
        .payments
        .iter()
        .filter(|p| p.paging_token > after && (p.to == id || p.from == id))
        .take(q.limit.unwrap_or(10))
        .map(|p| {
            let whole = p.amount_stroops / 10_000_000;
            let frac = p.amount_stroops % 10_000_000;
            let mut record = json!({
                "id": p.paging_token.to_string(),
                "paging_token": p.paging_token.to_string(),
                "type": "payment",
                "transaction_hash": p.tx_hash,
                "transaction_successful": true,
                "from": p.from,
                "to": p.to,
                "amount": format!("{whole}.{frac:07}"),
                "transaction": {
                    "ledger": p.ledger,
                    "memo_type": if p.memo.is_some() { "text" } else { "none" },
                    "memo": p.memo,
                },
            });
            if p.asset_code == "XLM" {
                record["asset_type"] = json!("native");
            } else {
                record["asset_type"] =
                    json!(if p.asset_code.len() <= 4 { "credit_alphanum4" } else { "credit_alphanum12" });
                record["asset_code"] = json!(p.asset_code);
                record["asset_issuer"] = json!(p.asset_issuer);
            }
            record
        })
        .collect();
    Json(json!({ "_embedded": { "records": records } }))
}
