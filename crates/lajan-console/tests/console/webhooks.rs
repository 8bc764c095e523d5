//! Webhook endpoints from the console: an admin creates one (its secret shown once), changes
//! it, turns it off and on, sends a test event, reads its deliveries with their attempts,
//! retries one and rotates the secret; every other role and posts without the CSRF value
//! change nothing.

use crate::browser::{Browser, location, user};
use lajan_domain::Timestamp;
use lajan_domain::user::Role;
use lajan_worker::testing::WebhookReceiver;
use serde_json::Value;

fn secret_on(page: &str) -> String {
    let marker = "class=\"secret wrap\">";
    let start = page.find(marker).unwrap_or_else(|| panic!("no secret on {page}")) + marker.len();
    page[start..].split('<').next().unwrap().to_owned()
}

fn once_of(page: &str) -> String {
    let marker = "name=\"once\" value=\"";
    let start = page.find(marker).unwrap_or_else(|| panic!("no once field on {page}")) + marker.len();
    page[start..].split('"').next().unwrap().to_owned()
}

api_test!(an_admin_looks_after_webhook_endpoints, |app| {
    user(app, None, "admin@example.ht", Role::Admin).await;
    let receiver = WebhookReceiver::start().await;
    let url = receiver.url("/hooks");
    let browser = Browser::signed_in(app, "admin@example.ht").await;
    let page = browser.get("/console/webhooks").await.text().await.unwrap();
    let (once, csrf) = (once_of(&page), browser.csrf().await);

    let bad = [("csrf", csrf.as_str()), ("once", &once), ("url", "ftp://example.ht/x"), ("events", "invoice.*")];
    let r = browser.post("/console/webhooks", &bad).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap().replace("&#x2f;", "/");
    assert!(page.contains("value=\"ftp://example.ht/x\""), "what was typed stays: {page}");
    let fields =
        [("csrf", csrf.as_str()), ("once", &once), ("url", &url), ("events", "invoice.*"), ("description", "CRM")];
    let r = browser.post("/console/webhooks", &fields).await;
    assert_eq!(r.status(), 201);
    let secret = secret_on(&r.text().await.unwrap());
    assert!(secret.starts_with("whsec_"), "{secret}");
    let listed: Value = app.get("/v1/webhook-endpoints").await.json().await.unwrap();
    assert_eq!(listed["data"].as_array().unwrap().len(), 1, "one endpoint");
    let endpoint = listed["data"][0].clone();
    let id = endpoint["id"].as_str().unwrap().to_owned();
    assert_eq!(endpoint["events"], serde_json::json!(["invoice.*"]));
    let again = browser.post("/console/webhooks", &fields).await;
    assert_eq!(location(&again), format!("/console/webhooks/{id}"), "posted twice: to the endpoint, no secret again");

    let page_path = format!("/console/webhooks/{id}");
    let off = [("csrf", csrf.as_str()), ("url", &url), ("events", "*"), ("description", "CRM")];
    let r = browser.post(&page_path, &off).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, page_path.clone()));
    let changed: Value = app.get(&format!("/v1/webhook-endpoints/{id}")).await.json().await.unwrap();
    assert_eq!(
        (changed["enabled"].as_bool(), changed["events"][0].as_str()),
        (Some(false), Some("*")),
        "unticked is off"
    );
    let on = [("csrf", csrf.as_str()), ("url", &url), ("events", "*"), ("description", "CRM"), ("enabled", "on")];
    assert_eq!(browser.post(&page_path, &on).await.status(), 303);
    let no_events = [("csrf", csrf.as_str()), ("url", &url), ("enabled", "on")];
    assert_eq!(browser.post(&page_path, &no_events).await.status(), 400, "an endpoint needs events");

    let r = browser.post(&format!("{page_path}/test"), &[("csrf", &csrf)]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, page_path.clone()));
    assert_eq!(app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap(), 1);
    assert_eq!(receiver.received()[0].json()["type"], "webhook_endpoint.test");
    let page = browser.get(&page_path).await.text().await.unwrap();
    let marker = format!("href=\"{page_path}/deliveries/");
    let start = page.find(&marker).expect("the delivery is listed") + marker.len();
    let delivery = page[start..].split('"').next().unwrap().to_owned();
    let detail = browser.get(&format!("{page_path}/deliveries/{delivery}")).await.text().await.unwrap();
    assert!(detail.contains("HTTP 200") && detail.contains("delivered"), "its attempt: {detail}");
    let r = browser.post(&format!("{page_path}/deliveries/{delivery}/retry"), &[("csrf", &csrf)]).await;
    assert_eq!(r.status(), 303);
    assert_eq!(app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap(), 1, "sent again");
    assert_eq!(receiver.received().len(), 2);

    let r = browser.post(&format!("{page_path}/rotate-secret"), &[("csrf", &csrf)]).await;
    assert_eq!(r.status(), 200);
    let rotated = secret_on(&r.text().await.unwrap());
    assert!(rotated.starts_with("whsec_") && rotated != secret);
    assert!(!browser.get(&page_path).await.text().await.unwrap().contains(&rotated), "shown once");
    assert_eq!(browser.get("/console/webhooks/we_nope").await.status(), 404);
});

api_test!(webhook_pages_are_the_admins_and_need_the_csrf_value, |app| {
    let body = serde_json::json!({ "url": "https://example.ht/hooks", "events": ["*"] });
    let endpoint: Value = app.post("/v1/webhook-endpoints", &body).await.json().await.unwrap();
    let id = endpoint["id"].as_str().unwrap();
    for role in [Role::Maker, Role::Approver] {
        let email = format!("{role}@example.ht");
        user(app, None, &email, role).await;
        let browser = Browser::signed_in(app, &email).await;
        assert_eq!(browser.get("/console/webhooks").await.status(), 403, "{role}");
        assert_eq!(browser.get(&format!("/console/webhooks/{id}")).await.status(), 403, "{role}");
        let csrf = browser.csrf().await;
        for path in [format!("/console/webhooks/{id}/test"), format!("/console/webhooks/{id}/rotate-secret")] {
            assert_eq!(browser.post(&path, &[("csrf", &csrf)]).await.status(), 403, "{role}: {path}");
        }
        let off = [("csrf", csrf.as_str()), ("url", "https://example.ht/hooks"), ("events", "*")];
        assert_eq!(browser.post(&format!("/console/webhooks/{id}"), &off).await.status(), 403, "{role}");
    }
    user(app, None, "admin@example.ht", Role::Admin).await;
    let admin = Browser::signed_in(app, "admin@example.ht").await;
    let off = [("csrf", "forged"), ("url", "https://example.ht/hooks"), ("events", "*")];
    assert_eq!(admin.post(&format!("/console/webhooks/{id}"), &off).await.status(), 403);
    let still: Value = app.get(&format!("/v1/webhook-endpoints/{id}")).await.json().await.unwrap();
    assert_eq!(still["enabled"], true);
    let deliveries: Value = app.get(&format!("/v1/webhook-endpoints/{id}/deliveries")).await.json().await.unwrap();
    assert_eq!(deliveries["data"].as_array().unwrap().len(), 0, "no test event was sent");
});
