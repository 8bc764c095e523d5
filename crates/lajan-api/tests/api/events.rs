//! `GET /v1/events` and `/v1/events/{id}`: filtering, shape, both path forms.

use crate::common::expect_error;
use serde_json::Value;

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
