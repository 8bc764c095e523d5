//! Webhook endpoints and deliveries: a delivery per subscribed endpoint, written with its event
//! and only with it; claims under a lease; every attempt recorded.

use super::{approved_payout, ev, payout, starts, tenant};
use lajan_domain::id::IdKind;
use lajan_domain::pagination::PageRequest;
use lajan_domain::payout::ApprovalStatus;
use lajan_domain::webhook::{
    Delivery, DeliveryAttempt, DeliveryOutcome, DeliveryStatus, EndpointPatch, WebhookEndpoint,
};
use lajan_domain::{Environment, Tenant, Timestamp};
use lajan_store::contract;
use lajan_store::{Answered, ClaimLimits, DueDelivery, NewEvent, Store, StoreError};
use std::sync::Arc;

async fn endpoint(store: &Arc<dyn Store>, tenant: &Tenant, events: &[&str], enabled: bool) -> WebhookEndpoint {
    let now = Timestamp::now();
    let e = WebhookEndpoint {
        id: IdKind::WebhookEndpoint.generate(),
        url: format!("https://example.com/hooks/{}", events.join(",")),
        events: events.iter().map(|e| (*e).to_owned()).collect(),
        description: Some("test".into()),
        enabled,
        secret: "whsec_c2VjcmV0".into(),
        created_at: now,
        updated_at: now,
    };
    store.create_webhook_endpoint(tenant, &e, None).await.unwrap()
}

/// The `webhook_endpoint.disabled` event, as the dispatcher builds it (here: id and state).
fn disabled(e: &WebhookEndpoint) -> NewEvent {
    NewEvent {
        event_type: "webhook_endpoint.disabled",
        object: serde_json::json!({ "id": e.id, "enabled": e.enabled }),
    }
}

fn attempt(status: Option<i64>) -> DeliveryAttempt {
    DeliveryAttempt {
        attempt_number: 0,
        at: Timestamp::now(),
        http_status: status,
        error: status.is_none().then(|| "connection refused".to_owned()),
        duration_ms: 12,
        response_body: status.map(|s| format!("status {s}")),
    }
}

/// Records one answer to `due`, sent under `lease`, and reads the delivery back.
async fn finish(
    store: &Arc<dyn Store>,
    due: &DueDelivery,
    lease: &str,
    attempt: DeliveryAttempt,
    outcome: DeliveryOutcome,
) -> Delivery {
    let answer = Answered { delivery_id: due.delivery.id.clone(), lease: lease.to_owned(), attempt, outcome };
    store.finish_deliveries(&[answer], &disabled).await.unwrap();
    store.get_delivery(&due.tenant, &due.delivery.endpoint_id, &due.delivery.id).await.unwrap().unwrap()
}

contract!(an_event_is_delivered_to_each_enabled_endpoint_subscribed_to_it, |store| {
    let t = tenant(&store).await;
    let all = endpoint(&store, &t, &["*"], true).await;
    let area = endpoint(&store, &t, &["payout.*", "invoice.paid"], true).await;
    endpoint(&store, &t, &["invoice.paid"], true).await;
    endpoint(&store, &t, &["*"], false).await;
    endpoint(&store, &Tenant::new(t.org_id.clone(), Environment::Live), &["*"], true).await;
    let other = lajan_store::testing::test_tenant(&store).await;
    endpoint(&store, &other, &["*"], true).await;

    let got = store.get_webhook_endpoint(&t, &area.id).await.unwrap().unwrap();
    assert_eq!(got.events, ["invoice.paid", "payout.*"]);
    assert!(store.get_webhook_endpoint(&other, &area.id).await.unwrap().is_none(), "another tenant's");
    assert_eq!(store.list_webhook_endpoints(&t, PageRequest::default()).await.unwrap().total, 4);

    approved_payout(&store, &t).await;
    let due = store.claim_deliveries(Timestamp::now(), 60_000, &ClaimLimits::up_to(100)).await.unwrap();
    let mut to: Vec<&str> = due.iter().map(|d| d.delivery.endpoint_id.as_str()).collect();
    to.sort_unstable();
    let mut expected = [all.id.as_str(), area.id.as_str()];
    expected.sort_unstable();
    assert_eq!(to, expected);
    for d in &due {
        assert_eq!((d.delivery.event_type.as_str(), d.delivery.status), ("payout.created", DeliveryStatus::Pending));
        assert_eq!(d.tenant, t);
        assert!(d.event_data.contains("\"object\""), "{}", d.event_data);
        assert_eq!(d.secrets, ["whsec_c2VjcmV0"]);
    }
});

contract!(a_rolled_back_change_leaves_no_delivery, |store| {
    let t = tenant(&store).await;
    endpoint(&store, &t, &["*"], true).await;
    store.fail_next_commit();
    let p = payout(ApprovalStatus::Approved, "key_a");
    let failed = store.create_payout(&t, &p, &starts(ApprovalStatus::Approved, &["payout.created"]), &ev, None).await;
    assert!(failed.is_err(), "the injected failure stops the change");
    assert!(store.claim_deliveries(Timestamp::now(), 60_000, &ClaimLimits::up_to(100)).await.unwrap().is_empty());
});

contract!(deliveries_are_claimed_under_a_lease_and_every_attempt_is_kept, |store| {
    let t = tenant(&store).await;
    let e = endpoint(&store, &t, &["payout.created"], true).await;
    approved_payout(&store, &t).await;
    let now = Timestamp::now();
    let first = store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(first.len(), 1);
    assert!(store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap().is_empty(), "leased");
    let id = first[0].delivery.id.clone();
    let retry_at = now.plus_millis(5_000);
    let d = finish(&store, &first[0], &first[0].lease, attempt(Some(500)), DeliveryOutcome::Retry { retry_at }).await;
    assert_eq!((d.status, d.attempts, d.next_attempt_at), (DeliveryStatus::Pending, 1, retry_at));
    assert!(store.claim_deliveries(now.plus_millis(1_000), 60_000, &ClaimLimits::up_to(10)).await.unwrap().is_empty());
    let second = store.claim_deliveries(retry_at, 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(second.len(), 1);
    // The first claim's late answer is kept as an attempt and moves nothing.
    let late = finish(&store, &first[0], &first[0].lease, attempt(None), DeliveryOutcome::Failed).await;
    assert_eq!(late.status, DeliveryStatus::Pending);
    let done = finish(&store, &second[0], &second[0].lease, attempt(Some(204)), DeliveryOutcome::Delivered).await;
    assert_eq!(done.status, DeliveryStatus::Delivered);
    let attempts = store.delivery_attempts(&t, &id).await.unwrap();
    let seen: Vec<_> = attempts.iter().map(|a| (a.attempt_number, a.http_status)).collect();
    assert_eq!(seen, [(1, Some(500)), (2, None), (3, Some(204))]);
    assert_eq!(attempts[1].error.as_deref(), Some("connection refused"));
    assert!(
        store
            .claim_deliveries(retry_at.plus_millis(600_000), 60_000, &ClaimLimits::up_to(10))
            .await
            .unwrap()
            .is_empty()
    );

    // Deleting the endpoint takes its deliveries with it.
    store.delete_webhook_endpoint(&t, &e.id).await.unwrap();
    assert!(store.get_webhook_endpoint(&t, &e.id).await.unwrap().is_none());
    assert!(store.delivery_attempts(&t, &id).await.unwrap().is_empty());
    assert!(matches!(store.delete_webhook_endpoint(&t, &e.id).await, Err(StoreError::NotFound)));
});

contract!(an_update_changes_only_what_it_names_and_resubscribes, |store| {
    let t = tenant(&store).await;
    let e = endpoint(&store, &t, &["*"], true).await;
    let at = Timestamp::from_millis(e.updated_at.as_millis() + 5);
    let patch = EndpointPatch { events: Some(vec!["payout.*".into()]), enabled: Some(false), ..Default::default() };
    let changed = store.update_webhook_endpoint(&t, &e.id, &patch, at).await.unwrap();
    assert_eq!(
        (changed.events.as_slice(), changed.enabled, changed.url.as_str()),
        (&["payout.*".to_owned()][..], false, e.url.as_str())
    );
    assert_eq!(
        store.get_webhook_endpoint(&t, &e.id).await.unwrap(),
        Some(changed),
        "what it answers is what it stored"
    );

    let back_on = EndpointPatch { enabled: Some(true), description: Some(None), ..Default::default() };
    let changed = store.update_webhook_endpoint(&t, &e.id, &back_on, at).await.unwrap();
    assert!(changed.enabled && changed.description.is_none());
    approved_payout(&store, &t).await;
    assert_eq!(
        store.claim_deliveries(Timestamp::now(), 60_000, &ClaimLimits::up_to(100)).await.unwrap().len(),
        1,
        "payout.* still matches"
    );

    let other = lajan_store::testing::test_tenant(&store).await;
    let refused = store.update_webhook_endpoint(&other, &e.id, &back_on, at).await;
    assert!(matches!(refused, Err(StoreError::NotFound)), "{refused:?}");
});

contract!(a_test_event_goes_to_its_endpoint_alone, |store| {
    let t = tenant(&store).await;
    let target = endpoint(&store, &t, &["invoice.paid"], true).await;
    endpoint(&store, &t, &["*"], true).await;
    let test_event = |e: &WebhookEndpoint| NewEvent {
        event_type: "webhook_endpoint.test",
        object: serde_json::json!({ "id": e.id }),
    };
    let delivery = store.send_test_event(&t, &target.id, Timestamp::now(), &test_event, None).await.unwrap();
    assert_eq!(
        (delivery.endpoint_id.as_str(), delivery.event_type.as_str()),
        (target.id.as_str(), "webhook_endpoint.test")
    );
    let due = store.claim_deliveries(Timestamp::now(), 60_000, &ClaimLimits::up_to(100)).await.unwrap();
    assert_eq!(
        due.iter().map(|d| d.delivery.id.as_str()).collect::<Vec<_>>(),
        [delivery.id.as_str()],
        "not fanned out"
    );
    assert!(due[0].event_data.contains(&target.id), "{}", due[0].event_data);

    let off = EndpointPatch { enabled: Some(false), ..Default::default() };
    store.update_webhook_endpoint(&t, &target.id, &off, Timestamp::now()).await.unwrap();
    let refused = store.send_test_event(&t, &target.id, Timestamp::now(), &test_event, None).await;
    assert!(matches!(&refused, Err(StoreError::Rejected(i)) if i.code == "endpoint_disabled"), "{refused:?}");
    let other = lajan_store::testing::test_tenant(&store).await;
    let refused = store.send_test_event(&other, &target.id, Timestamp::now(), &test_event, None).await;
    assert!(matches!(refused, Err(StoreError::NotFound)), "{refused:?}");
});

contract!(claims_skip_busy_and_disabled_endpoints_and_releases_give_back, |store| {
    let t = tenant(&store).await;
    let a = endpoint(&store, &t, &["*"], true).await;
    let b = endpoint(&store, &t, &["*"], true).await;
    approved_payout(&store, &t).await;
    let now = Timestamp::now();
    let only_b = store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10).except(&a.id)).await.unwrap();
    assert_eq!(only_b.iter().map(|d| d.delivery.endpoint_id.as_str()).collect::<Vec<_>>(), [b.id.as_str()]);
    let off = EndpointPatch { enabled: Some(false), ..Default::default() };
    store.update_webhook_endpoint(&t, &a.id, &off, now).await.unwrap();
    assert!(
        store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap().is_empty(),
        "a disabled endpoint's deliveries wait"
    );

    store.release_deliveries(&only_b[0].lease, &[only_b[0].delivery.id.clone()], now).await.unwrap();
    store.release_deliveries("lease_other", &[only_b[0].delivery.id.clone()], now.plus_millis(9)).await.unwrap();
    let again = store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(again.len(), 1, "released, and due at once");
    let on = EndpointPatch { enabled: Some(true), ..Default::default() };
    store.update_webhook_endpoint(&t, &a.id, &on, now).await.unwrap();
    assert_eq!(
        store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap().len(),
        1,
        "re-enabled: its delivery goes"
    );
});

contract!(a_claim_takes_each_endpoint_up_to_its_free_slots, |store| {
    let t = tenant(&store).await;
    let a = endpoint(&store, &t, &["*"], true).await;
    let b = endpoint(&store, &t, &["*"], true).await;
    for _ in 0..3 {
        approved_payout(&store, &t).await;
    }
    let now = Timestamp::now();
    let limits = ClaimLimits { total: 10, per_endpoint: 2, in_flight: [(a.id.clone(), 1)].into() };
    let got = store.claim_deliveries(now, 60_000, &limits).await.unwrap();
    let count = |of: &str| got.iter().filter(|d| d.delivery.endpoint_id == of).count();
    assert_eq!((count(&a.id), count(&b.id)), (1, 2), "each endpoint up to its free slots");
    let capped = ClaimLimits { total: 1, ..ClaimLimits::up_to(5) };
    assert_eq!(store.claim_deliveries(now, 60_000, &capped).await.unwrap().len(), 1, "and no more than the total");
    let rest = store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(rest.len(), 2, "what the quotas left, and nothing claimed twice");
});

contract!(answers_recorded_together_move_each_delivery_as_if_one_by_one, |store| {
    let t = tenant(&store).await;
    let a = endpoint(&store, &t, &["payout.*"], true).await;
    let b = endpoint(&store, &t, &["payout.*"], true).await;
    approved_payout(&store, &t).await;
    approved_payout(&store, &t).await;
    let now = Timestamp::now();
    // A lease that runs out at once: the second claim takes everything again.
    let old = store.claim_deliveries(now, 0, &ClaimLimits::up_to(10)).await.unwrap();
    let new = store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!((old.len(), new.len()), (4, 4));
    let of = |e: &WebhookEndpoint| new.iter().filter(|d| d.delivery.endpoint_id == e.id).collect::<Vec<_>>();
    let (a_due, b_due) = (of(&a), of(&b));
    let answer = |due: &DueDelivery, lease: &str, status: Option<i64>, outcome| Answered {
        delivery_id: due.delivery.id.clone(),
        lease: lease.to_owned(),
        attempt: attempt(status),
        outcome,
    };
    let retry = DeliveryOutcome::Retry { retry_at: now.plus_millis(5_000) };
    let answers = [
        answer(a_due[0], &old[0].lease, None, DeliveryOutcome::Failed),
        answer(a_due[0], &new[0].lease, Some(204), DeliveryOutcome::Delivered),
        answer(a_due[1], &new[0].lease, Some(500), retry.clone()),
        answer(b_due[0], &new[0].lease, Some(500), retry),
        answer(b_due[1], &new[0].lease, Some(410), DeliveryOutcome::Gone),
    ];
    store.finish_deliveries(&answers, &disabled).await.unwrap();
    let attempts = store.delivery_attempts(&t, &a_due[0].delivery.id).await.unwrap();
    let seen: Vec<_> = attempts.iter().map(|a| (a.attempt_number, a.http_status)).collect();
    assert_eq!(seen, [(1, None), (2, Some(204))], "the late answer is kept and moves nothing");
    let state = async |due: &DueDelivery| {
        let d = store.get_delivery(&t, &due.delivery.endpoint_id, &due.delivery.id).await.unwrap().unwrap();
        (d.status, d.attempts)
    };
    assert_eq!(state(a_due[0]).await, (DeliveryStatus::Delivered, 2));
    assert_eq!(state(a_due[1]).await, (DeliveryStatus::Pending, 1));
    assert_eq!(state(b_due[1]).await, (DeliveryStatus::Failed, 1));
    assert!(store.get_webhook_endpoint(&t, &a.id).await.unwrap().unwrap().enabled);
    assert!(!store.get_webhook_endpoint(&t, &b.id).await.unwrap().unwrap().enabled, "its 410 disabled it");
    let later = store.claim_deliveries(now.plus_millis(5_000), 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(
        later.iter().map(|d| d.delivery.id.as_str()).collect::<Vec<_>>(),
        [a_due[1].delivery.id.as_str()],
        "the retry comes due; the disabled endpoint's waits"
    );
});

contract!(a_gone_endpoint_is_disabled_with_its_event, |store| {
    let t = tenant(&store).await;
    let gone = endpoint(&store, &t, &["payout.created"], true).await;
    let watcher = endpoint(&store, &t, &["webhook_endpoint.*"], true).await;
    approved_payout(&store, &t).await;
    approved_payout(&store, &t).await;
    let due = store.claim_deliveries(Timestamp::now(), 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(due.len(), 2);
    let d = finish(&store, &due[0], &due[0].lease, attempt(Some(410)), DeliveryOutcome::Gone).await;
    assert_eq!((d.status, d.attempts), (DeliveryStatus::Failed, 1));
    assert!(!store.get_webhook_endpoint(&t, &gone.id).await.unwrap().unwrap().enabled);
    let again = finish(&store, &due[1], &due[1].lease, attempt(Some(410)), DeliveryOutcome::Gone).await;
    assert_eq!(again.status, DeliveryStatus::Failed, "the second 410 fails its delivery, and says nothing more");
    let told = store.claim_deliveries(Timestamp::now(), 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(told.len(), 1, "the event goes to the other endpoint, not the gone one");
    assert_eq!(
        (told[0].delivery.endpoint_id.as_str(), told[0].delivery.event_type.as_str()),
        (watcher.id.as_str(), "webhook_endpoint.disabled")
    );
    assert!(told[0].event_data.contains("\"enabled\":false"), "{}", told[0].event_data);
});

contract!(deliveries_are_listed_by_status_and_retried_with_their_event, |store| {
    let t = tenant(&store).await;
    let e = endpoint(&store, &t, &["*"], true).await;
    approved_payout(&store, &t).await;
    approved_payout(&store, &t).await;
    let now = Timestamp::now();
    let due = store.claim_deliveries(now, 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(due.len(), 2);
    finish(&store, &due[0], &due[0].lease, attempt(Some(500)), DeliveryOutcome::Failed).await;
    let all = store.list_deliveries(&t, &e.id, None, PageRequest::default()).await.unwrap();
    assert_eq!(all.total, 2);
    let failed = store.list_deliveries(&t, &e.id, Some(DeliveryStatus::Failed), PageRequest::default()).await.unwrap();
    assert_eq!(failed.items.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), [due[0].delivery.id.as_str()]);
    let other = lajan_store::testing::test_tenant(&store).await;
    assert!(matches!(
        store.list_deliveries(&other, &e.id, None, PageRequest::default()).await,
        Err(StoreError::NotFound)
    ));
    assert!(store.get_delivery(&other, &e.id, &due[0].delivery.id).await.unwrap().is_none());
    assert!(
        store.get_delivery(&t, "we_other", &due[0].delivery.id).await.unwrap().is_none(),
        "under its own endpoint only"
    );

    let later = now.plus_millis(1_000);
    let retried = store.retry_delivery(&t, &e.id, &due[0].delivery.id, later, None).await.unwrap();
    assert_eq!(
        (retried.status, retried.next_attempt_at, retried.event_id.as_str()),
        (DeliveryStatus::Pending, later, due[0].delivery.event_id.as_str())
    );
    let in_flight = store.retry_delivery(&t, &e.id, &due[1].delivery.id, later, None).await.unwrap();
    assert_eq!(in_flight.next_attempt_at, due[1].delivery.next_attempt_at, "one being sent is left to finish");
    let again = store.claim_deliveries(later, 60_000, &ClaimLimits::up_to(10)).await.unwrap();
    assert_eq!(again.iter().map(|d| d.delivery.id.as_str()).collect::<Vec<_>>(), [due[0].delivery.id.as_str()]);
    assert!(matches!(
        store.retry_delivery(&other, &e.id, &due[0].delivery.id, later, None).await,
        Err(StoreError::NotFound)
    ));
});

contract!(a_rotated_out_secret_signs_beside_the_new_one_until_its_time, |store| {
    let t = tenant(&store).await;
    let e = endpoint(&store, &t, &["*"], true).await;
    let now = Timestamp::now();
    let until = now.plus_millis(86_400_000);
    let rotated = store.rotate_webhook_secret(&t, &e.id, "whsec_bmV3", now, until, None).await.unwrap();
    assert_eq!(rotated.secret, "whsec_bmV3");
    approved_payout(&store, &t).await;
    approved_payout(&store, &t).await;
    let inside = store.claim_deliveries(Timestamp::now(), 60_000, &ClaimLimits::up_to(1)).await.unwrap();
    assert_eq!(inside[0].secrets, ["whsec_bmV3", "whsec_c2VjcmV0"], "the new one first, then the old");
    let after = store.claim_deliveries(until, 60_000, &ClaimLimits::up_to(1)).await.unwrap();
    assert_eq!(after[0].secrets, ["whsec_bmV3"]);
    let twice = store.rotate_webhook_secret(&t, &e.id, "whsec_dGhpcmQ=", now, until, None).await.unwrap();
    assert_eq!(twice.secret, "whsec_dGhpcmQ=");
    let other = lajan_store::testing::test_tenant(&store).await;
    let refused = store.rotate_webhook_secret(&other, &e.id, "whsec_eA==", now, until, None).await;
    assert!(matches!(refused, Err(StoreError::NotFound)), "{refused:?}");
});

contract!(five_days_of_failures_without_a_success_disable_the_endpoint, |store| {
    let t = tenant(&store).await;
    let e = endpoint(&store, &t, &["payout.*"], true).await;
    let watcher = endpoint(&store, &t, &["webhook_endpoint.disabled"], true).await;
    let t0 = Timestamp::now();
    let day = 86_400_000;
    let answer_at = |status: Option<i64>, at: Timestamp| DeliveryAttempt { at, ..attempt(status) };
    let fail_at = |at: Timestamp| DeliveryOutcome::Retry { retry_at: at.plus_millis(1) };
    let send = async |status: Option<i64>, at: Timestamp| {
        approved_payout(&store, &t).await;
        let due = store.claim_deliveries(at, 60_000, &ClaimLimits::up_to(10).except(&watcher.id)).await.unwrap();
        for d in &due {
            let outcome = if status == Some(200) { DeliveryOutcome::Delivered } else { fail_at(at) };
            finish(&store, d, &d.lease, answer_at(status, at), outcome).await;
        }
        store.get_webhook_endpoint(&t, &e.id).await.unwrap().unwrap().enabled
    };
    assert!(send(Some(500), t0).await);
    assert!(send(Some(200), t0.plus_millis(day)).await, "a success");
    assert!(send(Some(500), t0.plus_millis(2 * day)).await, "the silence starts again here");
    assert!(send(None, t0.plus_millis(6 * day)).await, "four days of failures are not five");
    assert!(!send(Some(503), t0.plus_millis(7 * day)).await, "five days without a success");
    let told = store.claim_deliveries(t0.plus_millis(8 * day), 60_000, &ClaimLimits::up_to(100)).await.unwrap();
    assert_eq!(told.iter().filter(|d| d.delivery.event_type == "webhook_endpoint.disabled").count(), 1);

    let on = EndpointPatch { enabled: Some(true), ..Default::default() };
    store.update_webhook_endpoint(&t, &e.id, &on, t0.plus_millis(8 * day)).await.unwrap();
    assert!(send(Some(500), t0.plus_millis(9 * day)).await, "enabling again starts the count over");
});
