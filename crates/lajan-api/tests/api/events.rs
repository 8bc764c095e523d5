//! `GET /v1/events` and `/v1/events/{id}`: filtering, shape, both path forms.

use lajan_domain::Environment;
use lajan_testkit::expect_error;
use reqwest::Method;
use serde_json::{Value, json};

/// The ids of the `event_type` events, oldest first, and of the deliveries a webhook endpoint is
/// offered, claimed one at a time until none is left.
async fn feed_and_offers(app: &lajan_testkit::TestApp, event_type: &str) -> (Vec<String>, Vec<String>) {
    let feed: Value = app.get(&format!("/v1/events?type={event_type}&limit=10")).await.json().await.unwrap();
    let mut feed: Vec<String> =
        feed["data"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect();
    feed.reverse();
    let (later, mut offered) = (lajan_domain::Timestamp::from_millis(i64::MAX / 2), Vec::new());
    let one = lajan_store::ClaimLimits::up_to(1);
    while let Some(due) = app.store().claim_deliveries(later, 60_000, &one).await.unwrap().pop() {
        offered.push(due.delivery.event_id);
    }
    (feed, offered)
}

api_test!(events_filter_by_type_and_fetch_by_id, |app| {
    let a = app.client("A", "One").await;
    app.client("B", "Two").await;
    app.put(&format!("/v1/clients/{}", a["id"].as_str().unwrap()), &serde_json::json!({ "firstName": "Aa" })).await;

    let all: Value = app.get("/v1/events").await.json().await.unwrap();
    assert_eq!(all["pagination"]["total"], 3);
    let created: Value = app.get("/v1/mfi/events?type=client.created").await.json().await.unwrap();
    assert_eq!(created["pagination"]["total"], 2);
    assert!(created["data"].as_array().unwrap().iter().all(|e| e["type"] == "client.created"));
    let none: Value = app.get("/v1/events?type=invoice.paid").await.json().await.unwrap();
    assert_eq!(none["pagination"]["total"], 0);

    let first = &all["data"][0];
    let id = first["id"].as_str().unwrap();
    assert!(id.starts_with("evt_"));
    assert_eq!(first["type"], "client.updated");
    assert_eq!(first["livemode"], false);
    assert_eq!(first["data"]["object"]["firstName"], "Aa");
    let one: Value = app.get(&format!("/v1/mfi/events/{id}")).await.json().await.unwrap();
    assert_eq!(&one, first);
    expect_error(app.get("/v1/events/evt_nope").await, 404, "not_found").await;
    let paged: Value = app.get("/v1/events?limit=2&page=2").await.json().await.unwrap();
    assert_eq!(paged["data"].as_array().unwrap().len(), 1);
});

api_test!(every_event_names_who_made_the_change, |app| {
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), json!({ "sendImmediately": true })).await;
    let intent = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let (other_secret, other_key) = app.key_with_id(None, Environment::Test, &["clients:write"]).await;
    let body = json!({ "firstName": "Jean" });
    let path = format!("/v1/clients/{}", client["id"].as_str().unwrap());
    assert_eq!(app.send_json_with(&other_secret, Method::PUT, &path, &body).await.status(), 200);
    // The payer opens the page (invoice.viewed) and pays through it; the payment watcher, a
    // worker, records the payment (invoice.payment_received) and the invoice it settles (invoice.paid).
    let no_redirects = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    assert_eq!(app.http.get(app.url(&format!("/pay/{intent}"))).send().await.unwrap().status(), 200);
    let r = no_redirects.post(app.url(&format!("/pay/{intent}/simulate"))).send().await.unwrap();
    assert_eq!(r.status(), 303);

    let all: Value = app.get("/v1/events?limit=100").await.json().await.unwrap();
    let actors: Vec<(&str, Value)> = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|e| (e["type"].as_str().unwrap(), e["actor"].clone()))
        .collect();
    let key = |id: &str| json!({ "type": "api_key", "id": id });
    let system = |what: &str| json!({ "type": "system", "id": what });
    assert_eq!(
        actors,
        vec![
            ("client.created", key(&app.key_id)),
            ("invoice.created", key(&app.key_id)),
            ("invoice.sent", key(&app.key_id)),
            // Its email and SMS, delivered at once by the sandbox's simulated provider.
            ("message.sent", system("worker")),
            ("message.delivered", system("worker")),
            ("message.sent", system("worker")),
            ("message.delivered", system("worker")),
            ("client.updated", key(&other_key)),
            ("invoice.viewed", system("payment_page")),
            ("invoice.payment_received", system("worker")),
            ("invoice.paid", system("worker")),
        ]
    );
    let one: Value =
        app.get(&format!("/v1/events/{}", all["data"][0]["id"].as_str().unwrap())).await.json().await.unwrap();
    assert_eq!(one["actor"], system("worker"), "the single event shows its actor too");
});

api_test!(a_poller_following_the_feed_never_misses_a_payment_that_waited_for_a_lock, |app| {
    // Payment A reads the clock, then waits for its invoice's row lock, held here from a
    // second connection (on PostgreSQL; SQLite's one writer never lets a later one commit
    // first); payment B, on another invoice, commits meanwhile. A poller that read the newest
    // event (B's) and then asks for newer ones, as the README's recipe says, must get A's.
    let client = app.reachable_client().await;
    let client_id = client["id"].as_str().unwrap();
    let postgres = app.db.url.starts_with("postgres");
    let hook = json!({ "url": "https://hooks.example.com/lajan", "events": ["invoice.payment_received"] });
    assert_eq!(app.post("/v1/webhook-endpoints", &hook).await.status(), 201);
    for round in 0..3 {
        let held = app.invoice(client_id, json!({ "sendImmediately": true })).await;
        let other = app.invoice(client_id, json!({ "sendImmediately": true })).await;
        let (held_id, other_id) = (held["id"].as_str().unwrap(), other["id"].as_str().unwrap());
        let hold = app.db.hold_row("invoices", held_id).await;
        let pay = |id: String| async move {
            let body = json!({ "amount": 10, "method": "cash", "reference": format!("round {round}") });
            app.send_json(Method::POST, &format!("/v1/invoices/{id}/payments"), &body).await
        };
        let waiting = pay(held_id.to_owned());
        let later = async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            assert_eq!(pay(other_id.to_owned()).await.status(), 201, "round {round}: B");
            let newest: Value = app.get("/v1/events?limit=1").await.json().await.unwrap();
            let newest = newest["data"][0].clone();
            assert_eq!(newest["data"]["object"]["id"], json!(other_id), "round {round}: B's event is the newest");
            if let Some(hold) = hold {
                hold.release().await;
            }
            newest
        };
        let (a, newest) = tokio::join!(waiting, later);
        assert_eq!(a.status(), 201, "round {round}: A");
        let newer = format!("/v1/events?endingBefore={}", newest["id"].as_str().unwrap());
        let newer: Value = app.get(&newer).await.json().await.unwrap();
        let seen: Vec<(&str, &str)> = newer["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["type"].as_str().unwrap(), e["data"]["object"]["id"].as_str().unwrap()))
            .collect();
        // Where A waited it is newer than B; on SQLite it committed first, so nothing is newer.
        let a_seen = [("invoice.payment_received", held_id)];
        assert_eq!(seen, if postgres { &a_seen[..] } else { &[] }, "round {round}");
        let all: Value = app.get("/v1/events?type=invoice.payment_received&limit=2").await.json().await.unwrap();
        let order: Vec<&str> =
            all["data"].as_array().unwrap().iter().map(|e| e["data"]["object"]["id"].as_str().unwrap()).collect();
        let expected = if postgres { [held_id, other_id] } else { [other_id, held_id] };
        assert_eq!(order, expected, "round {round}: newest first, in the order they committed");
    }
    // The endpoint is offered them in the feed's order: claimed one at a time, oldest first.
    let (feed, offered) = feed_and_offers(app, "invoice.payment_received").await;
    assert_eq!(offered, feed, "deliveries in the feed's order");
});

api_test!(any_change_that_waited_for_a_lock_is_fed_and_delivered_in_commit_order, |app| {
    // Not only payments: a client's update reads the clock, then waits for the client's row
    // lock (held from a second connection on PostgreSQL) while another client's update
    // commits. Its event, stamped earlier, still comes after in the feed and to a webhook
    // endpoint: the order is the order of commits, not of clocks.
    let hook = json!({ "url": "https://hooks.example.com/lajan", "events": ["client.updated"] });
    assert_eq!(app.post("/v1/webhook-endpoints", &hook).await.status(), 201);
    let (first, second) = (app.client("Ana", "One").await, app.client("Ben", "Two").await);
    let (held_id, other_id) = (first["id"].as_str().unwrap(), second["id"].as_str().unwrap());
    let hold = app.db.hold_row("clients", held_id).await;
    let postgres = hold.is_some();
    let rename = |id: String, name: &'static str| async move {
        app.send_json(Method::PUT, &format!("/v1/clients/{id}"), &json!({ "firstName": name })).await
    };
    let waiting = rename(held_id.to_owned(), "Waited");
    let later = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(rename(other_id.to_owned(), "Quick").await.status(), 200);
        let newest: Value = app.get("/v1/events?limit=1").await.json().await.unwrap();
        if let Some(hold) = hold {
            hold.release().await;
        }
        newest["data"][0]["id"].as_str().unwrap().to_owned()
    };
    let (a, newest) = tokio::join!(waiting, later);
    assert_eq!(a.status(), 200);
    let newer: Value = app.get(&format!("/v1/events?endingBefore={newest}")).await.json().await.unwrap();
    let newer: Vec<&str> =
        newer["data"].as_array().unwrap().iter().map(|e| e["data"]["object"]["id"].as_str().unwrap()).collect();
    assert_eq!(newer, if postgres { vec![held_id] } else { vec![] }, "the waited change is newer");

    let (feed, offered) = feed_and_offers(app, "client.updated").await;
    assert_eq!(offered, feed, "the endpoint is offered them in the feed's order");
});
