//! The fake network's Horizon routes: the resources the executor, the payment watcher and the
//! lost-answer lookups read, and the submission endpoint with its queue and injected faults.

use super::state::{FakeStellar, Fault};
use crate::stellar_decode::decode_payment;
use axum::extract::{Form, Path, Query, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use lajan_domain::stellar_memo::StellarMemo;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// Horizon's resources on the fake network, answering 503 to everything while it is down.
pub(super) fn router(fake: Arc<FakeStellar>) -> Router {
    Router::new()
        .route("/", get(root))
        .route("/transactions", post(submit))
        .route("/transactions/{hash}", get(transaction))
        .route("/accounts/{id}", get(account))
        .route("/accounts/{id}/payments", get(payments))
        .route("/ledgers/{sequence}", get(ledger))
        .layer(axum::middleware::from_fn_with_state(fake.clone(), outage))
        .with_state(fake)
}

async fn outage(State(fake): State<Arc<FakeStellar>>, request: Request, next: Next) -> Response {
    if fake.net().down {
        let (status, body) = problem(503, "service_unavailable", "Service Unavailable", None);
        return (status, Json(body)).into_response();
    }
    next.run(request).await
}

pub(super) fn problem(status: u16, kind: &str, title: &str, result_codes: Option<Value>) -> (StatusCode, Value) {
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

/// Waits in the open ledger and answers when it closes. A source with a transaction already
/// queued gets TRY_AGAIN_LATER, which Horizon answers 503: stellar-core (since 19) keeps one
/// transaction per source account in its queue, nothing of the second is kept.
async fn queue_for_close(fake: &FakeStellar, envelope: String) -> (StatusCode, Json<Value>) {
    let source = decode_payment(&envelope, &fake.passphrase).map(|tx| tx.source_account).unwrap_or_default();
    let answer = {
        let mut net = fake.net();
        if net.open.iter().any(|(queued, ..)| *queued == source) {
            net.try_again_later += 1;
            let (status, body) = problem(503, "try_again_later", "Try Again Later", None);
            return (status, Json(body));
        }
        let (send, answer) = tokio::sync::oneshot::channel();
        net.open.push((source, envelope, send));
        answer
    };
    let (status, body) = answer.await.unwrap_or_else(|_| problem(504, "timeout", "Timeout", None));
    (status, Json(body))
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
                    "memo_type": p.memo.as_ref().map_or("none", |m| m.kind().as_str()),
                    "memo": p.memo.as_ref().map(horizon_memo),
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

/// A memo as Horizon writes it: text as is, an id in decimal, a hash in base64.
fn horizon_memo(memo: &StellarMemo) -> String {
    use stellar_xdr::WriteXdr;
    match memo {
        // A fixed 32-byte opaque is its bytes in XDR, so its XDR base64 is the hash's base64.
        StellarMemo::Hash(bytes) => {
            stellar_xdr::Hash(*bytes).to_xdr_base64(stellar_xdr::Limits::none()).unwrap_or_default()
        }
        other => other.value(),
    }
}
