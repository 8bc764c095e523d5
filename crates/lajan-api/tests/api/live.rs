//! Live payouts and payments through the router against a fake Stellar network behind a loopback
//! Horizon (`lajan_ledger::testing::FakeStellar`): transactions signed with the configured
//! distribution secret, Horizon's final codes, timeouts resubmitted with the identical envelope,
//! a crash after submission reconciled by hash, and the live payment watcher.

use lajan_domain::{Environment, Timestamp};
use lajan_ledger::Ledger;
use lajan_ledger::live::LiveLedgerConfig;
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_ledger::testing::FakeStellar;
use lajan_store::payouts::NewAttempt;
use lajan_store::testing::TestStore;
use lajan_testkit::{TestApp, TestConfig, WALLET, test_config};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

pub(crate) use lajan_ledger::testing::keypair;

pub(crate) struct Live {
    pub(crate) app: TestApp,
    pub(crate) net: Arc<FakeStellar>,
    /// `sk_live_` key with scope `*`.
    key: String,
    pub(crate) distribution: String,
    issuer: String,
}

pub(crate) const START_SEQ: i64 = 100 << 32;

impl Live {
    pub(crate) async fn start(db: TestStore, tx_timeout_secs: u64, tweak: impl FnOnce(&mut TestConfig)) -> Live {
        Live::start_with_channels(db, tx_timeout_secs, 0, tweak).await
    }

    /// With `channels` channel accounts (keys from bytes 20, 21, ...), each created on the fake
    /// network with its own sequence.
    pub(crate) async fn start_with_channels(
        db: TestStore,
        tx_timeout_secs: u64,
        channels: u8,
        tweak: impl FnOnce(&mut TestConfig),
    ) -> Live {
        let net = FakeStellar::start(TESTNET_PASSPHRASE).await;
        let (distribution, secret) = keypair(7);
        let (issuer, _) = keypair(8);
        net.create_account(&distribution, START_SEQ);
        net.create_account(WALLET, 1);
        // The receiver's wallet holds the assets payouts send it, as a real one must.
        net.trust(WALLET, "USDC", &issuer);
        net.trust(WALLET, "HTG", &issuer);
        let mut channel_secrets = Vec::new();
        for byte in 20..20 + channels {
            let (account, channel_secret) = keypair(byte);
            net.create_account(&account, i64::from(byte) << 32);
            channel_secrets.push(channel_secret);
        }
        let mut config = test_config();
        config.services.live_ledger = Some(LiveLedgerConfig {
            horizon_url: net.url().to_owned(),
            network_passphrase: TESTNET_PASSPHRASE.into(),
            distribution_secret: secret,
            channel_secrets,
            receiving_account: None,
            base_fee: 100,
            max_fee: 300,
            tx_timeout_secs,
        });
        config.services.live_asset_issuers.insert("USDC".into(), issuer.clone());
        config.services.live_asset_issuers.insert("HTG".into(), issuer.clone());
        tweak(&mut config);
        let app = TestApp::spawn(db, config).await;
        let key = app.key(None, Environment::Live, &["*"]).await;
        Live { app, net, key, distribution, issuer }
    }

    pub(crate) async fn post(&self, path: &str, body: &Value) -> Value {
        let r = self.app.http.post(self.app.url(path)).bearer_auth(&self.key).json(body).send().await.unwrap();
        let status = r.status();
        let body: Value = r.json().await.unwrap();
        assert!(status.is_success(), "{path}: {status} {body}");
        body
    }

    pub(crate) async fn get(&self, path: &str) -> Value {
        self.app.http.get(self.app.url(path)).bearer_auth(&self.key).send().await.unwrap().json().await.unwrap()
    }

    /// An approved live payout of `amount` USDC to `wallet`.
    pub(crate) async fn approved_payout(&self, wallet: &str, amount: &str) -> String {
        let amount: Value = amount.parse().unwrap();
        let body = json!({ "walletAccountId": wallet, "assetAmount": amount, "assetCode": "USDC", "memo": "loan 7" });
        let created = self.post("/v1/payouts", &body).await;
        let id = created["id"].as_str().unwrap().to_owned();
        self.post(&format!("/v1/payouts/{id}/approve"), &json!({})).await;
        id
    }

    /// An account (from key `byte`) whose record lists a USDC trustline, but which refuses the
    /// payment itself with `op_no_trust`: Lajan's check passes, the network says no.
    pub(crate) fn account_that_refuses_after_the_check(&self, byte: u8) -> String {
        let (account, _) = keypair(byte);
        self.net.create_account(&account, 1);
        self.net.trust(&account, "USDC", &self.issuer);
        self.net.untrust_after_check(&account);
        account
    }

    pub(crate) async fn execute(&self, at: Timestamp) -> usize {
        self.app.workers().execute_payouts_once(at).await.unwrap()
    }
}

/// The executor's lease unless a test says otherwise.
pub(crate) const LEASE_MS: i64 = 120_000;

macro_rules! live_test {
    ($name:ident, $timeout:expr, |$live:ident| $body:block) => {
        live_test!($name, $timeout, |_: &mut TestConfig| {}, |$live| $body);
    };
    ($name:ident, $timeout:expr, $tweak:expr, |$live:ident| $body:block) => {
        mod $name {
            use super::*;

            async fn case($live: &Live) $body

            #[tokio::test]
            async fn sqlite() {
                let live = Live::start(lajan_store::testing::sqlite().await, $timeout, $tweak).await;
                case(&live).await;
                live.app.stop().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(db) = lajan_store::testing::postgres(concat!("live_", stringify!($name))).await else { return };
                let live = Live::start(db, $timeout, $tweak).await;
                case(&live).await;
                live.app.stop().await;
            }
        }
    };
}

pub(crate) use live_test;

live_test!(a_live_payout_is_signed_submitted_and_sent_once, 60, |live| {
    let id = live.approved_payout(WALLET, "12.50").await;
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    let paid = live.net.payments();
    assert_eq!(paid.len(), 1);
    let payment = &paid[0];
    assert_eq!(payment.from, live.distribution);
    assert_eq!(payment.to, WALLET);
    assert_eq!(payment.amount_stroops, 125_000_000, "12.50 with seven decimals on the network");
    assert_eq!((payment.asset_code.as_str(), payment.asset_issuer.as_deref()), ("USDC", Some(live.issuer.as_str())));
    assert_eq!(payment.memo, Some(lajan_domain::stellar_memo::StellarMemo::Text("loan 7".into())));
    let attempts = p["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0]["txHash"], payment.tx_hash.as_str());
    assert_eq!(attempts[0]["ledgerSeq"], payment.ledger);
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ + 1));
    // Nothing left to do, and the sandbox knows nothing of it.
    assert_eq!(live.execute(Timestamp::now().plus_millis(600_000)).await, 0);
    assert_eq!(live.net.submissions().len(), 1);
    let events = live.get("/v1/events?type=payout.completed").await;
    assert_eq!(events["data"].as_array().unwrap().len(), 1);
});

live_test!(a_payout_to_an_account_that_cannot_take_it_is_held_unsent_until_it_can, 60, |live| {
    let (nowhere, _) = keypair(21);
    let (untrusting, _) = keypair(22);
    live.net.create_account(&untrusting, 1);
    let no_destination = live.approved_payout(&nowhere, "1").await;
    let no_trust = live.approved_payout(&untrusting, "1").await;
    assert_eq!(live.execute(Timestamp::now()).await, 2);
    for (id, code) in [(&no_destination, "op_no_destination"), (&no_trust, "op_no_trust")] {
        let p = live.get(&format!("/v1/payouts/{id}")).await;
        assert_eq!((p["execStatus"].as_str(), p["hold"]["code"].as_str()), (Some("ready_to_send"), Some(code)), "{p}");
        assert!(p["attempts"].as_array().unwrap().is_empty(), "nothing built: {p}");
    }
    assert!(live.net.submissions().is_empty(), "never submitted, no fee paid");
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ));
    let held = live.get("/v1/events?type=payout.held").await;
    assert_eq!(held["data"].as_array().unwrap().len(), 2, "{held}");
    assert!(held["data"][0]["data"]["object"]["hold"]["code"].is_string(), "{held}");

    // Checked again a while later, still unable: held still, no second event.
    assert_eq!(live.execute(Timestamp::now().plus_millis(6 * 60_000)).await, 2);
    assert_eq!(live.get("/v1/events?type=payout.held").await["data"].as_array().unwrap().len(), 2);
    assert!(live.net.submissions().is_empty());

    // The receiver adds USDC to their wallet: the next check sends the payout, once.
    live.net.trust(&untrusting, "USDC", &live.issuer);
    live.execute(Timestamp::now().plus_millis(12 * 60_000)).await;
    let p = live.get(&format!("/v1/payouts/{no_trust}")).await;
    assert_eq!((p["execStatus"].as_str(), &p["hold"]), (Some("sent"), &Value::Null), "{p}");
    assert_eq!(live.net.payments().len(), 1);

    // Held for the whole registration window (14 days): it fails with the network's code,
    // never having been submitted.
    live.app.db.age_payout_holds(14 * 86_400_000).await;
    live.execute(Timestamp::now().plus_millis(18 * 60_000)).await;
    let p = live.get(&format!("/v1/payouts/{no_destination}")).await;
    assert_eq!(p["execStatus"], "failed", "{p}");
    assert_eq!(
        (&p["attempts"][0]["errorCode"], &p["attempts"][0]["txHash"]),
        (&json!("op_no_destination"), &json!(""))
    );
    assert_eq!(live.net.submissions().len(), 1, "only the payout that could be paid was submitted");
});

live_test!(horizon_final_codes_fail_the_payout_at_once, 60, |live| {
    // The receiver removes the asset between Lajan's check and the payment.
    let fickle = live.account_that_refuses_after_the_check(22);
    let id = live.approved_payout(&fickle, "1").await;
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "failed", "{p}");
    assert_eq!(p["attempts"].as_array().unwrap().len(), 1, "final: no retry");
    assert_eq!(p["attempts"][0]["errorCode"], "op_no_trust");
    assert!(live.net.payments().is_empty());
    // A failed transaction is in a ledger too: it used a sequence number.
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ + 1));
});

live_test!(a_lost_answer_keeps_the_operations_reason, 60, |live| {
    // The payment lands, and fails, behind a 504: only the lookup by hash can tell why, from the
    // transaction's result XDR (it used to settle as a bare tx_failed).
    let fickle = live.account_that_refuses_after_the_check(23);
    live.net.time_out_next(1, true);
    let id = live.approved_payout(&fickle, "1").await;
    live.execute(Timestamp::now()).await;
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "failed", "{p}");
    let attempts = p["attempts"].as_array().unwrap();
    assert_eq!(attempts.last().unwrap()["errorCode"], "op_no_trust", "{p}");
    assert!(live.net.payments().is_empty());
});

live_test!(a_timeout_resubmits_the_identical_envelope_and_pays_once, 60, |live| {
    // The first submission lands behind a 504; the resubmission meets its own used sequence and
    // the hash lookup finds it.
    live.net.time_out_next(1, true);
    let landed = live.approved_payout(WALLET, "3").await;
    live.execute(Timestamp::now()).await;
    // Two 504s where nothing lands, then an answer.
    live.net.time_out_next(2, false);
    let late = live.approved_payout(WALLET, "4").await;
    live.execute(Timestamp::now()).await;
    for id in [landed, late] {
        let p = live.get(&format!("/v1/payouts/{id}")).await;
        assert_eq!(p["execStatus"], "sent", "{p}");
    }
    assert_eq!(live.net.payments().len(), 2, "each payout paid once");
    let submissions = live.net.submissions();
    assert_eq!(submissions.len(), 5, "{submissions:?}");
    assert!(submissions[..2].iter().all(|h| *h == submissions[0]), "identical envelope resubmitted");
    assert!(submissions[2..].iter().all(|h| *h == submissions[2]), "identical envelope resubmitted");
});

live_test!(a_crash_after_submitting_is_reconciled_by_hash, 60, |live| {
    let id = live.approved_payout(WALLET, "5").await;
    // What an executor does up to the submission, then it dies before recording anything.
    let now = Timestamp::now();
    let lajan_ledger::Transaction { hash, envelope } = built_and_recorded(live, &id, now).await;
    let horizon = lajan_ledger::horizon::HorizonClient::new(live.net.url(), std::time::Duration::from_secs(5)).unwrap();
    horizon.submit(&envelope).await.unwrap();
    // Still leased: nobody touches it.
    assert_eq!(live.execute(now.plus_millis(1_000)).await, 0);
    // After the lease the next executor resumes with the stored envelope and finds it by hash.
    assert_eq!(live.execute(now.plus_millis(121_000)).await, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    let attempts = p["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1, "sent again within its attempt: {p}");
    assert_eq!(attempts[0]["txHash"], hash.as_str());
    assert_eq!(live.net.payments().len(), 1, "paid once");
});

live_test!(a_stored_transaction_whose_sequence_was_taken_is_replaced_after_max_time, 2, |live| {
    let id = live.approved_payout(WALLET, "6").await;
    let now = Timestamp::now();
    let lajan_ledger::Transaction { hash, .. } = built_and_recorded(live, &id, now).await;
    // The process died before submitting, and another transaction used the sequence meanwhile.
    live.net.create_account(&live.distribution, START_SEQ + 1);
    // Resumed: the stored envelope can no longer land, but only its max_time proves it did not.
    live.execute(now.plus_millis(121_000)).await;
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    let last = p["attempts"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["errorCode"], "tx_too_late", "{p}");
    assert_eq!(p["execStatus"], "ready_to_send");
    // Then a new transaction, on the next sequence, pays it.
    live.execute(Timestamp::now().plus_millis(122_000)).await;
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    let paid = live.net.payments();
    assert_eq!(paid.len(), 1);
    assert_ne!(paid[0].tx_hash, hash);
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ + 2));
});

live_test!(the_live_watcher_pays_invoices_by_memo_from_the_configured_issuer, 60, |live| {
    let client = live
        .post("/v1/clients", &json!({ "firstName": "Rose", "lastName": "Pierre", "email": "rose@example.ht" }))
        .await;
    let invoice = live
        .post(
            "/v1/invoices",
            &json!({ "clientId": client["id"], "dueDate": "2030-01-31", "currency": "HTG",
                     "lineItems": [{ "description": "Loan fee", "quantity": 1, "unitPrice": 250.00 }] }),
        )
        .await;
    let id = invoice["id"].as_str().unwrap();
    live.post(&format!("/v1/invoices/{id}/send"), &json!({})).await;
    let pi = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let (intent, _) = live.app.store().get_payment_intent(&pi).await.unwrap().unwrap();
    // The live page tells the customer where to pay.
    let page = live.app.http.get(live.app.url(&format!("/pay/{pi}"))).send().await.unwrap().text().await.unwrap();
    assert!(page.contains(&live.distribution), "receiving account on the live page");
    assert!(page.contains(&live.issuer), "the configured issuer in the payment request");

    let (customer, _) = keypair(30);
    let (forger, _) = keypair(31);
    // Someone else's token called HTG: same memo, not counted.
    live.net.pay(&customer, &live.distribution, ("HTG", Some(&forger)), 2_500_000_000, Some(&intent.reference));
    // A payment without our memo, and the real one.
    live.net.pay(&customer, &live.distribution, ("HTG", Some(&live.issuer)), 10_000_000, Some("rent"));
    let hash = live.net.pay(
        &customer,
        &live.distribution,
        ("HTG", Some(&live.issuer)),
        2_500_000_000,
        Some(&intent.reference),
    );
    assert_eq!(live.app.workers().watch_live_payments_once().await.unwrap(), 1);
    let paid = live.get(&format!("/v1/invoices/{id}")).await;
    assert_eq!(paid["status"], "paid", "{paid}");
    assert_eq!(paid["amountPaid"], "250.00");
    let recorded = live.app.store().incoming_payments_for_intent(&intent.id).await.unwrap();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].tx_hash, hash);
    // The cursor moved past them: nothing is recorded twice.
    assert_eq!(live.app.workers().watch_live_payments_once().await.unwrap(), 0);
    assert_eq!(
        live.app.store().ledger_cursor(&format!("live:payments:{}", live.distribution)).await.unwrap().as_deref(),
        Some("3")
    );
});

live_test!(a_live_disbursement_needs_the_distribution_account_to_cover_it, 60, |live| {
    // 100.00 USDC on the network, in stroops.
    live.net.fund(&live.distribution, "USDC", Some(&live.issuer), 1_000_000_000);
    let create = |amount: u32| {
        let items: Vec<Value> = (0..2).map(|_| json!({ "walletAccountId": WALLET, "assetAmount": amount })).collect();
        json!({ "name": "Live batch", "assetCode": "USDC", "items": items })
    };
    let big = live.post("/v1/disbursements", &create(60)).await;
    let big_id = big["id"].as_str().unwrap();
    assert_eq!(big["assetIssuer"], live.issuer.as_str());
    live.post(&format!("/v1/disbursements/{big_id}/submit"), &json!({})).await;
    let r = live.app.http.post(live.app.url(&format!("/v1/disbursements/{big_id}/approve"))).bearer_auth(&live.key);
    let refused = lajan_testkit::expect_error(r.send().await.unwrap(), 400, "insufficient_balance").await;
    assert!(refused["message"].as_str().unwrap().contains("20.00 USDC more"), "{refused}");
    let small = live.post("/v1/disbursements", &create(40)).await;
    let id = small["id"].as_str().unwrap();
    live.post(&format!("/v1/disbursements/{id}/submit"), &json!({})).await;
    assert_eq!(live.post(&format!("/v1/disbursements/{id}/approve"), &json!({})).await["status"], "approved");
    assert_eq!(live.execute(Timestamp::now()).await, 2);
    let done = live.get(&format!("/v1/disbursements/{id}")).await;
    assert_eq!((done["status"].as_str(), done["amountSent"].as_str()), (Some("completed"), Some("80.00")), "{done}");
    assert_eq!(live.net.payments().len(), 2);
});

/// What an executor does at `now` up to the submission: claims the payout `id` (the only one
/// due), builds its transaction and records the attempt. The caller plays what comes next.
async fn built_and_recorded(live: &Live, id: &str, now: Timestamp) -> lajan_ledger::Transaction {
    let store = live.app.store();
    let claimed = store.claim_payouts(now, 120_000, 10, Environment::Live).await.unwrap();
    let ledger = live.app.workers().services().live_ledger().unwrap();
    let tx = ledger.build(&claimed.payouts[0], None, None).await.unwrap();
    let attempt = NewAttempt { tx_hash: &tx.hash, envelope: &tx.envelope, channel_account: None };
    store.start_attempt(id, &claimed.lease, attempt, now).await.unwrap().unwrap();
    tx
}

/// Waits (a few seconds at most) until the fake network has received `n` submissions.
async fn submissions_reach(live: &Live, n: usize) {
    for _ in 0..500 {
        if live.net.submissions().len() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the fake network received {:?}, not {n} submissions", live.net.submissions());
}

live_test!(a_late_answer_after_the_lease_never_lets_a_second_transaction_land, 2, |live| {
    // The interleaving a review found: executor Z submits tx1 and hears back only after its
    // lease; B resumes tx1 and proves it dead; A claims the payout; Z's late answer arrives; then
    // another executor comes by while A still holds the payout, and A goes on from its claim.
    let id = live.approved_payout(WALLET, "9").await;
    let t0 = Timestamp::now();
    let release = live.net.stall_next_submission(false);
    let z = live.execute(t0);
    let (a, b) = (live.app.store().clone(), &live);
    let others = async move {
        submissions_reach(b, 1).await;
        // tx1's max_time (2 s) passes.
        tokio::time::sleep(Duration::from_millis(3_100)).await;
        assert_eq!(b.execute(t0.plus_millis(LEASE_MS + 1_000)).await, 1, "B takes over after Z's lease");
        let claim = a.claim_payouts(t0.plus_millis(2 * LEASE_MS), LEASE_MS, 1, Environment::Live).await.unwrap();
        assert_eq!(claim.payouts.len(), 1, "A claims it");
        release.notify_one();
        claim
    };
    let (z_claimed, a_claim) = tokio::join!(z, others);
    assert_eq!(z_claimed, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "ready_to_send", "{p}");
    assert_eq!(p["attempts"][0]["errorCode"], "tx_too_late", "Z's late answer is recorded on its attempt: {p}");
    assert_eq!(live.execute(t0.plus_millis(2 * LEASE_MS + 1_000)).await, 0, "A's lease stands: {p}");
    live.app.workers().execute_claimed(&a_claim.lease, &a_claim.payouts[0]).await.unwrap();

    let paid = live.net.payments();
    assert_eq!(paid.len(), 1, "paid once: {paid:?}");
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    let attempts = p["attempts"].as_array().unwrap();
    assert_eq!(attempts.last().unwrap()["txHash"], paid[0].tx_hash.as_str());
    assert_eq!(attempts.iter().filter(|a| !a["ledgerSeq"].is_null()).count(), 1, "{p}");
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ + 1), "tx1's unused sequence, taken again");
    // Nothing is left to do, for anyone.
    assert_eq!(live.execute(t0.plus_millis(10 * LEASE_MS)).await, 0);
    assert_eq!(live.net.payments().len(), 1);
});

live_test!(
    a_lease_is_renewed_while_its_submission_waits_on_the_network,
    60,
    |c: &mut TestConfig| c.workers.payout_lease_ms = 800,
    |live| {
        let id = live.approved_payout(WALLET, "2").await;
        let release = live.net.stall_next_submission(true);
        let first = live.execute(Timestamp::now());
        let second = async {
            submissions_reach(live, 1).await;
            // Two leases pass while the answer is awaited; the executor kept renewing its own.
            tokio::time::sleep(Duration::from_millis(1_600)).await;
            let taken = live.execute(Timestamp::now()).await;
            release.notify_one();
            taken
        };
        let (claimed, taken) = tokio::join!(first, second);
        assert_eq!((claimed, taken), (1, 0), "nobody else takes a payout whose executor is alive");
        let p = live.get(&format!("/v1/payouts/{id}")).await;
        assert_eq!(p["execStatus"], "sent", "{p}");
        assert_eq!(p["attempts"].as_array().unwrap().len(), 1, "{p}");
        assert_eq!(live.net.payments().len(), 1);
    }
);

live_test!(live_payouts_are_claimed_one_at_a_time, 60, |live| {
    let ids = [live.approved_payout(WALLET, "1").await, live.approved_payout(WALLET, "2").await];
    let claim = live.app.store().claim_payouts(Timestamp::now(), LEASE_MS, 1, Environment::Live).await.unwrap();
    assert_eq!(claim.payouts.len(), 1);
    // The executor claims the other as it starts it, and the held one is left alone.
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let mut sent = 0;
    for id in &ids {
        sent += usize::from(live.get(&format!("/v1/payouts/{id}")).await["execStatus"] == "sent");
    }
    assert_eq!(sent, 1);
    assert_eq!(live.net.payments().len(), 1);
});

live_test!(a_refused_resend_leaves_the_outcome_unknown_until_the_first_copy_lands, 60, |live| {
    // The first copy is accepted behind a 504 but not yet in a ledger; two resends are refused
    // for their fee (surge pricing); the third gets in. One attempt, one transaction, paid once.
    live.net.time_out_next(1, false);
    live.net.refuse_next(2, "tx_insufficient_fee");
    let id = live.approved_payout(WALLET, "8").await;
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    let attempts = p["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1, "{p}");
    let submissions = live.net.submissions();
    assert_eq!(submissions.len(), 4, "{submissions:?}");
    assert!(submissions.iter().all(|h| *h == submissions[0]), "the identical envelope every time");
    assert_eq!(live.net.payments().len(), 1);
});

live_test!(a_fee_refusal_waits_for_proof_then_rebuilds_with_a_higher_fee_until_it_lands, 1, |live| {
    // Surge pricing outlasts three transactions: a refusal for the fee is transient, so the
    // payout is rebuilt, never failed, however many it takes.
    live.net.refuse_next(3, "tx_insufficient_fee");
    let id = live.approved_payout(WALLET, "4").await;
    let path = format!("/v1/payouts/{id}");
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&path).await;
    assert_eq!(
        (p["execStatus"].as_str(), p["attempts"][0]["errorCode"].as_str()),
        (Some("ready_to_send"), Some("tx_insufficient_fee"))
    );
    // The refused transaction could still be sent and land until its max_time: nothing new yet.
    assert_eq!(live.execute(Timestamp::now().plus_millis(1_500)).await, 1);
    assert_eq!(live.get(&path).await["attempts"].as_array().unwrap().len(), 1);
    for (step, attempts) in [(1, 2), (2, 3), (3, 4)] {
        // Proven dead: a new transaction on the same unused sequence, offering more.
        tokio::time::sleep(Duration::from_millis(2_100)).await;
        assert_eq!(live.execute(Timestamp::now().plus_millis(60_000 * step)).await, 1);
        let p = live.get(&path).await;
        assert_eq!(p["attempts"].as_array().unwrap().len(), attempts, "{p}");
        assert_ne!(p["execStatus"], "failed", "{p}");
    }
    let p = live.get(&path).await;
    assert_eq!(p["execStatus"], "sent", "{p}");
    let mut offers = Vec::new();
    for a in p["attempts"].as_array().unwrap() {
        let envelope = live.app.store().attempt_envelope(a["id"].as_str().unwrap()).await.unwrap();
        let tx = lajan_ledger::stellar_decode::decode_payment(&envelope, TESTNET_PASSPHRASE).unwrap();
        offers.push((tx.fee, tx.sequence));
    }
    let seq = START_SEQ + 1;
    let doubled = [(100, seq), (200, seq), (300, seq), (300, seq)];
    assert_eq!(offers, doubled, "doubled up to LAJAN_LIVE_MAX_FEE, on one sequence");
    assert_eq!(live.net.payments().len(), 1);
    assert_eq!(live.net.sequence(&live.distribution), Some(seq));
    assert!(live.get("/v1/events?type=payout.failed").await["data"].as_array().unwrap().is_empty());
});

live_test!(a_payout_no_transaction_can_be_built_for_fails_with_its_reason, 60, |live| {
    // An account whose sequence number is exhausted can never send another transaction.
    live.net.create_account(&live.distribution, i64::MAX);
    let id = live.approved_payout(WALLET, "3").await;
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "failed", "{p}");
    let attempt = &p["attempts"][0];
    assert_eq!((attempt["errorCode"].as_str(), attempt["txHash"].as_str()), (Some("tx_not_built"), Some("")), "{p}");
    assert!(attempt["errorMessage"].as_str().unwrap().contains("exhausted"), "{p}");
    let failed = live.get("/v1/events?type=payout.failed").await;
    assert_eq!(failed["data"].as_array().unwrap().len(), 1);
    assert!(live.net.submissions().is_empty());
});

live_test!(an_attempt_older_than_horizons_history_is_never_settled_dead, 1, |live| {
    live.net.refuse_next(1, "tx_bad_auth");
    let id = live.approved_payout(WALLET, "5").await;
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!(p["execStatus"], "failed", "{p}");
    // The transaction's max_time passes; Horizon drops its history.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    live.net.trim_history();
    let retried = live.app.http.post(live.app.url(&format!("/v1/payouts/{id}/retry"))).bearer_auth(&live.key);
    assert_eq!(retried.send().await.unwrap().status(), 200);
    assert_eq!(live.execute(Timestamp::now()).await, 1);
    let p = live.get(&format!("/v1/payouts/{id}")).await;
    assert_eq!((p["execStatus"].as_str(), p["attempts"].as_array().unwrap().len()), (Some("ready_to_send"), 1), "{p}");
    assert_eq!(live.net.submissions().len(), 1, "nothing new was built");
});

live_test!(a_payout_to_an_exchange_carries_the_memo_its_wallet_needs, 60, |live| {
    use lajan_domain::stellar_memo::StellarMemo;
    // Waiting for a wallet, then given one at an exchange that credits customer 1234567.
    let client = live
        .post("/v1/clients", &json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001" }))
        .await;
    let client_id = client["id"].as_str().unwrap();
    let body = json!({ "clientId": client_id, "assetAmount": 10, "assetCode": "USDC", "memo": "loan 7" });
    let waiting = live.post("/v1/payouts", &body).await;
    let waiting_id = waiting["id"].as_str().unwrap();
    live.post(&format!("/v1/payouts/{waiting_id}/approve"), &json!({})).await;
    let wallet = json!({ "walletAccountId": WALLET, "walletMemo": "1234567" });
    let r = live.app.http.put(live.app.url(&format!("/v1/clients/{client_id}"))).bearer_auth(&live.key).json(&wallet);
    let updated: Value = r.send().await.unwrap().json().await.unwrap();
    assert_eq!((&updated["walletMemo"], &updated["walletMemoType"]), (&json!("1234567"), &json!("id")), "{updated}");
    // A payout made once the client has the wallet takes the memo too.
    let later = live.post("/v1/payouts", &body).await;
    let later_id = later["id"].as_str().unwrap();
    assert_eq!((&later["walletMemo"], &later["memo"]), (&json!("1234567"), &json!("loan 7")), "{later}");
    live.post(&format!("/v1/payouts/{later_id}/approve"), &json!({})).await;

    assert_eq!(live.execute(Timestamp::now()).await, 2);
    for id in [waiting_id, later_id] {
        let p = live.get(&format!("/v1/payouts/{id}")).await;
        assert_eq!((&p["execStatus"], &p["walletMemoType"]), (&json!("sent"), &json!("id")), "{p}");
    }
    let paid = live.net.payments();
    assert_eq!(paid.len(), 2);
    for payment in &paid {
        assert_eq!(payment.to, WALLET);
        assert_eq!(payment.memo, Some(StellarMemo::Id(1_234_567)), "the wallet's memo, as an id, not the loan's");
    }
    // Horizon shows it as an id memo, as a wallet reading its payments sees it.
    let horizon: Value = reqwest::get(format!("{}/accounts/{WALLET}/payments?order=asc", live.net.url()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let record = &horizon["_embedded"]["records"][0]["transaction"];
    assert_eq!((&record["memo_type"], &record["memo"]), (&json!("id"), &json!("1234567")), "{horizon}");
});
