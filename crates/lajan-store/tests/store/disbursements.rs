//! The disbursements contract: the same cases on SQLite and PostgreSQL.

use lajan_domain::client::WalletAddress;
use lajan_domain::disbursement::{
    Disbursement, DisbursementItem, DisbursementSource, DisbursementStatus, ItemCounts, ItemStatus, submission,
};
use lajan_domain::id::IdKind;
use lajan_domain::pagination::PageRequest;
use lajan_domain::payout::{ApprovalStatus, AssetCode, AttemptResult, PayoutDetail, PayoutType};
use lajan_domain::settings::Settings;
use lajan_domain::{Environment, Tenant, Timestamp};
use lajan_store::Change;
use lajan_store::contract;
use lajan_store::disbursements::{DisbursementEvents, Funds};
use lajan_store::payouts::NewAttempt;
use lajan_store::{EventQuery, NewEvent, Store, StoreError};
use std::sync::Arc;

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

fn d_event(d: &Disbursement) -> NewEvent {
    NewEvent {
        event_type: "disbursement.created",
        object: serde_json::json!({ "id": d.id, "status": d.status.as_str() }),
    }
}

fn p_event(d: &PayoutDetail) -> NewEvent {
    NewEvent { event_type: "payout.created", object: serde_json::json!({ "id": d.payout.id }) }
}

const EVENTS: DisbursementEvents<'static> = DisbursementEvents { disbursement: &d_event, payout: &p_event };

/// A draft of `amounts` (cents) in native XLM, so no issuer is involved.
fn draft(amounts: &[i64]) -> (Disbursement, Vec<DisbursementItem>) {
    let now = Timestamp::now();
    let items: Vec<DisbursementItem> = amounts
        .iter()
        .zip(1u32..)
        .map(|(amount, row)| DisbursementItem {
            id: IdKind::DisbursementItem.generate(),
            row,
            external_id: Some(format!("ext-{row}")),
            client_id: None,
            wallet_account_id: Some(WalletAddress::parse(WALLET).unwrap()),
            asset_amount: *amount,
            memo: None,
        })
        .collect();
    let d = Disbursement {
        id: IdKind::Disbursement.generate(),
        name: "June".into(),
        asset_code: AssetCode::parse("XLM").unwrap(),
        asset_issuer: None,
        status: DisbursementStatus::Draft,
        source: DisbursementSource::Json,
        item_count: items.len() as u64,
        total_amount: amounts.iter().sum(),
        amount_sent: 0,
        counts: ItemCounts::default(),
        created_by_key: "key_a".into(),
        submitted_by_key: None,
        approved_by_key: None,
        reject_reason: None,
        created_at: now,
        updated_at: now,
        submitted_at: None,
        approved_at: None,
    };
    (d, items)
}

fn funds(cents: i64) -> Funds {
    Funds::Observed { balance: Some(cents), at: Timestamp::now() }
}

async fn submitted(store: &Arc<dyn Store>, t: &Tenant, amounts: &[i64]) -> Disbursement {
    let (d, items) = draft(amounts);
    store.create_disbursement(t, &d, &items, &[], &d_event, None).await.unwrap();
    let rule = |_: &Settings| submission(true);
    store.submit_disbursement(&d.id, "key_a", &rule, None, Change::unkeyed(t, Timestamp::now(), &EVENTS)).await.unwrap()
}

async fn events(store: &Arc<dyn Store>, t: &Tenant, event_type: &str) -> u64 {
    let q = EventQuery { event_type: Some(event_type.into()), ..Default::default() };
    store.list_events(t, &q).await.unwrap().total
}

contract!(a_draft_submits_into_payouts_whose_outcomes_roll_up, |store| {
    let t = lajan_store::testing::test_tenant(&store).await;
    let (d, items) = draft(&[1_000, 2_000, 3_000]);
    let created = store.create_disbursement(&t, &d, &items, &[], &d_event, None).await.unwrap();
    assert_eq!((created.status, created.item_count, created.total_amount), (DisbursementStatus::Draft, 3, 6_000));
    assert_eq!(created.counts, ItemCounts { pending: 3, ..ItemCounts::default() });
    let rule = |_: &Settings| submission(true);
    let s = store
        .submit_disbursement(&d.id, "key_s", &rule, None, Change::unkeyed(&t, Timestamp::now(), &EVENTS))
        .await
        .unwrap();
    assert_eq!((s.status, s.submitted_by_key.as_deref()), (DisbursementStatus::PendingApproval, Some("key_s")));
    let again =
        store.submit_disbursement(&d.id, "key_s", &rule, None, Change::unkeyed(&t, Timestamp::now(), &EVENTS)).await;
    assert!(matches!(again, Err(StoreError::Rejected(e)) if e.code == "cannot_submit"));
    let listed = store.list_disbursement_items(&t, &d.id, None, PageRequest::default()).await.unwrap();
    assert_eq!(listed.total, 3);
    for (item, given) in listed.items.iter().zip(&items) {
        let payout = item.payout.as_ref().expect("a payout per item");
        assert_eq!(payout.id, format!("pyt_{}", &given.id[4..]), "the item's id, with the payout prefix");
        let p = store.get_payout(&t, &payout.id).await.unwrap().unwrap().payout;
        assert_eq!((p.payout_type, p.approval), (PayoutType::Disbursement, ApprovalStatus::Pending));
        assert_eq!((p.disbursement_id.as_deref(), p.asset_amount), (Some(d.id.as_str()), given.asset_amount));
    }
    assert_eq!(events(&store, &t, "payout.created").await, 3);
    // A page past the first starts where the one before it ended, in row order.
    let second = PageRequest::numbered(2, 1);
    let paged = store.list_disbursement_items(&t, &d.id, None, second).await.unwrap();
    let ids: Vec<_> = paged.items.iter().map(|i| i.payout.as_ref().map(|p| p.id.clone())).collect();
    assert_eq!((paged.total, ids), (3, vec![Some(format!("pyt_{}", &items[1].id[4..]))]));

    let a = store
        .approve_disbursement(&d.id, "key_b", funds(6_000), Change::unkeyed(&t, Timestamp::now(), &EVENTS))
        .await
        .unwrap();
    assert_eq!((a.status, a.approved_by_key.as_deref()), (DisbursementStatus::Approved, Some("key_b")));
    let claimed = store.claim_payouts(Timestamp::now(), 60_000, 10, t.env).await.unwrap();
    assert_eq!(claimed.payouts.len(), 3);
    let lease = claimed.lease.as_str();
    let now = store.get_disbursement(&t, &d.id).await.unwrap().unwrap();
    assert_eq!(now.counts, ItemCounts { executing: 3, ..ItemCounts::default() }, "kept by the payouts' triggers");
    for (i, p) in claimed.payouts.iter().enumerate() {
        let attempt = store
            .start_attempt(
                &p.payout.id,
                lease,
                NewAttempt { tx_hash: &format!("{i:064}"), envelope: "{}", channel_account: None },
                Timestamp::now(),
            )
            .await
            .unwrap()
            .unwrap();
        let result = if p.payout.asset_amount == 2_000 {
            AttemptResult::Failed { code: "op_no_trust".into(), message: "no trustline".into() }
        } else {
            AttemptResult::Sent { ledger_seq: 7 }
        };
        store
            .finish_attempt(&p.payout.id, &attempt.id, lease, &result, Change::unkeyed(&t, Timestamp::now(), &p_event))
            .await
            .unwrap();
    }
    let settled = store.get_disbursement(&t, &d.id).await.unwrap().unwrap();
    assert_eq!((settled.counts.sent, settled.counts.failed, settled.amount_sent), (2, 1, 4_000));
    assert_eq!(settled.status, DisbursementStatus::Approved, "rolled up by the worker, not by the payouts");
    assert_eq!(store.running_disbursements().await.unwrap(), vec![(t.clone(), d.id.clone())]);
    let rolled = store.roll_up_disbursement(&t, &d.id, Timestamp::now(), &d_event).await.unwrap();
    assert_eq!(rolled.status, DisbursementStatus::PartiallyFailed);
    assert_eq!(events(&store, &t, "disbursement.partially_failed").await, 1);
    store.roll_up_disbursement(&t, &d.id, Timestamp::now(), &d_event).await.unwrap();
    assert_eq!(
        events(&store, &t, "disbursement.partially_failed").await,
        1,
        "a roll-up that moves nothing records nothing"
    );
    let failed = store.disbursement_report(&t, &d.id, Some(ItemStatus::Failed)).await.unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].payout.as_ref().unwrap().error_code.as_deref(), Some("op_no_trust"));

    let retried = store.retry_failed_disbursement(&d.id, Change::unkeyed(&t, Timestamp::now(), &EVENTS)).await.unwrap();
    assert_eq!((retried.status, retried.counts.pending, retried.counts.failed), (DisbursementStatus::Processing, 1, 0));
    assert_eq!(events(&store, &t, "payout.retried").await, 1);
    assert!(store.running_disbursements().await.unwrap().iter().any(|(_, id)| *id == d.id));
});

contract!(approval_refuses_what_the_balance_cannot_cover_and_changes_nothing, |store| {
    // Live, because only a live balance is an observation (Horizon) that can lag the payouts sent.
    let org = lajan_store::testing::organization(&store, "Acme").await;
    let t = Tenant::new(org.id, Environment::Live);
    let first = submitted(&store, &t, &[4_000]).await;
    store
        .approve_disbursement(&first.id, "key_b", funds(10_000), Change::unkeyed(&t, Timestamp::now(), &EVENTS))
        .await
        .unwrap();
    let second = submitted(&store, &t, &[3_000, 3_001]).await;
    // 10,000 held, 4,000 committed to the first batch's approved payout: 6,000 left for 6,001.
    let refused = store
        .approve_disbursement(&second.id, "key_b", funds(10_000), Change::unkeyed(&t, Timestamp::now(), &EVENTS))
        .await;
    let Err(StoreError::Rejected(e)) = refused else { panic!("{refused:?}") };
    assert_eq!(e.code, "insufficient_balance");
    let shortfall = e.details.iter().find(|d| d.field == "shortfall").map(|d| d.message.as_str());
    assert_eq!(shortfall, Some("0.01"), "{e:?}");
    let unchanged = store.get_disbursement(&t, &second.id).await.unwrap().unwrap();
    assert_eq!((unchanged.status, unchanged.counts.pending), (DisbursementStatus::PendingApproval, 2));
    assert_eq!(events(&store, &t, "disbursement.approved").await, 1);

    // The first batch's payout is sent after the balance was read: still counted, since the
    // reading may not show it yet; with a reading taken after, it no longer is.
    let read_at = Timestamp::now();
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let claimed = store.claim_payouts(Timestamp::now(), 60_000, 10, t.env).await.unwrap();
    let (p, lease) = (&claimed.payouts[0], claimed.lease.as_str());
    let attempt = store
        .start_attempt(
            &p.payout.id,
            lease,
            NewAttempt { tx_hash: &"a".repeat(64), envelope: "{}", channel_account: None },
            Timestamp::now(),
        )
        .await
        .unwrap()
        .unwrap();
    let sent = AttemptResult::Sent { ledger_seq: 3 };
    store
        .finish_attempt(&p.payout.id, &attempt.id, lease, &sent, Change::unkeyed(&t, Timestamp::now(), &p_event))
        .await
        .unwrap();
    let stale = Funds::Observed { balance: Some(10_000), at: read_at };
    let refused =
        store.approve_disbursement(&second.id, "key_b", stale, Change::unkeyed(&t, Timestamp::now(), &EVENTS)).await;
    assert!(matches!(refused, Err(StoreError::Rejected(e)) if e.code == "insufficient_balance"));
    // A reading in the millisecond the payout was sent may predate it: take it strictly after.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let fresh = funds(6_001);
    let approved =
        store.approve_disbursement(&second.id, "key_b", fresh, Change::unkeyed(&t, Timestamp::now(), &EVENTS)).await;
    assert_eq!(approved.unwrap().status, DisbursementStatus::Approved);
    let none = Funds::Observed { balance: None, at: Timestamp::now() };
    let third = submitted(&store, &t, &[1]).await;
    let refused =
        store.approve_disbursement(&third.id, "key_b", none, Change::unkeyed(&t, Timestamp::now(), &EVENTS)).await;
    assert!(matches!(refused, Err(StoreError::Rejected(e)) if e.code == "insufficient_balance"), "no trustline");
});

contract!(two_approvals_never_spend_one_balance, |store| {
    let t = lajan_store::testing::test_tenant(&store).await;
    let a = submitted(&store, &t, &[6_000]).await;
    let b = submitted(&store, &t, &[6_000]).await;
    let approve = |id: String| {
        let (store, t) = (store.clone(), t.clone());
        async move {
            store
                .approve_disbursement(&id, "key_b", funds(10_000), Change::unkeyed(&t, Timestamp::now(), &EVENTS))
                .await
        }
    };
    let (ra, rb) = tokio::join!(approve(a.id.clone()), approve(b.id.clone()));
    let approved = [&ra, &rb].iter().filter(|r| r.is_ok()).count();
    assert_eq!(approved, 1, "{ra:?} {rb:?}");
    assert!(
        [ra, rb].into_iter().any(|r| matches!(r, Err(StoreError::Rejected(e)) if e.code == "insufficient_balance"))
    );
});

contract!(only_a_draft_is_deleted_and_rejection_moves_every_payout, |store| {
    let t = lajan_store::testing::test_tenant(&store).await;
    let (d, items) = draft(&[1, 2]);
    store.create_disbursement(&t, &d, &items, &[], &d_event, None).await.unwrap();
    store.delete_disbursement(&t, &d.id).await.unwrap();
    assert!(store.get_disbursement(&t, &d.id).await.unwrap().is_none());
    assert!(matches!(store.delete_disbursement(&t, &d.id).await, Err(StoreError::NotFound)));
    let s = submitted(&store, &t, &[1, 2]).await;
    assert!(
        matches!(store.delete_disbursement(&t, &s.id).await, Err(StoreError::Rejected(e)) if e.code == "cannot_delete")
    );
    let r =
        store.reject_disbursement(&s.id, Some("wrong"), Change::unkeyed(&t, Timestamp::now(), &EVENTS)).await.unwrap();
    assert_eq!(
        (r.status, r.counts.rejected, r.reject_reason.as_deref()),
        (DisbursementStatus::Rejected, 2, Some("wrong"))
    );
    assert_eq!(events(&store, &t, "payout.rejected").await, 2);
    assert!(store.claim_payouts(Timestamp::now(), 60_000, 10, t.env).await.unwrap().payouts.is_empty());
    let rejected = store.list_disbursement_items(&t, &s.id, Some(ItemStatus::Rejected), PageRequest::default()).await;
    assert_eq!(rejected.unwrap().total, 2);
});

contract!(retry_failed_leaves_a_payout_whose_transaction_may_still_land, |store| {
    let t = lajan_store::testing::test_tenant(&store).await;
    let d = submitted(&store, &t, &[1_000]).await;
    store
        .approve_disbursement(&d.id, "key_b", funds(1_000_000), Change::unkeyed(&t, Timestamp::now(), &EVENTS))
        .await
        .unwrap();
    let claimed = store.claim_payouts(Timestamp::now(), 60_000, 10, t.env).await.unwrap();
    let (id, lease) = (claimed.payouts[0].payout.id.as_str(), claimed.lease.as_str());
    // A first transaction whose outcome is unknown, then a second refused for good.
    store
        .start_attempt(id, lease, NewAttempt { tx_hash: "h1", envelope: "{}", channel_account: None }, Timestamp::now())
        .await
        .unwrap()
        .unwrap();
    let second = store
        .start_attempt(id, lease, NewAttempt { tx_hash: "h2", envelope: "{}", channel_account: None }, Timestamp::now())
        .await
        .unwrap()
        .unwrap();
    let failed = AttemptResult::Failed { code: "op_no_trust".into(), message: "no trustline".into() };
    store
        .finish_attempt(id, &second.id, lease, &failed, Change::unkeyed(&t, Timestamp::now(), &p_event))
        .await
        .unwrap();
    store.roll_up_disbursement(&t, &d.id, Timestamp::now(), &d_event).await.unwrap();
    let after = store.retry_failed_disbursement(&d.id, Change::unkeyed(&t, Timestamp::now(), &EVENTS)).await.unwrap();
    assert_eq!(after.counts.failed, 1, "not queued again while h1 may land");
    assert_eq!(events(&store, &t, "payout.retried").await, 0);
});

contract!(a_batch_of_payout_events_is_fanned_out_to_webhook_endpoints, |store| {
    let t = lajan_store::testing::test_tenant(&store).await;
    let now = Timestamp::now();
    let endpoint = lajan_domain::webhook::WebhookEndpoint {
        id: IdKind::WebhookEndpoint.generate(),
        url: "https://example.com/hooks".into(),
        events: vec!["payout.approved".into()],
        description: None,
        enabled: true,
        secret: "whsec_c2VjcmV0".into(),
        created_at: now,
        updated_at: now,
    };
    store.create_webhook_endpoint(&t, &endpoint, None).await.unwrap();
    let d = submitted(&store, &t, &[1_000, 2_000, 3_000]).await;
    store.approve_disbursement(&d.id, "key_b", funds(1_000_000), Change::unkeyed(&t, now, &EVENTS)).await.unwrap();
    assert_eq!(events(&store, &t, "payout.approved").await, 3);
    let due = store.claim_deliveries(Timestamp::now(), 60_000, &lajan_store::ClaimLimits::up_to(100)).await.unwrap();
    assert_eq!(due.len(), 3, "one per payout.approved, none for the other events");
    assert!(due.iter().all(|d| d.delivery.event_type == "payout.approved"));
});
