//! `lajan-bench disburse`: one disbursement of N CSV rows through a running Lajan, each step
//! timed over HTTP (create, submit, approve, execution until `completed`, the CSV report).

use anyhow::{Context, bail};
use serde_json::Value;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// A wallet the sandbox pays.
const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

/// Runs the batch and prints `create_ms submit_ms approve_ms exec_secs items_per_sec report_ms`.
pub(crate) async fn disburse(base: &str, key: &str, items: usize, timeout_secs: u64) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut csv = String::from("walletAccountId,assetAmount,memo,externalId\r\n");
    for i in 0..items {
        let _ = write!(csv, "{WALLET},25.50,stipend {i},emp-{i:05}\r\n");
    }
    let timed = |request: reqwest::RequestBuilder, what: &'static str| async move {
        let started = Instant::now();
        let response = request.bearer_auth(key).send().await.with_context(|| what)?;
        let status = response.status();
        let body = response.text().await?;
        if !status.is_success() {
            bail!("{what}: {status} {body}");
        }
        anyhow::Ok((started.elapsed(), body))
    };
    let url = format!("{base}/v1/disbursements?name=Bench&assetCode=USDC");
    let create = http.post(url).header("content-type", "text/csv").body(csv);
    let (create_took, body) = timed(create, "create").await?;
    let created: Value = serde_json::from_str(&body)?;
    let id = created["id"].as_str().context("the created disbursement has no id")?.to_owned();
    let (submit_took, _) = timed(http.post(format!("{base}/v1/disbursements/{id}/submit")), "submit").await?;
    let (approve_took, _) = timed(http.post(format!("{base}/v1/disbursements/{id}/approve")), "approve").await?;
    let started = Instant::now();
    loop {
        let (_, body) = timed(http.get(format!("{base}/v1/disbursements/{id}")), "get").await?;
        let d: Value = serde_json::from_str(&body)?;
        match d["status"].as_str() {
            Some("completed") => break,
            Some("approved" | "processing") => {}
            other => bail!("the disbursement ended {other:?}: {d}"),
        }
        if started.elapsed() > Duration::from_secs(timeout_secs) {
            bail!("not completed after {timeout_secs} s: {d}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let exec = started.elapsed();
    let report = http.get(format!("{base}/v1/disbursements/{id}/items")).header("accept", "text/csv");
    let (report_took, report) = timed(report, "report").await?;
    let rows = report.lines().count().saturating_sub(1);
    if rows != items {
        bail!("the report has {rows} rows, not {items}");
    }
    println!(
        "{} {} {} {:.1} {:.0} {}",
        create_took.as_millis(),
        submit_took.as_millis(),
        approve_took.as_millis(),
        exec.as_secs_f64(),
        items as f64 / exec.as_secs_f64(),
        report_took.as_millis()
    );
    Ok(())
}
