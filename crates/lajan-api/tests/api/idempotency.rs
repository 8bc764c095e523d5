//! `Idempotency-Key`: replay, reuse with another body, in progress, server errors, restarts.

use lajan_domain::Environment;
use lajan_testkit::{Server, TestApp, expect_error, test_config};
use reqwest::Method;
use serde_json::{Value, json};

async fn post_with_key(app: &TestApp, key: &str, body: &Value) -> reqwest::Response {
    app.req(Method::POST, "/v1/clients").header("idempotency-key", key).json(body).send().await.unwrap()
}

async fn total(app: &TestApp, path: &str) -> u64 {
    app.get(path).await.json::<Value>().await.unwrap()["pagination"]["total"].as_u64().unwrap()
}

api_test!(same_key_same_body_replays_once_created, |app| {
    let body = json!({ "firstName": "Marie", "lastName": "Jean" });
    let first = post_with_key(app, "create-marie", &body).await;
    assert_eq!(first.status(), 201);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first: Value = first.json().await.unwrap();
    // The other path form is the same request.
    let again = app
        .req(Method::POST, "/v1/mfi/clients")
        .header("idempotency-key", "create-marie")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    assert_eq!(total(app, "/v1/clients").await, 1);
    assert_eq!(total(app, "/v1/events").await, 1);

    // Keys are per environment: the same key in live is a new request.
    let live = app.key(None, Environment::Live, &["*"]).await;
    let r = app
        .http
        .post(app.url("/v1/clients"))
        .bearer_auth(&live)
        .header("idempotency-key", "create-marie")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    assert!(r.headers().get("idempotent-replayed").is_none());
    // Without a key, every POST is new.
    assert_eq!(app.post("/v1/clients", &body).await.status(), 201);
    assert_eq!(total(app, "/v1/clients").await, 2);
});

api_test!(same_key_other_body_is_422, |app| {
    assert_eq!(post_with_key(app, "k1", &json!({ "firstName": "A", "lastName": "B" })).await.status(), 201);
    expect_error(
        post_with_key(app, "k1", &json!({ "firstName": "A", "lastName": "C" })).await,
        422,
        "idempotency_key_reused",
    )
    .await;
    assert_eq!(total(app, "/v1/clients").await, 1);
    let bad = app
        .req(Method::POST, "/v1/clients")
        .header("idempotency-key", "x".repeat(256))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let body = expect_error(bad, 400, "validation_error").await;
    assert_eq!(body["details"][0]["field"], "Idempotency-Key");
});

fn slow_ledger() -> lajan_testkit::TestConfig {
    let mut config = test_config();
    // A sandbox payment answers once its ledger closes: long enough to overlap a second request.
    config.services.sandbox_ledger_close_ms = 1_500;
    config
}

api_test!(a_request_still_running_is_409_then_replays, slow_ledger(), |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let pay = || {
        app.req(Method::POST, &format!("/v1/sandbox/payment-intents/{intent}/pay"))
            .header("idempotency-key", "pay-it")
            .send()
    };
    let first = tokio::spawn(pay());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    expect_error(pay().await.unwrap(), 409, "idempotency_in_progress").await;
    let first = first.await.unwrap().unwrap();
    assert_eq!(first.status(), 201);
    let first: Value = first.json().await.unwrap();
    let again = pay().await.unwrap();
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    let paid: Value = app.get(&format!("/v1/invoices/{}", invoice["id"].as_str().unwrap())).await.json().await.unwrap();
    assert_eq!((paid["status"].as_str(), paid["amountPaid"].as_str()), (Some("paid"), Some("100.00")), "paid once");
});

api_test!(one_key_sent_to_two_processes_at_once_creates_once, |app| {
    // A second process on the same database. Both requests look the key up, find it free and
    // run their handlers while the test holds key claims back; released, one claims the key
    // and commits, the other finds it taken and answers with the first one's response.
    let store = lajan_store::open(&app.db.url).await.unwrap();
    let other = Server::start(store.clone(), test_config()).await;
    for n in 0..3 {
        let key = format!("both-{n}");
        let body = json!({ "firstName": format!("Twin{n}"), "lastName": "B" });
        let send = |base: &str| {
            let req = app.http.post(format!("{base}/v1/clients")).bearer_auth(&app.key);
            req.header("idempotency-key", &key).json(&body).send()
        };
        let hold = app.db.hold_key_claims().await;
        let release = async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            hold.release().await;
        };
        let (a, b, ()) = tokio::join!(send(&app.server.base), send(&other.base), release);
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!((a.status().as_u16(), b.status().as_u16()), (201, 201), "{key}");
        let fresh = [&a, &b].iter().filter(|r| r.headers().get("idempotent-replayed").is_none()).count();
        assert_eq!(fresh, 1, "{key}: one created, one replayed");
        let (a, b): (Value, Value) = (a.json().await.unwrap(), b.json().await.unwrap());
        assert_eq!(a["id"], b["id"], "{key}");
    }
    assert_eq!(total(app, "/v1/clients").await, 3);
    assert_eq!(total(app, "/v1/events").await, 3);
    other.stop().await;
    store.close().await;
});

api_test!(client_errors_replay_but_server_errors_do_not, |app| {
    let invalid = json!({ "firstName": "" , "lastName": "B" });
    expect_error(post_with_key(app, "v", &invalid).await, 400, "validation_error").await;
    let replay = post_with_key(app, "v", &invalid).await;
    assert_eq!(replay.headers()["idempotent-replayed"], "true");
    expect_error(replay, 400, "validation_error").await;

    let body = json!({ "firstName": "A", "lastName": "B" });
    app.store().fail_next_commit();
    expect_error(post_with_key(app, "retry-me", &body).await, 500, "internal_error").await;
    let retried = post_with_key(app, "retry-me", &body).await;
    assert_eq!(retried.status(), 201, "a 5xx is not stored: the retry runs");
    assert!(retried.headers().get("idempotent-replayed").is_none());
    assert_eq!(total(app, "/v1/clients").await, 1);
});

#[tokio::test]
async fn replays_survive_a_restart_sqlite() {
    survives_restart(lajan_store::testing::sqlite().await).await;
}

#[tokio::test]
async fn replays_survive_a_restart_postgres() {
    let Some(db) = lajan_store::testing::postgres("replays_survive_a_restart").await else { return };
    survives_restart(db).await;
}

async fn survives_restart(db: lajan_store::testing::TestStore) {
    let app = TestApp::spawn(db, test_config()).await;
    let body = json!({ "firstName": "A", "lastName": "B" });
    let first: Value = post_with_key(&app, "durable", &body).await.json().await.unwrap();
    // A new process: new store connections, new server, same database.
    let store = lajan_store::open(&app.db.url).await.unwrap();
    let restarted = Server::start(store.clone(), test_config()).await;
    let r = app
        .http
        .post(format!("{}/v1/clients", restarted.base))
        .bearer_auth(&app.key)
        .header("idempotency-key", "durable")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["idempotent-replayed"], "true");
    assert_eq!(r.json::<Value>().await.unwrap(), first);
    restarted.stop().await;
    store.close().await;
    app.stop().await;
}
