//! `GET /metrics` on its own listener: requests counted by route template (never a raw id),
//! payouts by status and from approval to sent, ledger submissions, webhook backlog and attempts,
//! the database pools; both text formats read back by the official Python `prometheus_client`
//! parsers (installed into `target/prometheus-client-venv` on first use; without python3 or
//! PyPI that part is skipped with a reason, unless `LAJAN_REQUIRE_PROMETHEUS_CLIENT` is set).

use crate::standard_webhooks::{ensure_pypi, run_python, skip_unless_required};
use lajan_testkit::TestApp;
use lajan_worker::testing::WebhookReceiver;
use serde_json::{Value, json};

const PARSER_VERSION: &str = "0.23.1";

/// Parses the two texts it reads with the official parsers; prints every sample.
const PARSE_SCRIPT: &str = r#"
import json, sys
from prometheus_client.parser import text_string_to_metric_families as prometheus
from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics

texts = json.load(sys.stdin)
def samples(parse, text):
    return [{"family": f.name, "type": f.type, "name": s.name, "labels": s.labels, "value": s.value}
            for f in parse(text) for s in f.samples]
json.dump({"prometheus": samples(prometheus, texts["prometheus"]),
           "openmetrics": samples(openmetrics, texts["openmetrics"])}, sys.stdout)
"#;

/// Starts the metrics listener of `app`'s process on a free port; answers its URL.
async fn metrics_url(app: &TestApp) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/metrics", listener.local_addr().unwrap());
    let services = app.workers().services().clone();
    tokio::spawn(lajan_api::metrics::serve(listener, services, std::future::pending()));
    url
}

async fn scrape(app: &TestApp, url: &str, accept: Option<&str>) -> (String, String) {
    let mut request = app.http.get(url);
    if let Some(accept) = accept {
        request = request.header("accept", accept);
    }
    let r = request.send().await.unwrap();
    assert_eq!(r.status(), 200);
    let content_type = r.headers()["content-type"].to_str().unwrap().to_owned();
    (content_type, r.text().await.unwrap())
}

/// The value of the sample `name{labels}` in the text format, when it is there.
fn value(text: &str, name: &str, labels: &str) -> Option<f64> {
    let series = if labels.is_empty() { name.to_owned() } else { format!("{name}{{{labels}}}") };
    text.lines().find_map(|line| line.strip_prefix(&series)?.strip_prefix(' ')?.parse().ok())
}

api_test!(metrics_count_requests_payouts_and_webhooks_by_template, |app| {
    let url = metrics_url(app).await;
    let receiver = WebhookReceiver::start().await;
    let endpoint = json!({ "url": receiver.url("/hooks"), "events": ["payout.*"] });
    assert_eq!(app.post("/v1/webhook-endpoints", &endpoint).await.status(), 201);
    let client = app.client("Rose", "Délice").await;
    let client_id = client["id"].as_str().unwrap();
    for _ in 0..2 {
        assert_eq!(app.get(&format!("/v1/clients/{client_id}")).await.status(), 200);
    }
    assert_eq!(app.get("/v1/clients/cli_00000000000000000000000000").await.status(), 404);
    assert_eq!(app.get("/no/such/route/cli_secret").await.status(), 404);

    let payout = json!({ "walletAccountId": WALLET, "assetAmount": 12.5, "assetCode": "USDC" });
    let r = app.post("/v1/payouts", &payout).await;
    assert_eq!(r.status(), 201);
    let payout_id = r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    let (_, before) = scrape(app, &url, None).await;
    assert!(value(&before, "lajan_webhook_deliveries_pending", "").unwrap() >= 1.0, "{before}");
    assert!(value(&before, "lajan_webhook_oldest_pending_age_seconds", "").unwrap() >= 0.0, "{before}");
    let waiting = "environment=\"test\",approval_status=\"pending\",exec_status=\"pending\"";
    assert_eq!(value(&before, "lajan_payouts", waiting), Some(1.0), "{before}");

    assert_eq!(app.post(&format!("/v1/payouts/{payout_id}/approve"), &json!({})).await.status(), 200);
    app.drain_payouts().await;
    while app.workers().deliver_webhooks_once(lajan_domain::Timestamp::now()).await.unwrap() > 0 {}

    let (content_type, text) = scrape(app, &url, None).await;
    assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
    let version = format!("version=\"{}\"", env!("CARGO_PKG_VERSION"));
    assert_eq!(value(&text, "lajan_build_info", &version), Some(1.0), "{text}");
    let by_template = "method=\"GET\",route=\"/v1/clients/{id}\"";
    assert_eq!(
        value(&text, "lajan_http_requests_total", &format!("{by_template},status=\"200\"")),
        Some(2.0),
        "{text}"
    );
    assert_eq!(value(&text, "lajan_http_requests_total", &format!("{by_template},status=\"404\"")), Some(1.0));
    assert_eq!(value(&text, "lajan_http_request_duration_seconds_count", by_template), Some(3.0));
    let unmatched = "method=\"GET\",route=\"unmatched\",status=\"404\"";
    assert_eq!(value(&text, "lajan_http_requests_total", unmatched), Some(1.0));
    assert!(!text.contains(client_id) && !text.contains("cli_0") && !text.contains("cli_secret"), "a raw path: {text}");

    let sent = "environment=\"test\",approval_status=\"approved\",exec_status=\"sent\"";
    assert_eq!(value(&text, "lajan_payouts", sent), Some(1.0), "{text}");
    assert_eq!(value(&text, "lajan_payouts", waiting), Some(0.0), "{text}");
    assert_eq!(value(&text, "lajan_ledger_submissions_total", "environment=\"test\",result=\"sent\""), Some(1.0));
    let approval_to_sent = "lajan_payout_approval_to_sent_seconds_count";
    assert_eq!(value(&text, approval_to_sent, "environment=\"test\""), Some(1.0), "{text}");
    assert!(value(&text, "lajan_webhook_attempts_total", "outcome=\"delivered\"").unwrap() >= 2.0, "{text}");
    assert_eq!(value(&text, "lajan_webhook_deliveries_pending", ""), Some(0.0));
    assert_eq!(value(&text, "lajan_webhook_oldest_pending_age_seconds", ""), Some(0.0));
    assert_eq!(value(&text, "lajan_notifications_pending", ""), Some(0.0));
    assert!(
        text.contains("lajan_db_pool_connections{pool=") && text.contains("lajan_db_pool_waits_total{pool="),
        "{text}"
    );
    if app.store().backend() == lajan_store::Backend::Sqlite {
        // Every change above was a unit of work on the writer, committed alone or in a group.
        let commits = value(&text, "lajan_db_commits_total", "pool=\"write\"").unwrap();
        let units = value(&text, "lajan_db_committed_units_total", "pool=\"write\"").unwrap();
        assert!(commits >= 4.0 && units >= commits, "{text}");
    } else {
        assert!(!text.contains("lajan_db_commits_total"), "{text}");
    }

    let (content_type, openmetrics) = scrape(app, &url, Some("application/openmetrics-text; version=1.0.0")).await;
    assert!(content_type.starts_with("application/openmetrics-text"), "{content_type}");
    assert!(openmetrics.ends_with("# EOF\n"), "{openmetrics}");

    let python = match tokio::task::spawn_blocking(|| ensure_pypi("prometheus-client", PARSER_VERSION)).await.unwrap() {
        Ok(python) => python,
        Err(reason) => return skip_unless_required("LAJAN_REQUIRE_PROMETHEUS_CLIENT", "prometheus_client", &reason),
    };
    let parsed = run_python(&python, PARSE_SCRIPT, &json!({ "prometheus": text, "openmetrics": openmetrics }));
    for format in ["prometheus", "openmetrics"] {
        let samples = parsed[format].as_array().unwrap();
        let sample = |name: &str, labels: Value| {
            samples.iter().find(|s| s["name"] == name && s["labels"] == labels).map(|s| s["value"].as_f64().unwrap())
        };
        let labels = json!({ "method": "GET", "route": "/v1/clients/{id}", "status": "200" });
        assert_eq!(sample("lajan_http_requests_total", labels), Some(2.0), "{format}: {samples:?}");
        let labels = json!({ "environment": "test", "approval_status": "approved", "exec_status": "sent" });
        assert_eq!(sample("lajan_payouts", labels), Some(1.0), "{format}");
        let build = json!({ "version": env!("CARGO_PKG_VERSION") });
        assert_eq!(sample("lajan_build_info", build), Some(1.0), "{format}");
        let histogram = samples.iter().find(|s| s["family"] == "lajan_payout_approval_to_sent_seconds").unwrap();
        assert_eq!(histogram["type"], "histogram", "{format}");
    }
});
