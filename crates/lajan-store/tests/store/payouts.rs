//! The payouts contract: the same cases on SQLite and PostgreSQL.

use lajan_domain::client::{ClientInput, WalletAddress};
use lajan_domain::id::IdKind;
use lajan_domain::payout::{
    ApprovalStatus, AssetCode, AttemptResult, ExecStatus, Hold, Payout, PayoutAction, PayoutDetail, PayoutFilter,
    PayoutType,
};
use lajan_domain::settings::Settings;
use lajan_domain::verification::{Verification, VerificationKind};
use lajan_domain::{Environment, Tenant, Timestamp};
use lajan_store::Change;
use lajan_store::contract;
use lajan_store::payouts::NewAttempt;
use lajan_store::payouts::PayoutQuery;
use lajan_store::sandbox::{SandboxPayment, SandboxSubmit};
use lajan_store::{EventQuery, NewEvent, Store, StoreError};
use std::sync::Arc;

mod webhooks;

async fn tenant(store: &Arc<dyn Store>) -> Tenant {
    lajan_store::testing::test_tenant(store).await
}

fn ev(d: &PayoutDetail) -> NewEvent {
    NewEvent { event_type: "payout.created", object: serde_json::json!({ "id": d.payout.id }) }
}

/// A payout starts with `approval`, whatever the settings say, recording `events`.
fn starts(
    approval: ApprovalStatus,
    events: &'static [&'static str],
) -> impl Fn(&Settings) -> (ApprovalStatus, &'static [&'static str]) + Send + Sync {
    move |_| (approval, events)
}

/// A payout starts with the approval it was built with.
fn as_given(
    p: &Payout,
    events: &'static [&'static str],
) -> impl Fn(&Settings) -> (ApprovalStatus, &'static [&'static str]) + Send + Sync + use<> {
    starts(p.approval, events)
}

fn payout(approval: ApprovalStatus, key: &str) -> Payout {
    let now = Timestamp::now();
    Payout {
        id: IdKind::Payout.generate(),
        payout_type: PayoutType::Direct,
        client_id: None,
        wallet_account_id: Some(
            WalletAddress::parse("GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H").unwrap(),
        ),
        asset_amount: 1000,
        asset_code: AssetCode::parse("USDC").unwrap(),
        asset_issuer: Some(WalletAddress::parse("GCSUCUJIXTHLLAF5N4OI5ETKREOSB3HD4HWB3OUN5E66DYOHLPTITCYO").unwrap()),
        memo: Some("loan 42".into()),
        wallet_memo: None,
        disbursement_id: None,
        approval,
        exec: ExecStatus::Pending,
        created_by_key: key.into(),
        approval_withdrawn_by: None,
        created_at: now,
        updated_at: now,
    }
}

/// An approved direct payout, stored with its `payout.created`.
async fn approved_payout(store: &Arc<dyn Store>, t: &Tenant) -> PayoutDetail {
    let created = &starts(ApprovalStatus::Approved, &["payout.created"]);
    store.create_payout(t, &payout(ApprovalStatus::Approved, "key_a"), created, &ev, None).await.unwrap()
}

/// A direct payout waiting for approval, stored with its `payout.created`.
async fn pending_payout(store: &Arc<dyn Store>, t: &Tenant) -> PayoutDetail {
    let created = &starts(ApprovalStatus::Pending, &["payout.created"]);
    store.create_payout(t, &payout(ApprovalStatus::Pending, "key_a"), created, &ev, None).await.unwrap()
}

contract!(approval_rules_and_counts_partition_all, |store| {
    let t = tenant(&store).await;
    let a = pending_payout(&store, &t).await;
    let b = pending_payout(&store, &t).await;
    store
        .create_payout(
            &t,
            &payout(ApprovalStatus::Approved, "key_a"),
            &starts(ApprovalStatus::Approved, &["payout.created", "payout.approved"]),
            &ev,
            None,
        )
        .await
        .unwrap();
    let id = a.payout.id.as_str();
    let act = |action, key: &'static str, distinct| {
        let (store, t, id) = (store.clone(), t.clone(), id.to_owned());
        async move {
            let rules = Settings { require_distinct_approver: distinct, ..Settings::default() };
            store.put_settings(&t, &rules, Timestamp::now()).await.unwrap();
            store.payout_action(&id, action, key, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await
        }
    };
    assert!(
        matches!(act(PayoutAction::Approve, "key_a", true).await, Err(StoreError::Rejected(e)) if e.code == "cannot_approve")
    );
    let approved = act(PayoutAction::Approve, "key_b", true).await.unwrap();
    assert_eq!((approved.payout.approval, approved.payout.exec), (ApprovalStatus::Approved, ExecStatus::Pending));
    assert!(
        matches!(act(PayoutAction::Approve, "key_b", false).await, Err(StoreError::Rejected(e)) if e.code == "cannot_approve")
    );
    assert!(
        matches!(act(PayoutAction::Reject, "key_b", false).await, Err(StoreError::Rejected(e)) if e.code == "cannot_reject")
    );
    assert!(
        matches!(act(PayoutAction::Retry, "key_b", false).await, Err(StoreError::Rejected(e)) if e.code == "cannot_retry")
    );
    store
        .payout_action(
            &b.payout.id,
            PayoutAction::Reject,
            "key_b",
            Some("duplicate"),
            Change::unkeyed(&t, Timestamp::now(), &ev),
        )
        .await
        .unwrap();

    let (page, counts) = store.list_payouts(&t, &PayoutQuery::default()).await.unwrap();
    assert_eq!((page.total, counts.all), (3, 3));
    assert_eq!(counts.by_filter.values().sum::<u64>(), counts.all, "counts partition all");
    assert_eq!((counts.by_filter["approved"], counts.by_filter["rejected"]), (2, 1));
    let q = PayoutQuery { filter: Some(PayoutFilter::Rejected), ..Default::default() };
    assert_eq!(store.list_payouts(&t, &q).await.unwrap().0.items[0].payout.id, b.payout.id);
    let q = PayoutQuery {
        search: Some("gbrpyhil".into()),
        payout_type: Some(PayoutType::Disbursement),
        ..Default::default()
    };
    assert_eq!(store.list_payouts(&t, &q).await.unwrap().1.all, 0);
    let other = Tenant::new(t.org_id.clone(), Environment::Live);
    assert!(store.get_payout(&other, id).await.unwrap().is_none());
});

contract!(a_created_payout_answers_what_a_read_gives_back, |store| {
    let t = tenant(&store).await;
    let wallet = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
    let input = ClientInput {
        first_name: Some("Marie".into()),
        last_name: Some("Jean".into()),
        wallet_account_id: Some(wallet.into()),
        language: Some("en".into()),
        ..Default::default()
    };
    let (mut client, _) = input
        .into_client(IdKind::Client.generate(), Timestamp::now(), lajan_domain::phone::PhoneCountry::HAITI)
        .unwrap();
    // A verification as the services seal it: the joined client carries it as stored.
    client.verification =
        Some(Verification { kind: VerificationKind::Pin, hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into() });
    let client_created = NewEvent { event_type: "client.created", object: serde_json::json!({ "id": client.id }) };
    store.create_client(&t, &client, &client_created, None).await.unwrap();

    let to_client = Payout { client_id: Some(client.id.clone()), ..payout(ApprovalStatus::Pending, "key_a") };
    for (p, rule) in [
        (to_client.clone(), starts(ApprovalStatus::Approved, &["payout.created", "payout.approved"])),
        (payout(ApprovalStatus::Pending, "key_a"), starts(ApprovalStatus::Pending, &["payout.created"])),
    ] {
        let created = store.create_payout(&t, &p, &rule, &ev, None).await.unwrap();
        let read = store.get_payout(&t, &p.id).await.unwrap().unwrap();
        assert_eq!(created, read, "the create's answer is the stored payout");
        assert_eq!(created.client.as_ref().map(|c| c.id.as_str()), p.client_id.as_deref());
    }
    let joined = store.get_payout(&t, &to_client.id).await.unwrap().and_then(|d| d.client);
    assert_eq!(joined, Some(client.clone()), "the payout's client, joined, is the client as stored (its language too)");

    // A client archived after the request was checked gets no payout.
    let gone = |c: &lajan_domain::client::Client| NewEvent {
        event_type: "client.deleted",
        object: serde_json::json!({ "id": c.id }),
    };
    store.archive_client(&t, &client.id, Timestamp::now(), &gone).await.unwrap();
    let late = Payout { id: IdKind::Payout.generate(), ..to_client };
    let refused = store.create_payout(&t, &late, &as_given(&late, &["payout.created"]), &ev, None).await;
    assert!(matches!(&refused, Err(StoreError::Rejected(e)) if e.code == "invalid_client"), "{refused:?}");
    assert!(store.get_payout(&t, &late.id).await.unwrap().is_none(), "nothing stored");
});

contract!(execution_claims_attempts_and_outcomes, |store| {
    let t = tenant(&store).await;
    let p = approved_payout(&store, &t).await;
    let id = p.payout.id.as_str();
    let now = Timestamp::now();
    assert!(store.claim_payouts(now, 60_000, 10, Environment::Live).await.unwrap().payouts.is_empty(), "other env");
    let claimed = store.claim_payouts(now, 60_000, 10, Environment::Test).await.unwrap();
    let lease = claimed.lease.as_str();
    assert_eq!(claimed.payouts.len(), 1);
    assert_eq!(claimed.payouts[0].payout.exec, ExecStatus::ReadyToSend);
    assert!(store.claim_payouts(now, 60_000, 10, Environment::Test).await.unwrap().payouts.is_empty(), "leased");
    assert!(
        store
            .start_attempt(
                id,
                "lease_other",
                NewAttempt { tx_hash: "hash1", envelope: "{envelope}", channel_account: None },
                now
            )
            .await
            .unwrap()
            .is_none(),
        "fenced"
    );
    let first = store
        .start_attempt(id, lease, NewAttempt { tx_hash: "hash1", envelope: "{envelope}", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.attempt_number, 1);
    assert_eq!(store.attempt_envelope(&first.id).await.unwrap(), "{envelope}");
    assert_eq!(store.held_payout(&t, id, lease).await.unwrap().unwrap().attempts.len(), 1);
    let retry_at = now.plus_millis(5_000);
    let retry = AttemptResult::Retry { code: "tx_timeout".into(), message: "timed out".into(), retry_at };
    store.finish_attempt(id, &first.id, lease, &retry, Change::unkeyed(&t, now, &ev)).await.unwrap();
    assert!(store.held_payout(&t, id, lease).await.unwrap().is_none(), "a settled attempt releases the payout");
    assert!(store.claim_payouts(now.plus_millis(1), 60_000, 10, Environment::Test).await.unwrap().payouts.is_empty());
    let again = store.claim_payouts(retry_at, 60_000, 10, Environment::Test).await.unwrap();
    assert_eq!(again.payouts.len(), 1);
    assert_ne!(again.lease, claimed.lease);
    // The first executor's late answer is a fact on its attempt; it moves neither the payout nor
    // its retry time, so the new lease stands.
    let late = AttemptResult::Retry { code: "tx_too_late".into(), message: "late".into(), retry_at: now };
    let after = store.finish_attempt(id, &first.id, lease, &late, Change::unkeyed(&t, now, &ev)).await.unwrap();
    assert_eq!(after.attempts[0].error_code.as_deref(), Some("tx_too_late"));
    assert!(
        store
            .claim_payouts(retry_at.plus_millis(59_000), 60_000, 10, Environment::Test)
            .await
            .unwrap()
            .payouts
            .is_empty()
    );
    assert!(
        store
            .start_attempt(
                id,
                lease,
                NewAttempt { tx_hash: "hash2", envelope: "{envelope2}", channel_account: None },
                retry_at
            )
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(store.renew_lease(&again.lease, retry_at.plus_millis(120_000)).await.unwrap(), 1);
    assert!(
        store
            .claim_payouts(retry_at.plus_millis(61_000), 60_000, 10, Environment::Test)
            .await
            .unwrap()
            .payouts
            .is_empty()
    );
    let second = store
        .start_attempt(
            id,
            &again.lease,
            NewAttempt { tx_hash: "hash1", envelope: "{envelope}", channel_account: None },
            retry_at,
        )
        .await
        .unwrap()
        .unwrap();
    let sent = AttemptResult::Sent { ledger_seq: 7 };
    let done =
        store.finish_attempt(id, &second.id, &again.lease, &sent, Change::unkeyed(&t, retry_at, &ev)).await.unwrap();
    assert_eq!(done.payout.exec, ExecStatus::Sent);
    assert_eq!(done.attempts.len(), 2, "attempts are never overwritten");
    assert_eq!(done.attempts[1].ledger_seq, Some(7));
    assert_eq!(store.renew_lease(&again.lease, retry_at.plus_millis(240_000)).await.unwrap(), 0, "released");
    // A late answer after the payout settled: the attempt is kept, the outcome stands.
    let failed = AttemptResult::Failed { code: "tx_bad_seq".into(), message: "late".into() };
    let after = store.finish_attempt(id, &first.id, lease, &failed, Change::unkeyed(&t, retry_at, &ev)).await.unwrap();
    assert_eq!(after.payout.exec, ExecStatus::Sent);
    let events = store.list_events(&t, &Default::default()).await.unwrap();
    assert_eq!(events.items.iter().filter(|e| e.event_type.starts_with("payout.")).count(), 2, "created, completed");
    // A hold needs the lease and moves an executing payout only.
    store.hold_payout(id, &again.lease, retry_at.plus_millis(1)).await.unwrap();
    assert_eq!(store.get_payout(&t, id).await.unwrap().unwrap().payout.exec, ExecStatus::Sent);
});

contract!(a_batch_of_first_attempts_and_outcomes_moves_each_as_one_by_one, |store| {
    use lajan_store::payouts::{FirstAttempt, Outcome};
    let (t, other) = (tenant(&store).await, tenant(&store).await);
    let mut ids = Vec::new();
    for tenant in [&t, &t, &t, &t, &other] {
        ids.push(approved_payout(&store, tenant).await.payout.id);
    }
    let now = Timestamp::now();
    let claimed = store.claim_payouts(now, 60_000, 10, Environment::Test).await.unwrap();
    assert_eq!(claimed.payouts.len(), 5);
    let lease = claimed.lease.as_str();
    // One already has an attempt (a resumed payout): the batch leaves it alone.
    let earlier = store
        .start_attempt(&ids[3], lease, NewAttempt { tx_hash: "h3", envelope: "{e3}", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    let first = |id: &str, n: usize| FirstAttempt {
        payout_id: id.to_owned(),
        tx_hash: format!("first{n}"),
        envelope: format!("{{e{n}}}"),
    };
    let batch: Vec<FirstAttempt> = ids.iter().enumerate().map(|(n, id)| first(id, n)).collect();
    assert!(store.start_first_attempts("lease_other", &batch, now).await.unwrap().is_empty(), "fenced");
    let started = store.start_first_attempts(lease, &batch, now).await.unwrap();
    let started_ids: Vec<&str> = started.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(started_ids, [&ids[0], &ids[1], &ids[2], &ids[4]].map(String::as_str));
    assert!(started.iter().all(|(_, a)| a.attempt_number == 1 && a.submissions == 1));
    assert_eq!(store.attempt_envelope(&started[1].1.id).await.unwrap(), "{e1}");
    assert!(store.start_first_attempts(lease, &batch, now).await.unwrap().is_empty(), "once each");
    let retry_at = now.plus_millis(5_000);
    let results = [
        AttemptResult::Sent { ledger_seq: 7 },
        AttemptResult::Failed { code: "op_underfunded".into(), message: "too little".into() },
        AttemptResult::Retry { code: "tx_timeout".into(), message: "no answer".into(), retry_at },
        AttemptResult::Sent { ledger_seq: 7 },
    ];
    let mut outcomes: Vec<Outcome> = started
        .iter()
        .zip(results)
        .map(|((id, a), result)| Outcome { payout_id: id.clone(), attempt_id: a.id.clone(), result })
        .collect();
    // A payout this lease no longer holds is answered back, untouched.
    let elsewhere = approved_payout(&store, &t).await.payout.id;
    let theirs = store.claim_payouts(Timestamp::now(), 60_000, 10, Environment::Test).await.unwrap();
    let their_attempt = store
        .start_attempt(
            &elsewhere,
            &theirs.lease,
            NewAttempt { tx_hash: "hx", envelope: "{ex}", channel_account: None },
            now,
        )
        .await
        .unwrap()
        .unwrap();
    let sent = AttemptResult::Sent { ledger_seq: 7 };
    outcomes.push(Outcome { payout_id: elsewhere.clone(), attempt_id: their_attempt.id, result: sent });
    let not_held = store.finish_attempts(lease, &outcomes, now, &ev).await.unwrap();
    assert_eq!(not_held, std::slice::from_ref(&elsewhere));
    let get = |id: String, tenant: Tenant| {
        let store = store.clone();
        async move { store.get_payout(&tenant, &id).await.unwrap().unwrap() }
    };
    let sent = get(ids[0].clone(), t.clone()).await;
    assert_eq!((sent.payout.exec, sent.attempts[0].ledger_seq), (ExecStatus::Sent, Some(7)));
    let failed = get(ids[1].clone(), t.clone()).await;
    assert_eq!(failed.payout.exec, ExecStatus::Failed);
    assert_eq!(failed.attempts[0].error_code.as_deref(), Some("op_underfunded"));
    let retried = get(ids[2].clone(), t.clone()).await;
    assert_eq!(retried.payout.exec, ExecStatus::ReadyToSend);
    assert_eq!(retried.attempts[0].error_code.as_deref(), Some("tx_timeout"));
    assert_eq!(get(ids[4].clone(), other.clone()).await.payout.exec, ExecStatus::Sent);
    let untouched = get(elsewhere, t.clone()).await;
    assert_eq!((untouched.payout.exec, untouched.attempts[0].ledger_seq), (ExecStatus::ReadyToSend, None));
    assert_eq!(store.held_payout(&t, &ids[3], lease).await.unwrap().unwrap().attempts, [earlier], "still held");
    // Released: the retried payout is claimed again at its time, the settled ones never.
    let again = store.claim_payouts(retry_at, 60_000, 10, Environment::Test).await.unwrap();
    let again_ids: Vec<&str> = again.payouts.iter().map(|d| d.payout.id.as_str()).collect();
    assert_eq!(again_ids, [ids[2].as_str()]);
    let events = |tenant: Tenant| {
        let store = store.clone();
        async move {
            let listed = store.list_events(&tenant, &Default::default()).await.unwrap().items;
            let mut types: Vec<String> = listed.iter().map(|e| e.event_type.to_owned()).collect();
            types.retain(|e| e != "payout.created");
            types.sort();
            types
        }
    };
    assert_eq!(events(t.clone()).await, ["payout.completed", "payout.failed"]);
    assert_eq!(events(other.clone()).await, ["payout.completed"]);
});

contract!(a_claim_gives_direct_payouts_room_beside_a_batch, |store| {
    let t = tenant(&store).await;
    let mut batch = Vec::new();
    for _ in 0..10 {
        let mut p = payout(ApprovalStatus::Approved, "key_a");
        p.payout_type = PayoutType::Disbursement;
        batch.push(store.create_payout(&t, &p, &as_given(&p, &["payout.created"]), &ev, None).await.unwrap());
    }
    // Approved after the whole batch, so due after every one of its payouts.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let direct = approved_payout(&store, &t).await.payout.id;
    let claim = store.claim_payouts(Timestamp::now(), 60_000, 4, Environment::Test).await.unwrap();
    let ids: Vec<&str> = claim.payouts.iter().map(|d| d.payout.id.as_str()).collect();
    assert_eq!(ids.len(), 4);
    assert!(ids.contains(&direct.as_str()), "the direct payout is not left behind the batch: {ids:?}");
    assert_eq!(claim.payouts.iter().filter(|d| d.payout.payout_type == PayoutType::Disbursement).count(), 3);
});

contract!(a_late_unknown_never_hides_a_settled_attempt, |store| {
    let t = tenant(&store).await;
    let p = approved_payout(&store, &t).await;
    let id = p.payout.id.as_str();
    let now = Timestamp::now();
    let lease = store.claim_payouts(now, 60_000, 10, Environment::Test).await.unwrap().lease;
    let a = store
        .start_attempt(id, &lease, NewAttempt { tx_hash: "h1", envelope: "{e1}", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    let refused = AttemptResult::Failed { code: "tx_insufficient_fee".into(), message: "fee".into() };
    store.finish_attempt(id, &a.id, &lease, &refused, Change::unkeyed(&t, now, &ev)).await.unwrap();
    // An executor that lost the lease heard nothing back: that changes nothing.
    let unknown = AttemptResult::Retry { code: "tx_timeout".into(), message: "no answer".into(), retry_at: now };
    let after = store.finish_attempt(id, &a.id, "lease_gone", &unknown, Change::unkeyed(&t, now, &ev)).await.unwrap();
    assert_eq!(after.attempts[0].error_code.as_deref(), Some("tx_insufficient_fee"));
    assert!(!after.attempts[0].unsettled());
    assert_eq!(after.payout.exec, ExecStatus::Failed);
});

contract!(a_late_answer_that_applied_settles_a_payout_another_executor_holds, |store| {
    let t = tenant(&store).await;
    let p = approved_payout(&store, &t).await;
    let id = p.payout.id.as_str();
    let now = Timestamp::now();
    let first = store.claim_payouts(now, 60_000, 10, Environment::Test).await.unwrap();
    let attempt = store
        .start_attempt(id, &first.lease, NewAttempt { tx_hash: "h1", envelope: "{e1}", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    let second = store.claim_payouts(now.plus_millis(61_000), 60_000, 10, Environment::Test).await.unwrap();
    assert_eq!(second.payouts.len(), 1, "the first lease expired");
    let sent = AttemptResult::Sent { ledger_seq: 9 };
    let paid = store.finish_attempt(id, &attempt.id, &first.lease, &sent, Change::unkeyed(&t, now, &ev)).await.unwrap();
    assert_eq!(paid.payout.exec, ExecStatus::Sent, "money moved: whoever reports it, the payout was paid");
    assert!(
        store
            .start_attempt(
                id,
                &second.lease,
                NewAttempt { tx_hash: "h2", envelope: "{e2}", channel_account: None },
                now
            )
            .await
            .unwrap()
            .is_none(),
        "nothing more"
    );
    let events = store.list_events(&t, &Default::default()).await.unwrap();
    assert_eq!(events.items.iter().filter(|e| e.event_type == "payout.completed").count(), 1);
});

contract!(the_sandbox_ledger_applies_each_hash_once, |store| {
    let t = tenant(&store).await;
    let balance = |store: Arc<dyn Store>, t: Tenant| async move {
        store.sandbox_balances(&t).await.unwrap().into_iter().find(|(a, _)| a == "USDC").unwrap().1
    };
    let start = balance(store.clone(), t.clone()).await;
    let now = Timestamp::now();
    let submit = |hash: &'static str, amount: i64, memo: Option<&'static str>| {
        let (store, t) = (store.clone(), t.clone());
        async move {
            let memo = memo.map(str::to_owned);
            let payment =
                SandboxPayment { tenant: &t, tx_hash: hash, destination: "GDEST", asset_code: "USDC", amount, memo };
            store.sandbox_submit(&[payment], now, 1000).await.unwrap().remove(0)
        }
    };
    let first = submit("h1", 500, Some("m")).await;
    let SandboxSubmit::Accepted { ledger_seq, fresh: true, .. } = first else { panic!("{first:?}") };
    let again = submit("h1", 500, Some("m")).await;
    assert!(matches!(again, SandboxSubmit::Accepted { ledger_seq: s, fresh: false, .. } if s == ledger_seq));
    assert_eq!(balance(store.clone(), t.clone()).await, start - 500, "paid once");
    assert_eq!(store.sandbox_transaction_seq("h1").await.unwrap(), Some(ledger_seq));
    let too_much = submit("h2", start, None).await;
    assert!(matches!(too_much, SandboxSubmit::Refused { code: "op_underfunded", .. }));
    let after = store.sandbox_top_up(&t, "USDC", 1_000, None).await.unwrap();
    assert!(after.contains(&("USDC".to_owned(), start - 500 + 1_000)), "{after:?}");
    let max = lajan_domain::money::MAX_CENTS;
    let past = store.sandbox_top_up(&t, "USDC", max, None).await;
    assert!(
        matches!(past, Err(StoreError::Rejected(e)) if e.code == "invalid_amount"),
        "a balance never passes the maximum"
    );
    assert_eq!(balance(store.clone(), t.clone()).await, start - 500 + 1_000, "and a refused top-up adds nothing");
});

contract!(one_sandbox_submission_applies_many_payments_in_order, |store| {
    let (a, b) = (tenant(&store).await, tenant(&store).await);
    let usdc = |balances: Vec<(String, i64)>| balances.into_iter().find(|(code, _)| code == "USDC").unwrap().1;
    let start = usdc(store.sandbox_balances(&a).await.unwrap());
    let pay = |tenant, tx_hash, amount| SandboxPayment {
        tenant,
        tx_hash,
        destination: "GDEST",
        asset_code: "USDC",
        amount,
        memo: None,
    };
    let now = Timestamp::now();
    store.sandbox_submit(&[pay(&a, "seen", 100)], now, 1000).await.unwrap();
    let payments = [
        pay(&a, "m1", start - 300),
        pay(&a, "m2", 250),         // 200 left after the 100 paid before and m1: refused
        pay(&b, "m3", 250),         // another account: its own balance
        pay(&a, "m1", start - 300), // twice in one submission: applied once
        pay(&a, "seen", 100),       // applied before: its original ledger, nothing moves
        pay(&a, "m4", 200),
    ];
    let answers = store.sandbox_submit(&payments, now.plus_millis(2_000), 1000).await.unwrap();
    let accepted = |i: usize| match &answers[i] {
        SandboxSubmit::Accepted { ledger_seq, fresh, .. } => (*ledger_seq, *fresh),
        other => panic!("payment {i}: {other:?}"),
    };
    let (seq, fresh) = accepted(0);
    assert!(fresh);
    assert!(matches!(&answers[1], SandboxSubmit::Refused { code: "op_underfunded", .. }), "{answers:?}");
    assert_eq!(accepted(2), (seq, true));
    assert_eq!(accepted(3), (seq, false), "{answers:?}");
    let (seen_seq, seen_fresh) = accepted(4);
    assert!(seen_seq < seq && !seen_fresh, "{answers:?}");
    assert_eq!(accepted(5), (seq, true));
    assert_eq!(usdc(store.sandbox_balances(&a).await.unwrap()), start - 100 - (start - 300) - 200);
    assert_eq!(usdc(store.sandbox_balances(&b).await.unwrap()), start - 250);
    for hash in ["m1", "m3", "m4"] {
        assert_eq!(store.sandbox_transaction_seq(hash).await.unwrap(), Some(seq), "{hash}");
    }
    assert_eq!(store.sandbox_transaction_seq("m2").await.unwrap(), None, "a refused payment is not on the ledger");
});

contract!(a_payout_claims_its_idempotency_key_in_its_own_transaction, |store| {
    use lajan_store::{IdempotencyClaim, IdempotencyState, IdempotentResponse};
    let t = tenant(&store).await;
    let now = Timestamp::now();
    let claim = |key: &str| IdempotencyClaim { key: key.into(), request_hash: "h".into(), at: now, ttl_ms: 86_400_000 };
    let body = |d: &PayoutDetail| format!("{{\"id\":\"{}\"}}", d.payout.id).into_bytes();
    let pay_once = claim("pay-once");
    let idem = IdempotentResponse { claim: &pay_once, status: 201, body: &body };
    let p = store
        .create_payout(
            &t,
            &payout(ApprovalStatus::Pending, "key_a"),
            &starts(ApprovalStatus::Pending, &["payout.created"]),
            &ev,
            Some(idem),
        )
        .await
        .unwrap();
    // The process dies here, before the middleware sees the response: a retry still replays.
    assert_eq!(
        store.idempotency_lookup(&t, "pay-once", "h", now).await.unwrap(),
        IdempotencyState::Replay { status: 201, body: format!("{{\"id\":\"{}\"}}", p.payout.id).into_bytes() }
    );
    let again = IdempotentResponse { claim: &pay_once, status: 201, body: &body };
    let second = payout(ApprovalStatus::Pending, "key_a");
    let twice = store.create_payout(&t, &second, &as_given(&second, &["payout.created"]), &ev, Some(again)).await;
    assert!(matches!(twice, Err(StoreError::IdempotencyKeyTaken)), "never a second payout");
    assert_eq!(store.get_payout(&t, &second.id).await.unwrap(), None);
    // A payout whose transaction fails leaves the key free for the retry, at once.
    store.fail_next_commit();
    let fails = claim("fails");
    let idem = IdempotentResponse { claim: &fails, status: 201, body: &body };
    assert!(
        store
            .create_payout(
                &t,
                &payout(ApprovalStatus::Pending, "key_a"),
                &starts(ApprovalStatus::Pending, &["payout.created"]),
                &ev,
                Some(idem)
            )
            .await
            .is_err()
    );
    assert_eq!(store.idempotency_lookup(&t, "fails", "h", now).await.unwrap(), IdempotencyState::Free);
    // Actions answer their key in their transaction too.
    let approve = claim("approve");
    let idem = IdempotentResponse { claim: &approve, status: 200, body: &body };
    store
        .payout_action(
            &p.payout.id,
            PayoutAction::Approve,
            "key_b",
            None,
            Change { tenant: &t, at: now, events: &ev, idempotency: Some(idem) },
        )
        .await
        .unwrap();
    assert!(matches!(
        store.idempotency_lookup(&t, "approve", "h", now).await.unwrap(),
        IdempotencyState::Replay { status: 200, .. }
    ));
});

contract!(sandbox_ledgers_close_on_a_clock, |store| {
    let t = tenant(&store).await;
    let t0 = Timestamp::now();
    let submit = |hash: &'static str, at: Timestamp| {
        let (store, t) = (store.clone(), t.clone());
        async move {
            let payment = SandboxPayment {
                tenant: &t,
                tx_hash: hash,
                destination: "GDEST",
                asset_code: "USDC",
                amount: 1,
                memo: None,
            };
            match store.sandbox_submit(&[payment], at, 1000).await.unwrap().remove(0) {
                SandboxSubmit::Accepted { ledger_seq, closes_at, .. } => (ledger_seq, closes_at.as_millis()),
                other => panic!("{other:?}"),
            }
        }
    };
    let (a, a_closes) = submit("c1", t0).await;
    let (b, b_closes) = submit("c2", t0.plus_millis(10)).await;
    assert_eq!(a, b, "one interval, one ledger");
    assert_eq!(a_closes, b_closes);
    assert!(a_closes > t0.as_millis() && a_closes <= t0.as_millis() + 1000);
    // 3.5 intervals later: the open ledger is three or four past, and empty ledgers count.
    let (c, c_closes) = submit("c3", t0.plus_millis(3500)).await;
    assert!((a + 3..=a + 4).contains(&c), "{a} then {c}");
    assert!(c_closes > t0.as_millis() + 3500 && c_closes <= t0.as_millis() + 4500);
});

contract!(ledger_cursors_are_saved_per_watcher, |store| {
    assert_eq!(store.ledger_cursor("live:payments:GA").await.unwrap(), None);
    store.save_ledger_cursor("live:payments:GA", "12", Timestamp::now()).await.unwrap();
    store.save_ledger_cursor("live:payments:GA", "15", Timestamp::now()).await.unwrap();
    store.save_ledger_cursor("live:payments:GB", "3", Timestamp::now()).await.unwrap();
    assert_eq!(store.ledger_cursor("live:payments:GA").await.unwrap().as_deref(), Some("15"));
    assert_eq!(store.ledger_cursor("live:payments:GB").await.unwrap().as_deref(), Some("3"));
});

contract!(maintained_counts_match_a_scan_through_execution, |store| {
    let t = tenant(&store).await;
    // Created side by side: PostgreSQL's triggers append deltas instead of queueing on one row.
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let (store, t) = (store.clone(), t.clone());
            tokio::spawn(async move {
                let approval = if i % 3 == 0 { ApprovalStatus::Pending } else { ApprovalStatus::Approved };
                let mut p = payout(approval, "key_a");
                if i % 4 == 0 {
                    p.payout_type = PayoutType::Disbursement;
                }
                store.create_payout(&t, &p, &as_given(&p, &["payout.created"]), &ev, None).await.unwrap()
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let now = Timestamp::now();
    let claimed = store.claim_payouts(now, 60_000, 5, Environment::Test).await.unwrap();
    assert_eq!(claimed.payouts.len(), 5);
    let lease = claimed.lease.as_str();
    for (i, c) in claimed.payouts.iter().enumerate().take(3) {
        let a = store
            .start_attempt(
                &c.payout.id,
                lease,
                NewAttempt { tx_hash: &format!("hash{i}"), envelope: "{envelope}", channel_account: None },
                now,
            )
            .await
            .unwrap()
            .unwrap();
        let result = if i == 0 {
            AttemptResult::Failed { code: "op_no_trust".into(), message: "no trustline".into() }
        } else {
            AttemptResult::Sent { ledger_seq: 9 }
        };
        store.finish_attempt(&c.payout.id, &a.id, lease, &result, Change::unkeyed(&t, now, &ev)).await.unwrap();
    }
    let (pending, _) = store
        .list_payouts(&t, &PayoutQuery { filter: Some(PayoutFilter::PendingApproval), ..Default::default() })
        .await
        .unwrap();
    store
        .payout_action(&pending.items[0].payout.id, PayoutAction::Reject, "key_b", None, Change::unkeyed(&t, now, &ev))
        .await
        .unwrap();
    // Two rounds: as the triggers left the counts, then after folding (PostgreSQL's deltas).
    for round in 0..2 {
        for kind in [None, Some(PayoutType::Direct), Some(PayoutType::Disbursement)] {
            let kept = PayoutQuery { payout_type: kind, ..Default::default() };
            // Every payout pays the same wallet, so this search goes through a COUNT over the rows.
            let scan = PayoutQuery { payout_type: kind, search: Some("gbrpyhil".into()), ..Default::default() };
            let (_, kept_counts) = store.list_payouts(&t, &kept).await.unwrap();
            let (_, scanned) = store.list_payouts(&t, &scan).await.unwrap();
            assert_eq!(kept_counts.all, scanned.all, "{kind:?}, round {round}");
            assert_eq!(kept_counts.by_filter, scanned.by_filter, "{kind:?}, round {round}");
            for f in PayoutFilter::ALL {
                let q = PayoutQuery { payout_type: kind, filter: Some(*f), ..Default::default() };
                let (page, _) = store.list_payouts(&t, &q).await.unwrap();
                assert_eq!(page.total, kept_counts.by_filter[f.as_str()], "{f:?} {kind:?}, round {round}");
                assert_eq!(page.total, page.items.len() as u64, "{f:?} {kind:?}, round {round}");
            }
        }
        let (_, counts) = store.list_payouts(&t, &PayoutQuery::default()).await.unwrap();
        assert_eq!(counts.all, 12);
        let n = |f: &str| counts.by_filter[f];
        assert_eq!(
            (n("pending_approval"), n("rejected"), n("approved"), n("executing"), n("completed"), n("failed")),
            (3, 1, 3, 2, 2, 1),
            "round {round}"
        );
        let folded = store.compact_counts().await.unwrap();
        if store.backend() == lajan_store::Backend::Postgres && round == 0 {
            // 30 payout deltas (12 creations, then a pair per claim, outcome and rejection) over at
            // most 10 keys; every key holding two or more goes, which is at least 11 of them. The
            // events' list counts (migration 0060) fold beside them.
            assert!(folded >= 11, "folded {folded} delta rows");
        } else {
            assert_eq!(folded, 0, "round {round}: nothing left to fold");
        }
    }
});

contract!(approval_follows_the_settings_the_transaction_reads, |store| {
    let t = tenant(&store).await;
    let rule = |s: &Settings| lajan_domain::payout::initial_approval(s.payout_approval_required);
    let first = store.create_payout(&t, &payout(ApprovalStatus::Approved, "key_a"), &rule, &ev, None).await.unwrap();
    assert_eq!(
        first.payout.approval,
        ApprovalStatus::Pending,
        "approval is required by default, whatever the payout says"
    );
    let no_approval = Settings { payout_approval_required: false, ..Settings::default() };
    store.put_settings(&t, &no_approval, Timestamp::now()).await.unwrap();
    let second = store.create_payout(&t, &payout(ApprovalStatus::Pending, "key_a"), &rule, &ev, None).await.unwrap();
    assert_eq!(second.payout.approval, ApprovalStatus::Approved);
    let approved = lajan_store::EventQuery { event_type: Some("payout.approved".into()), ..Default::default() };
    assert_eq!(store.list_events(&t, &approved).await.unwrap().total, 1, "only the auto-approved one");
});

contract!(a_retry_never_builds_beside_a_transaction_that_applied_or_may_apply, |store| {
    let t = tenant(&store).await;
    let p = approved_payout(&store, &t).await;
    let id = p.payout.id.as_str();
    let now = Timestamp::now();
    let lease = store.claim_payouts(now, 60_000, 10, Environment::Test).await.unwrap().lease;
    let first = store
        .start_attempt(id, &lease, NewAttempt { tx_hash: "h1", envelope: "{e1}", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    let second = store
        .start_attempt(id, &lease, NewAttempt { tx_hash: "h2", envelope: "{e2}", channel_account: None }, now)
        .await
        .unwrap()
        .unwrap();
    let failed = AttemptResult::Failed { code: "op_no_trust".into(), message: "no trustline".into() };
    store.finish_attempt(id, &second.id, &lease, &failed, Change::unkeyed(&t, now, &ev)).await.unwrap();
    let retry = |store: Arc<dyn Store>, t: Tenant| async move {
        store.payout_action(id, PayoutAction::Retry, "key_b", None, Change::unkeyed(&t, Timestamp::now(), &ev)).await
    };
    let refused = retry(store.clone(), t.clone()).await;
    assert!(matches!(refused, Err(StoreError::Rejected(ref e)) if e.code == "cannot_retry"), "unfinished: {refused:?}");
    let landed = store
        .finish_attempt(id, &first.id, &lease, &AttemptResult::Sent { ledger_seq: 3 }, Change::unkeyed(&t, now, &ev))
        .await
        .unwrap();
    assert_eq!(landed.payout.exec, ExecStatus::Sent, "a failed payout whose transaction landed was paid");
    let events = store.list_events(&t, &Default::default()).await.unwrap();
    let types: Vec<&str> = events.items.iter().map(|e| e.event_type.as_str()).collect();
    assert_eq!(types.iter().filter(|t| **t == "payout.completed").count(), 1, "{types:?}");
    assert!(matches!(retry(store.clone(), t.clone()).await, Err(StoreError::Rejected(_))));
});

contract!(the_backlog_counts_every_tenants_payouts_and_approvals_keep_their_time, |store| {
    let t = tenant(&store).await;
    let at_once = approved_payout(&store, &t).await;
    assert_eq!(at_once.approved_at, Some(at_once.payout.created_at), "approved as it was created");
    let waiting = pending_payout(&store, &t).await;
    assert_eq!(waiting.approved_at, None);
    pending_payout(&store, &Tenant::new(t.org_id.clone(), Environment::Live)).await;

    let backlog = store.backlog().await.unwrap();
    let count = |env, approval: &str| {
        backlog
            .payouts
            .iter()
            .filter(|c| c.env == env && c.approval_status == approval && c.exec_status == "pending")
            .map(|c| c.count)
            .sum::<i64>()
    };
    assert_eq!(
        (
            count(Environment::Test, "approved"),
            count(Environment::Test, "pending"),
            count(Environment::Live, "pending")
        ),
        (1, 1, 1)
    );
    assert_eq!((backlog.deliveries_pending, backlog.oldest_pending_delivery), (0, None));
    assert_eq!((backlog.messages_queued, backlog.oldest_queued_message), (0, None));

    let later = Timestamp::now().plus_millis(5_000);
    let approved = store
        .payout_action(&waiting.payout.id, PayoutAction::Approve, "key_b", None, Change::unkeyed(&t, later, &ev))
        .await
        .unwrap();
    assert_eq!(approved.approved_at, Some(later));
    let backlog = store.backlog().await.unwrap();
    assert_eq!(backlog.payouts.iter().filter(|c| c.env == Environment::Test).map(|c| c.count).sum::<i64>(), 2);

    let pools = store.pool_use();
    assert!(!pools.is_empty() && pools.iter().all(|p| p.open <= p.max && p.idle <= p.open), "{pools:?}");
});

contract!(a_source_account_is_reserved_by_one_holder_until_released_or_lapsed, |store| {
    let now = Timestamp::now();
    let until = now.plus_millis(60_000);
    assert!(store.reserve_source("GDIST", "lease_a", now, until).await.unwrap());
    assert!(!store.reserve_source("GDIST", "lease_b", now, until).await.unwrap(), "held by a");
    assert!(store.reserve_source("GCHAN", "lease_b", now, until).await.unwrap(), "another account");
    assert!(store.reserve_source("GDIST", "lease_a", now, until).await.unwrap(), "a holder renews its own");
    store.release_source("GDIST", "lease_b").await.unwrap();
    assert!(!store.reserve_source("GDIST", "lease_b", now, until).await.unwrap(), "only its holder releases it");
    store.release_source("GDIST", "lease_a").await.unwrap();
    assert!(store.reserve_source("GDIST", "lease_b", now, until).await.unwrap(), "released");
    // A holder that died: its reservation lapses.
    assert!(store.reserve_source("GDIST", "lease_c", until, until.plus_millis(60_000)).await.unwrap(), "lapsed");
});

contract!(a_hold_keeps_its_first_time_announces_itself_once_and_ends_with_an_attempt, |store| {
    let t = tenant(&store).await;
    let id = approved_payout(&store, &t).await.payout.id;
    let now = Timestamp::now();
    let held_event = |d: &PayoutDetail| NewEvent { event_type: "payout.held", ..ev(d) };
    let claim = async |at: Timestamp| store.claim_payouts(at, 60_000, 10, Environment::Test).await.unwrap().lease;
    let lease = claim(now).await;
    let no_trust = Hold::unreachable(false, "USDC", now);
    assert!(
        store.hold_unreachable_payout(&t, &id, "lease_other", &no_trust, now, &held_event).await.unwrap().is_none(),
        "fenced"
    );
    let recheck = now.plus_millis(300_000);
    let held = store.hold_unreachable_payout(&t, &id, &lease, &no_trust, recheck, &held_event).await.unwrap().unwrap();
    assert_eq!((held.payout.exec, held.hold.as_ref()), (ExecStatus::ReadyToSend, Some(&no_trust)));
    assert!(held.hold.as_ref().is_some_and(|h| h.message.contains("USDC")));
    assert!(
        store.claim_payouts(now.plus_millis(1), 60_000, 10, Environment::Test).await.unwrap().payouts.is_empty(),
        "until the recheck"
    );

    // Checked again later, now without an account: the reason changes, the first time stays,
    // and nothing is announced twice.
    let lease = claim(recheck).await;
    let later = recheck.plus_millis(1);
    let no_account = Hold::unreachable(true, "USDC", later);
    let again = store.hold_unreachable_payout(&t, &id, &lease, &no_account, later, &held_event).await.unwrap().unwrap();
    let hold = again.hold.unwrap();
    assert_eq!((hold.code.as_str(), hold.since), ("op_no_destination", now));
    let q = EventQuery { event_type: Some("payout.held".into()), ..Default::default() };
    let events = store.list_events(&t, &q).await.unwrap();
    assert_eq!(events.total, 1, "announced once");
    assert!(!hold.expired(14, now.plus_millis(14 * 86_400_000 - 1)));
    assert!(hold.expired(14, now.plus_millis(14 * 86_400_000)));

    // A transaction built for it clears the hold.
    let lease = claim(later).await;
    store
        .start_attempt(
            &id,
            &lease,
            NewAttempt { tx_hash: "hash1", envelope: "{envelope}", channel_account: None },
            later,
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(store.get_payout(&t, &id).await.unwrap().unwrap().hold, None);
});
