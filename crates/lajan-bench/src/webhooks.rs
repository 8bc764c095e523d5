//! `lajan-bench webhooks`: deliveries per second from commit to a local receiver's 2xx, through
//! a running Lajan, optionally beside an endpoint that accepts connections and never answers.
//! The events are the `payout.created` of one disbursement's submission: N events committed in
//! one transaction, each with its delivery.

use anyhow::{Context, bail};
use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

/// Runs one measurement and prints `deliveries_per_sec seconds submit_ms`: the rate and time from
/// the submission's answer (its commit) to the last 2xx, and how long the submission took.
pub(crate) async fn webhooks(
    base: &str,
    key: &str,
    events: usize,
    dead: bool,
    timeout_secs: u64,
) -> anyhow::Result<()> {
    let received = Arc::new(AtomicUsize::new(0));
    let counter = received.clone();
    let app = Router::new().route(
        "/{*path}",
        post(move || {
            let counter = counter.clone();
            async move {
                counter.fetch_add(1, Ordering::Relaxed);
                StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let healthy = format!("http://{}/hooks", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, app).await });

    let http = reqwest::Client::new();
    let send = |request: reqwest::RequestBuilder| async move {
        let response = request.bearer_auth(key).send().await?;
        let status = response.status();
        let body = response.text().await?;
        if !status.is_success() {
            bail!("{status} {body}");
        }
        anyhow::Ok(body)
    };
    let subscribe = |url: String| {
        let body = json!({ "url": url, "events": ["payout.created"] });
        send(http.post(format!("{base}/v1/webhook-endpoints")).json(&body))
    };
    subscribe(healthy).await.context("the healthy endpoint")?;
    if dead {
        // Takes connections and never answers: every delivery to it waits out the timeout.
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/hooks", silent.local_addr()?);
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = silent.accept().await {
                held.push(socket);
            }
        });
        subscribe(url).await.context("the dead endpoint")?;
    }

    let mut csv = String::from("walletAccountId,assetAmount,memo\r\n");
    for i in 0..events {
        let _ = write!(csv, "{WALLET},1.00,hook {i}\r\n");
    }
    let url = format!("{base}/v1/disbursements?name=Hooks&assetCode=USDC");
    let created: Value =
        serde_json::from_str(&send(http.post(url).header("content-type", "text/csv").body(csv)).await?)?;
    let id = created["id"].as_str().context("the disbursement has no id")?;
    let submitted = Instant::now();
    send(http.post(format!("{base}/v1/disbursements/{id}/submit"))).await.context("submit")?;
    // The submission commits its events with their deliveries; its answer marks the commit.
    let submit_took = submitted.elapsed();
    let started = Instant::now();
    while received.load(Ordering::Relaxed) < events {
        if started.elapsed() > Duration::from_secs(timeout_secs) {
            bail!("{} of {events} deliveries after {timeout_secs} s", received.load(Ordering::Relaxed));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let took = started.elapsed().as_secs_f64();
    println!("{:.0} {took:.2} {}", events as f64 / took, submit_took.as_millis());
    Ok(())
}
