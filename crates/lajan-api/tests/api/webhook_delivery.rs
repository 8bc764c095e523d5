//! Webhook delivery through the real dispatcher to a loopback receiver: what is sent and how it
//! is signed, who receives what, retries with the same `webhook-id`, redirects, 410, `Retry-After`,
//! timeouts, per-endpoint concurrency, and the background loop.

use lajan_domain::Timestamp;
use lajan_domain::webhook::DeliveryStatus;
use lajan_testkit::{TestApp, TestConfig, WALLET, test_config};
use lajan_worker::testing::{WebhookReceiver, wait_for};
use lajan_worker::webhook_post::signature;
use serde_json::{Value, json};
use std::time::Duration;

async fn subscribe(app: &TestApp, url: &str, events: Value) -> (String, String) {
    let r = app.post("/v1/webhook-endpoints", &json!({ "url": url, "events": events })).await;
    assert_eq!(r.status(), 201);
    let e: Value = r.json().await.unwrap();
    (e["id"].as_str().unwrap().to_owned(), e["secret"].as_str().unwrap().to_owned())
}

async fn deliver(app: &TestApp, at: Timestamp) -> usize {
    app.workers().deliver_webhooks_once(at).await.unwrap()
}

async fn send_test(app: &TestApp, endpoint: &str) -> Value {
    let r = app.post(&format!("/v1/webhook-endpoints/{endpoint}/test"), &json!({})).await;
    assert_eq!(r.status(), 202);
    r.json().await.unwrap()
}

async fn delivery(app: &TestApp, endpoint: &str, id: &str) -> lajan_domain::webhook::Delivery {
    app.store().get_delivery(&app.tenant(), endpoint, id).await.unwrap().expect("the delivery")
}

api_test!(invoice_and_payout_events_reach_the_receiver_signed, |app| {
    let receiver = WebhookReceiver::start().await;
    let (_, secret) = subscribe(app, &receiver.url("/hooks"), json!(["invoice.*", "payout.created"])).await;
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({})).await;
    let r =
        app.post("/v1/payouts", &json!({ "walletAccountId": WALLET, "assetAmount": 10, "assetCode": "USDC" })).await;
    assert_eq!(r.status(), 201);
    assert_eq!(deliver(app, Timestamp::now()).await, 2, "client.created is not subscribed to");

    let got = receiver.received();
    let mut types: Vec<String> = got.iter().map(|w| w.json()["type"].as_str().unwrap().to_owned()).collect();
    types.sort();
    assert_eq!(types, ["invoice.created", "payout.created"]);
    for webhook in &got {
        let body = webhook.json();
        let id = webhook.header("webhook-id");
        assert_eq!(body["id"], id.as_str(), "webhook-id is the event id");
        let event: Value = app.get(&format!("/v1/events/{id}")).await.json().await.unwrap();
        assert_eq!(body, event, "the body is the event as GET /v1/events shows it");
        assert_eq!(body["livemode"], false);
        assert_eq!(body["actor"], json!({ "type": "api_key", "id": app.key_id }), "made by the app's key");
        assert_eq!(webhook.header("content-type"), "application/json");
        let timestamp: i64 = webhook.header("webhook-timestamp").parse().unwrap();
        assert!((timestamp - jiff::Timestamp::now().as_second()).abs() < 60, "{timestamp}");
        assert_eq!(Some(webhook.header("webhook-signature")), signature(&secret, &id, timestamp, &webhook.body));
        assert_eq!(webhook.path, "/hooks");
    }
    let invoice_body = got.iter().map(|w| w.json()).find(|b| b["type"] == "invoice.created").unwrap();
    assert_eq!(invoice_body["data"]["object"]["id"], invoice["id"]);
    assert_eq!(deliver(app, Timestamp::now()).await, 0, "each once");
});

api_test!(a_failure_is_retried_on_the_schedule_with_the_same_webhook_id, |app| {
    let receiver = WebhookReceiver::start().await;
    let (endpoint, _) = subscribe(app, &receiver.url("/h"), json!(["invoice.paid"])).await;
    receiver.respond_next(1, 500, &[], "boom");
    let queued = send_test(app, &endpoint).await;
    let id = queued["id"].as_str().unwrap();
    let before = Timestamp::now();
    assert_eq!(deliver(app, before).await, 1);
    let d = delivery(app, &endpoint, id).await;
    assert_eq!((d.status, d.attempts), (DeliveryStatus::Pending, 1));
    let wait = d.next_attempt_at.as_millis() - before.as_millis();
    assert!((4_000..=6_500).contains(&wait), "5 s +-20 %: {wait} ms");
    assert_eq!(deliver(app, Timestamp::now()).await, 0, "not due yet");
    assert_eq!(deliver(app, before.plus_millis(7_000)).await, 1);
    let got = receiver.received();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
    assert_eq!(got[0].header("webhook-id"), queued["eventId"].as_str().unwrap());
    assert_eq!(delivery(app, &endpoint, id).await.status, DeliveryStatus::Delivered);
    let attempts = app.store().delivery_attempts(&app.tenant(), id).await.unwrap();
    let seen: Vec<_> = attempts.iter().map(|a| (a.http_status, a.response_body.as_deref())).collect();
    // The receiver is on loopback: what it answered is never kept, only its status.
    assert_eq!(seen, [(Some(500), None), (Some(200), None)]);
});

api_test!(a_redirect_is_a_failure_and_not_followed, |app| {
    let receiver = WebhookReceiver::start().await;
    let (endpoint, _) = subscribe(app, &receiver.url("/old"), json!(["*"])).await;
    let target = receiver.url("/new");
    receiver.respond_next(1, 301, &[("location", target.as_str())], "");
    let id = send_test(app, &endpoint).await["id"].as_str().unwrap().to_owned();
    deliver(app, Timestamp::now()).await;
    let paths: Vec<String> = receiver.received().iter().map(|w| w.path.clone()).collect();
    assert_eq!(paths, ["/old"], "the Location is not visited");
    let d = delivery(app, &endpoint, &id).await;
    assert_eq!((d.status, d.attempts), (DeliveryStatus::Pending, 1));
    let attempts = app.store().delivery_attempts(&app.tenant(), &id).await.unwrap();
    assert_eq!(attempts[0].http_status, Some(301));
});

api_test!(gone_disables_the_endpoint_and_says_so, |app| {
    let gone = WebhookReceiver::start().await;
    let watcher = WebhookReceiver::start().await;
    let (endpoint, _) = subscribe(app, &gone.url("/h"), json!(["*"])).await;
    subscribe(app, &watcher.url("/h"), json!(["webhook_endpoint.disabled"])).await;
    gone.respond_next(1, 410, &[], "");
    let id = send_test(app, &endpoint).await["id"].as_str().unwrap().to_owned();
    deliver(app, Timestamp::now()).await;
    assert_eq!(delivery(app, &endpoint, &id).await.status, DeliveryStatus::Failed);
    let e: Value = app.get(&format!("/v1/webhook-endpoints/{endpoint}")).await.json().await.unwrap();
    assert_eq!(e["enabled"], false);
    let events: Value = app.get("/v1/events?type=webhook_endpoint.disabled").await.json().await.unwrap();
    assert_eq!(events["data"][0]["data"]["object"]["id"], endpoint.as_str());

    app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await;
    deliver(app, Timestamp::now()).await;
    assert_eq!(gone.received().len(), 1, "a disabled endpoint receives nothing");
    let told = watcher.received();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].json()["type"], "webhook_endpoint.disabled");
    assert_eq!(told[0].json()["data"]["object"]["enabled"], false);
});

api_test!(retry_after_is_honoured_within_the_schedule, |app| {
    let receiver = WebhookReceiver::start().await;
    let (endpoint, _) = subscribe(app, &receiver.url("/h"), json!(["*"])).await;
    for (status, retry_after, expected_ms) in [(429, "120", 120_000), (503, "1", 5_000), (500, "120", -1)] {
        receiver.respond_next(1, status, &[("retry-after", retry_after)], "");
        let id = send_test(app, &endpoint).await["id"].as_str().unwrap().to_owned();
        let at = Timestamp::now();
        deliver(app, at).await;
        let d = delivery(app, &endpoint, &id).await;
        let attempt = &app.store().delivery_attempts(&app.tenant(), &id).await.unwrap()[0];
        let wait = d.next_attempt_at.as_millis() - attempt.at.as_millis();
        if expected_ms < 0 {
            assert!((4_000..=6_000).contains(&wait), "only 429 and 503 are read for Retry-After: {wait}");
        } else {
            assert_eq!(wait, expected_ms, "{status} Retry-After {retry_after}");
        }
    }
});

fn quick() -> TestConfig {
    let mut config = test_config();
    config.workers.webhooks.timeout = Duration::from_millis(300);
    config.workers.webhooks.endpoint_concurrency = 2;
    config
}

api_test!(a_slow_receiver_times_out_and_holds_only_its_own_slots, quick(), |app| {
    let slow = WebhookReceiver::start().await;
    let fast = WebhookReceiver::start().await;
    let (slow_id, _) = subscribe(app, &slow.url("/h"), json!(["client.created"])).await;
    subscribe(app, &fast.url("/h"), json!(["client.created"])).await;
    slow.set_delay(Duration::from_secs(2));
    for _ in 0..3 {
        app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await;
    }
    let sends = app.workers().start_deliveries(Timestamp::now()).await.unwrap();
    assert_eq!(sends.len(), 4, "two per endpoint; the third of each waits for a slot");
    let fast_done = wait_for(|| (fast.received().len() == 2).then_some(()), Duration::from_secs(5)).await;
    assert!(fast_done.is_some(), "the fast endpoint is not held up by the slow one");
    futures::future::join_all(sends).await;
    let stuck = app.store().list_deliveries(&app.tenant(), &slow_id, None, Default::default()).await.unwrap();
    let timed_out: Vec<_> = stuck.items.iter().filter(|d| d.attempts == 1).collect();
    assert_eq!(timed_out.len(), 2);
    let attempt = &app.store().delivery_attempts(&app.tenant(), &timed_out[0].id).await.unwrap()[0];
    assert_eq!((attempt.http_status, attempt.error.as_deref()), (None, Some("no answer within 300 ms")));
    assert_eq!(deliver(app, Timestamp::now()).await, 2, "the two given back go next");
});

fn background() -> TestConfig {
    TestConfig { background: true, ..test_config() }
}

api_test!(the_running_dispatcher_sends_what_a_change_commits, background(), |app| {
    let receiver = WebhookReceiver::start().await;
    subscribe(app, &receiver.url("/h"), json!(["client.created"])).await;
    let client: Value =
        app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await.json().await.unwrap();
    let got = wait_for(|| receiver.received().into_iter().next(), Duration::from_secs(10)).await;
    let got = got.expect("the dispatcher delivered the event");
    assert_eq!(got.json()["data"]["object"]["id"], client["id"]);
});

fn one_at_a_time() -> TestConfig {
    let mut config = test_config();
    config.workers.webhooks.concurrency = 1;
    config
}

api_test!(no_more_than_the_global_bound_are_in_flight, one_at_a_time(), |app| {
    let receiver = WebhookReceiver::start().await;
    subscribe(app, &receiver.url("/a"), json!(["client.created"])).await;
    subscribe(app, &receiver.url("/b"), json!(["client.created"])).await;
    receiver.set_delay(Duration::from_millis(500));
    app.post("/v1/clients", &json!({ "firstName": "A", "lastName": "B" })).await;
    let sends = app.workers().start_deliveries(Timestamp::now()).await.unwrap();
    assert_eq!(sends.len(), 1, "one slot in the process");
    assert!(app.workers().start_deliveries(Timestamp::now()).await.unwrap().is_empty(), "no slot while it runs");
    futures::future::join_all(sends).await;
    assert_eq!(deliver(app, Timestamp::now()).await, 1, "the slot is free again");
    assert_eq!(receiver.received().len(), 2);
});

api_test!(recovery_sends_every_failed_delivery_of_a_window_again, |app| {
    let receiver = WebhookReceiver::start().await;
    let (endpoint, _) = subscribe(app, &receiver.url("/h"), json!(["client.created"])).await;
    for name in ["A", "B"] {
        app.post("/v1/clients", &json!({ "firstName": name, "lastName": "Z" })).await;
    }
    let store = app.store();
    let attempt = |at| lajan_domain::webhook::DeliveryAttempt {
        attempt_number: 0,
        at,
        http_status: Some(500),
        error: None,
        duration_ms: 1,
        response_body: None,
    };
    let failed: Vec<_> = store
        .claim_deliveries(Timestamp::now(), 60_000, &lajan_store::ClaimLimits::up_to(10))
        .await
        .unwrap()
        .into_iter()
        .map(|due| lajan_store::Answered {
            delivery_id: due.delivery.id,
            lease: due.lease,
            attempt: attempt(Timestamp::now()),
            outcome: lajan_domain::webhook::DeliveryOutcome::Failed,
        })
        .collect();
    let disabled = lajan_services::events::webhook_endpoint_event("webhook_endpoint.disabled");
    store.finish_deliveries(&failed, &disabled).await.unwrap();
    let after_them = jiff::Timestamp::now().checked_add(jiff::SignedDuration::from_millis(5)).unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(10)).await;
    let path = format!("/v1/webhook-endpoints/{endpoint}/recover");
    let r = app.post(&path, &json!({ "since": after_them })).await;
    assert_eq!(
        (r.status().as_u16(), r.json::<Value>().await.unwrap()),
        (202, json!({ "recovered": 0 })),
        "outside the window"
    );

    let hour_ago = jiff::Timestamp::now().checked_sub(jiff::SignedDuration::from_hours(1)).unwrap().to_string();
    let r = app.post(&format!("/v1/mfi{}", &path[3..]), &json!({ "since": hour_ago })).await;
    assert_eq!((r.status().as_u16(), r.json::<Value>().await.unwrap()), (202, json!({ "recovered": 2 })));
    assert_eq!(deliver(app, Timestamp::now()).await, 2, "due at once");
    let events: Value = app.get("/v1/events?type=client.created").await.json().await.unwrap();
    let mut sent: Vec<String> = receiver.received().iter().map(|w| w.header("webhook-id")).collect();
    let mut ids: Vec<String> =
        events["data"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    sent.sort();
    ids.sort();
    assert_eq!(sent, ids, "each with its original webhook-id");
    let r = app.post(&path, &json!({ "since": hour_ago })).await;
    assert_eq!(r.json::<Value>().await.unwrap(), json!({ "recovered": 0 }), "delivered ones are not failed");

    let too_old = jiff::Timestamp::now().checked_sub(jiff::SignedDuration::from_hours(15 * 24)).unwrap().to_string();
    for body in [
        json!({}),
        json!({ "since": too_old }),
        json!({ "since": "last week" }),
        json!({ "since": hour_ago, "until": hour_ago }),
    ] {
        let r = app.post(&path, &body).await;
        assert_eq!(r.status(), 400, "{body}");
    }
    assert_eq!(app.post("/v1/webhook-endpoints/we_nope/recover", &json!({ "since": hour_ago })).await.status(), 404);
});
