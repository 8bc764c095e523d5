//! The guide's sample payload for each event type (`docs/webhooks.md`, "Sample payloads") is a
//! real event's: this test makes one event of every type through the router, as an integrator's
//! month would, and checks that each sample has its event's shape (the same keys at every
//! level). `UPDATE_SNAPSHOTS=1` writes the samples from the events it made. The same month of
//! events shows that each type names the maker the audit trail promises.

use crate::registration;
use lajan_domain::Timestamp;
use lajan_domain::event::EVENT_TYPES;
use lajan_ledger::sandbox::magic;
use lajan_testkit::{TestApp, WALLET, shape};
use lajan_worker::testing::WebhookReceiver;
use serde_json::{Value, json};

const GUIDE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/webhooks.md");
const BEGIN: &str = "<!-- samples: begin (written by crates/lajan-api/tests/api/webhook_samples.rs) -->";
const END: &str = "<!-- samples: end -->";

async fn ok(r: reqwest::Response) -> Value {
    let status = r.status();
    let body: Value = r.json().await.unwrap_or_default();
    assert!(status.is_success(), "{status}: {body}");
    body
}

fn intent_of(resource: &Value) -> String {
    let url = resource["paymentLink"]["url"].as_str().or(resource["url"].as_str()).expect("a payment page");
    url.rsplit('/').next().unwrap().to_owned()
}

async fn pay(app: &TestApp, resource: &Value) {
    let path = format!("/v1/sandbox/payment-intents/{}/pay", intent_of(resource));
    ok(app.post(&path, &json!({})).await).await;
    app.workers().apply_payments_once().await.unwrap();
}

/// A disbursement of `items`, submitted, then approved and executed or rejected.
async fn disburse(app: &TestApp, name: &str, wallets: &[&str], approve: bool) {
    let items: Vec<Value> = wallets
        .iter()
        .enumerate()
        .map(|(i, w)| json!({ "walletAccountId": w, "assetAmount": 15, "externalId": format!("{name}-{i}") }))
        .collect();
    let d =
        ok(app.post("/v1/disbursements", &json!({ "name": name, "assetCode": "USDC", "items": items })).await).await;
    let path = |verb: &str| format!("/v1/disbursements/{}/{verb}", d["id"].as_str().unwrap());
    ok(app.post(&path("submit"), &json!({})).await).await;
    if approve {
        ok(app.post(&path("approve"), &json!({})).await).await;
        app.drain_payouts().await;
    } else {
        ok(app.post(&path("reject"), &json!({ "reason": "Wrong month" })).await).await;
    }
}

/// One event of every type, in one sandbox organization.
async fn make_every_event(app: &TestApp) {
    let cid = |c: &Value| c["id"].as_str().unwrap().to_owned();
    let client = app.reachable_client().await;
    ok(app.put(&format!("/v1/clients/{}", cid(&client)), &json!({ "phoneNumber": "+50937001234" })).await).await;
    let leaving = app.client("Jean", "Baptiste").await;
    ok(app.delete(&format!("/v1/clients/{}", cid(&leaving))).await).await;

    let paid = app.invoice(&cid(&client), json!({ "sendImmediately": true })).await;
    app.http.get(app.url(&format!("/pay/{}", intent_of(&paid)))).send().await.unwrap();
    pay(app, &paid).await;
    app.invoice(&cid(&client), json!({ "dueDate": "2020-01-01", "sendImmediately": true })).await;
    app.workers().mark_overdue_once(Timestamp::now()).await.unwrap();
    // Three days before its due date, at 09:00 in the organization's timezone (UTC here).
    let reminded = app.invoice(&cid(&client), json!({ "dueDate": "2030-01-31", "sendImmediately": true })).await;
    let three_days_before = Timestamp::parse_rfc3339("2030-01-28T09:00:00Z").unwrap();
    assert_eq!(app.workers().send_reminders_once(three_days_before).await.unwrap(), 1, "{}", reminded["id"]);
    // A payment counted by mistake (by the ledger here, so that each type has one maker), reversed.
    let owing = app.invoice(&cid(&client), json!({ "sendImmediately": true })).await;
    pay(app, &owing).await;
    let owing_payments = format!("/v1/invoices/{}/payments", owing["id"].as_str().unwrap());
    let counted = ok(app.get(&owing_payments).await).await;
    let undo = format!("{owing_payments}/{}/reverse", counted["data"][0]["id"].as_str().unwrap());
    ok(app.post(&undo, &json!({ "reason": "Entered on the wrong invoice" })).await).await;
    // A late fee waived, then the waiver withdrawn.
    let notes = format!("/v1/invoices/{}/credit-notes", owing["id"].as_str().unwrap());
    let waived = ok(app.post(&notes, &json!({ "amount": 25, "reason": "waiver", "memo": "Late fee" })).await).await;
    ok(app.post(&format!("{notes}/{}/void", waived["id"].as_str().unwrap()), &json!({})).await).await;
    // A text to the sandbox's failing test number ends as a provider's refusal does.
    let refused = json!({ "firstName": "Paul", "lastName": "Michel",
                          "phoneNumber": lajan_domain::message::SANDBOX_FAILING_PHONE });
    let refused = ok(app.post("/v1/clients", &refused).await).await;
    app.invoice(&cid(&refused), json!({ "sendImmediately": true })).await;
    let voided = app.invoice(&cid(&client), json!({})).await;
    ok(app.post(&format!("/v1/invoices/{}/void", voided["id"].as_str().unwrap()), &json!({})).await).await;

    let link =
        ok(app.post("/v1/payment-links", &json!({ "amount": 250, "description": "Membership fee" })).await).await;
    pay(app, &link).await;
    let closed = ok(app.post("/v1/payment-links", &json!({ "amount": 75, "description": "Late fee" })).await).await;
    ok(app.delete(&format!("/v1/payment-links/{}", closed["id"].as_str().unwrap())).await).await;

    let payout = async |wallet: &str| {
        let body = json!({ "walletAccountId": wallet, "assetAmount": 40, "assetCode": "USDC", "memo": "Loan 2231" });
        ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned()
    };
    let sent = payout(WALLET).await;
    ok(app.post(&format!("/v1/payouts/{sent}/approve"), &json!({})).await).await;
    let failing = magic::address("op_underfunded");
    let failed = payout(&failing).await;
    ok(app.post(&format!("/v1/payouts/{failed}/approve"), &json!({})).await).await;
    app.drain_payouts().await;
    ok(app.post(&format!("/v1/payouts/{failed}/retry"), &json!({})).await).await;
    // Sixteen minutes later the retried payout is still unsent (no step ran): delayed.
    let later = lajan_domain::Timestamp::now().plus_millis(16 * 60 * 1000);
    assert_eq!(app.workers().alert_delayed_payouts_once(later).await.unwrap(), 1);
    // A payout to an account that holds no trustline for the asset: held, nothing signed.
    let held = payout(&magic::address("op_no_trust")).await;
    ok(app.post(&format!("/v1/payouts/{held}/approve"), &json!({})).await).await;
    app.drain_payouts().await;
    let refused = payout(WALLET).await;
    ok(app.post(&format!("/v1/payouts/{refused}/reject"), &json!({ "reason": "Duplicate" })).await).await;
    // A payout waiting for a client who never registers, called off.
    let phone_only = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" });
    let ana = ok(app.post("/v1/clients", &phone_only).await).await;
    let body = json!({ "clientId": ana["id"], "assetAmount": 3, "assetCode": "USDC" });
    let waiting = ok(app.post("/v1/payouts", &body).await).await["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/payouts/{waiting}/approve"), &json!({})).await).await;
    assert_eq!(app.workers().send_invitations_once(Timestamp::now()).await.unwrap(), 1, "Ana is invited");
    ok(app.post(&format!("/v1/payouts/{waiting}/cancel"), &json!({})).await).await;
    // A receiver who locks their link with wrong answers, is unlocked, and registers.
    let lisa = json!({ "firstName": "Lisa", "lastName": "Jozèf", "phoneNumber": "+50937000003",
                       "verification": { "type": "pin", "value": "4321" } });
    let (lisa, token) = registration::invited(app, lisa).await;
    registration::submit(app, &token, "code", &[]).await;
    let code = registration::code_in(&registration::last_text(app, &lisa).await);
    registration::submit(app, &token, "confirm", &[("code", &code)]).await;
    for _ in 0..5 {
        registration::submit(app, &token, "verify", &[("answer", "1111")]).await;
    }
    ok(app.post(&format!("/v1/clients/{lisa}/invitation/unlock"), &json!({})).await).await;
    registration::submit(app, &token, "verify", &[("answer", "4321")]).await;
    assert_eq!(registration::submit(app, &token, "wallet", &[("address", WALLET)]).await.status(), 200);

    disburse(app, "March stipends", &[WALLET, WALLET], true).await;
    disburse(app, "March bonuses", &[WALLET, &failing], true).await;
    disburse(app, "March refunds", &[&failing], true).await;
    disburse(app, "April stipends", &[WALLET], false).await;
    ok(app.put("/v1/settings", &json!({ "requireDistinctApprover": true })).await).await;
    // With a second approving key, a relaxation waits; the key that asked cancels it.
    app.key(None, lajan_domain::Environment::Test, &["payouts:approve"]).await;
    let asked = ok(app.put("/v1/settings", &json!({ "requireDistinctApprover": false })).await).await;
    let change = asked["pendingChange"]["id"].as_str().unwrap().to_owned();
    ok(app.post(&format!("/v1/settings/changes/{change}/cancel"), &json!({})).await).await;

    // An endpoint that answers its test event with 410 Gone, and is disabled for it.
    let gone = WebhookReceiver::start().await;
    gone.respond_next(1, 410, &[], "");
    let body = json!({ "url": gone.url("/hooks"), "events": ["webhook_endpoint.test"], "description": "Old CRM" });
    let endpoint = ok(app.post("/v1/webhook-endpoints", &body).await).await;
    ok(app.post(&format!("/v1/webhook-endpoints/{}/test", endpoint["id"].as_str().unwrap()), &json!({})).await).await;
    app.workers().deliver_webhooks_once(Timestamp::now()).await.unwrap();
}

fn render(samples: &[(&str, Value)]) -> String {
    let mut out = String::from(BEGIN);
    out.push('\n');
    for (event_type, event) in samples {
        let pretty = serde_json::to_string_pretty(event).unwrap();
        out.push_str(&format!("\n### `{event_type}`\n\n```json\n{pretty}\n```\n"));
    }
    out.push('\n');
    out.push_str(END);
    out
}

/// The samples the guide shows, by event type.
fn samples_in(guide: &str) -> Vec<(String, Value)> {
    let Some(section) = guide.split(BEGIN).nth(1).and_then(|rest| rest.split(END).next()) else {
        return Vec::new();
    };
    section
        .split("\n### `")
        .skip(1)
        .map(|part| {
            let event_type = part.split('`').next().unwrap().to_owned();
            let json = part.split("```json\n").nth(1).and_then(|rest| rest.split("\n```").next()).unwrap_or("null");
            (event_type.clone(), serde_json::from_str(json).unwrap_or_else(|e| panic!("{event_type}: {e}")))
        })
        .collect()
}

api_test!(the_guides_sample_of_each_event_type_has_a_real_events_shape, |app| {
    make_every_event(app).await;
    let mut samples = Vec::new();
    for event_type in EVENT_TYPES {
        let events = ok(app.get(&format!("/v1/events?type={event_type}&limit=1")).await).await;
        let event = events["data"][0].clone();
        assert!(event.is_object(), "no {event_type} event was made");
        samples.push((*event_type, event));
    }
    let guide = std::fs::read_to_string(GUIDE).unwrap();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        let (before, rest) = guide.split_once(BEGIN).expect("the guide marks where its samples go");
        let after = rest.split_once(END).expect("and where they end").1;
        std::fs::write(GUIDE, format!("{before}{}{after}", render(&samples))).unwrap();
        return;
    }
    let shown = samples_in(&guide);
    let shown_types: Vec<&str> = shown.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(shown_types, EVENT_TYPES, "one sample per event type, in the catalogue's order");
    for ((event_type, real), (_, sample)) in samples.iter().zip(&shown) {
        assert_eq!(
            shape(sample),
            shape(real),
            "the guide's {event_type} sample is not shaped as the event is now: rerun with UPDATE_SNAPSHOTS=1"
        );
    }
});

// Every type of event, made for real, names its maker: the API key for what a request did,
// Lajan for what it did on its own.
api_test!(every_event_type_names_its_maker, |app| {
    make_every_event(app).await;
    let mut makers: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = Default::default();
    for page in 1.. {
        let events = ok(app.get(&format!("/v1/events?limit=100&page={page}")).await).await;
        let events = events["data"].as_array().unwrap().clone();
        for e in &events {
            let actor = &e["actor"];
            let who = match actor["type"].as_str().unwrap() {
                "api_key" if actor["id"] == app.key_id.as_str() => "the key".to_owned(),
                kind => format!("{kind}:{}", actor["id"].as_str().unwrap()),
            };
            makers.entry(e["type"].as_str().unwrap().to_owned()).or_default().insert(who);
        }
        if events.len() < 100 {
            break;
        }
    }
    // What Lajan does on its own: the workers' results, and the payer opening the payment page.
    let by_lajan = [
        // Sent by the schedule here; one a person asks for names them.
        ("client.invited", "system:worker"),
        // The receiver, on the registration page.
        ("client.registered", "system:registration_page"),
        ("client.verification_locked", "system:registration_page"),
        ("disbursement.completed", "system:worker"),
        ("disbursement.failed", "system:worker"),
        ("disbursement.partially_failed", "system:worker"),
        ("invoice.overdue", "system:worker"),
        ("invoice.paid", "system:worker"),
        ("invoice.payment_received", "system:worker"),
        ("invoice.viewed", "system:payment_page"),
        ("invoice.reminder_sent", "system:worker"),
        // The provider's answers, simulated in the sandbox, as the worker records them live.
        ("message.delivered", "system:worker"),
        ("message.failed", "system:worker"),
        ("message.sent", "system:worker"),
        ("payment_link.paid", "system:worker"),
        ("payout.completed", "system:worker"),
        ("payout.delayed", "system:worker"),
        ("payout.failed", "system:worker"),
        ("payout.held", "system:worker"),
        ("webhook_endpoint.disabled", "system:worker"),
    ];
    let expected: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = EVENT_TYPES
        .iter()
        .map(|t| {
            let who = by_lajan.iter().find(|(lajan, _)| lajan == t).map_or("the key", |(_, who)| who);
            (t.to_string(), [who.to_owned()].into())
        })
        .collect();
    assert_eq!(makers, expected, "every change made through the API names the key that made it");
});
