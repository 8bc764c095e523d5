//! Live payouts through channel accounts, against the fake Stellar network: each transaction's
//! source is a free channel account and the payment's source the distribution account, so N
//! channels pay N payouts per ledger; a crash with several channels in flight pays each payout
//! once; a channel held by a transaction of unknown outcome is not reused before that outcome
//! is settled.

use crate::live::{Live, START_SEQ, keypair};
use lajan_domain::Timestamp;
use lajan_testkit::{TestConfig, WALLET};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// A short lease, so a "crashed" step's payouts are resumed two seconds later (a step stops
/// claiming after half a lease).
fn short_lease(config: &mut TestConfig) {
    config.workers.payout_lease_ms = LEASE.as_millis() as i64;
}

const LEASE: Duration = Duration::from_millis(2_000);

/// Past the lease of a step that died just now.
async fn after_the_lease() {
    tokio::time::sleep(LEASE + Duration::from_millis(100)).await;
}

fn default_lease(_: &mut TestConfig) {}

macro_rules! channel_test {
    ($name:ident, channels = $channels:expr, $lease:expr, |$live:ident| $body:block) => {
        mod $name {
            use super::*;

            async fn case($live: &Live) $body

            #[tokio::test]
            async fn sqlite() {
                let db = lajan_store::testing::sqlite().await;
                let live = Live::start_with_channels(db, 60, $channels, $lease).await;
                case(&live).await;
                live.app.stop().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(db) = lajan_store::testing::postgres(concat!("channels_", stringify!($name))).await else {
                    return;
                };
                let live = Live::start_with_channels(db, 60, $channels, $lease).await;
                case(&live).await;
                live.app.stop().await;
            }
        }
    };
}

/// Channel account `i` of [`Live::start_with_channels`], and its sequence as created.
pub(crate) fn channel(i: u8) -> (String, i64) {
    (keypair(20 + i).0, i64::from(20 + i) << 32)
}

/// How many payments landed in each ledger.
fn per_ledger(live: &Live) -> Vec<usize> {
    let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
    for ledger in live.net.payment_ledgers() {
        *counts.entry(ledger).or_default() += 1;
    }
    counts.into_values().collect()
}

/// Runs one executor step until the fake network has received `n` submissions, then drops it
/// mid-flight, as a process dies.
async fn crash_after_submissions(live: &Live, n: usize) {
    let step = live.execute(Timestamp::now());
    let submitted = async {
        while live.net.submissions().len() < n {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::select! {
        claimed = step => panic!("the step ended ({claimed} claimed) before {n} submissions"),
        () = submitted => {}
    }
}

async fn payout(live: &Live, id: &str) -> Value {
    live.get(&format!("/v1/payouts/{id}")).await
}

channel_test!(n_channels_pay_n_payouts_per_ledger, channels = 4, default_lease, |live| {
    live.net.close_ledgers_every(300);
    let mut ids = Vec::new();
    for _ in 0..8 {
        ids.push(live.approved_payout(WALLET, "1.25").await);
    }
    assert_eq!(live.execute(Timestamp::now()).await, 8);
    for id in &ids {
        assert_eq!(payout(live, id).await["execStatus"], "sent");
    }
    let paid = live.net.payments();
    assert_eq!(paid.len(), 8, "each paid once");
    assert!(paid.iter().all(|p| p.from == live.distribution), "every payment is from the distribution account");
    let counts = per_ledger(live);
    assert_eq!(counts.iter().max(), Some(&4), "four channels, four payouts per ledger: {counts:?}");
    assert!(counts.len() <= 3, "eight payouts in two ledgers, three at most: {counts:?}");
    assert_eq!(
        live.net.sequence(&live.distribution),
        Some(START_SEQ),
        "the distribution account's sequence is untouched"
    );
    let used: i64 = (0..4).map(|i| live.net.sequence(&channel(i).0).unwrap() - channel(i).1).sum();
    assert_eq!(used, 8, "one channel sequence per payout");
});

channel_test!(without_channels_one_payout_lands_per_ledger, channels = 0, default_lease, |live| {
    live.net.close_ledgers_every(200);
    for _ in 0..3 {
        live.approved_payout(WALLET, "1.25").await;
    }
    assert_eq!(live.execute(Timestamp::now()).await, 3);
    assert_eq!(per_ledger(live), [1, 1, 1], "the distribution account's sequence, one per ledger");
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ + 3));
});

channel_test!(a_crash_with_several_channels_in_flight_pays_each_once, channels = 3, short_lease, |live| {
    // Three submissions land and are never answered: the process dies with three channels held.
    let _never = live.net.stall_submissions(3, true);
    let mut first = Vec::new();
    for _ in 0..3 {
        first.push(live.approved_payout(WALLET, "2").await);
    }
    crash_after_submissions(live, 3).await;
    let later = [live.approved_payout(WALLET, "3").await, live.approved_payout(WALLET, "4").await];
    // After the lease: the three are resumed (their identical envelopes, found applied); the two
    // new ones find every channel held and wait.
    after_the_lease().await;
    live.execute(Timestamp::now()).await;
    for id in &first {
        assert_eq!(payout(live, id).await["execStatus"], "sent", "resumed and reconciled");
    }
    after_the_lease().await;
    live.execute(Timestamp::now()).await;
    for id in first.iter().chain(&later) {
        let p = payout(live, id).await;
        assert_eq!(p["execStatus"], "sent", "{p}");
        assert_eq!(p["attempts"].as_array().unwrap().len(), 1, "one transaction each: {p}");
    }
    let paid = live.net.payments();
    assert_eq!(paid.len(), 5, "each payout paid once: {paid:?}");
    let used: i64 = (0..3).map(|i| live.net.sequence(&channel(i).0).unwrap() - channel(i).1).sum();
    assert_eq!(used, 5);
});

channel_test!(a_channel_held_by_an_unknown_outcome_is_reconciled_before_reuse, channels = 1, short_lease, |live| {
    // The first payout's transaction reaches the network, which has not applied it when the
    // process dies: it may still apply on the channel's next sequence.
    let _never = live.net.stall_submissions(1, false);
    let first = live.approved_payout(WALLET, "5").await;
    crash_after_submissions(live, 1).await;
    let second = live.approved_payout(WALLET, "6").await;
    after_the_lease().await;
    live.execute(Timestamp::now()).await;
    let p = payout(live, &first).await;
    assert_eq!(p["execStatus"], "sent", "the unknown outcome is settled first, by the same envelope: {p}");
    let waiting = payout(live, &second).await;
    assert_eq!(waiting["attempts"].as_array().unwrap().len(), 0, "nothing built on the held channel: {waiting}");
    after_the_lease().await;
    live.execute(Timestamp::now()).await;
    for id in [&first, &second] {
        let p = payout(live, id).await;
        assert_eq!(p["execStatus"], "sent", "{p}");
        let attempts = p["attempts"].as_array().unwrap();
        assert_eq!(attempts.len(), 1, "no transaction replaced, none refused for its sequence: {p}");
        assert!(attempts[0]["errorCode"].is_null(), "{p}");
    }
    assert_eq!(live.net.payments().len(), 2);
    assert_eq!(live.net.sequence(&channel(0).0), Some(channel(0).1 + 2), "the channel's next sequence, each in turn");
});

// Three executors of their own (three processes, as far as the executors can tell) on one
// database and one distribution account, no channels, every payout approved at once: each
// builds only on a sequence no other is building on, so the network refuses none for its
// sequence, never queues a second transaction from it (stellar-core would answer
// TRY_AGAIN_LATER), and every payout is paid (it used to fail a fifth of them after five
// tx_bad_seq).
channel_test!(three_executors_without_channels_never_race_on_the_sequence, channels = 0, default_lease, |live| {
    const PAYOUTS: usize = 60;
    live.net.close_ledgers_every(50);
    let mut ids = Vec::new();
    for _ in 0..PAYOUTS {
        ids.push(live.approved_payout(WALLET, "1.25").await);
    }
    let services = live.app.workers().services().clone();
    let executors: Vec<lajan_worker::Workers> = (0..3)
        .map(|_| lajan_worker::Workers::new(services.clone(), lajan_worker::WorkerConfig::default()).unwrap())
        .collect();
    let started = std::time::Instant::now();
    let store = live.app.store().clone();
    let tenant = lajan_domain::Tenant::new(live.app.org.id.clone(), lajan_domain::Environment::Live);
    loop {
        // Each executor's clock a minute ahead after the first round, so a payout held while
        // another process used the account is due again at once.
        let at = Timestamp::now().plus_millis(60_000);
        futures::future::join_all(executors.iter().map(|w| w.execute_payouts_once(at))).await;
        let mut sent = 0;
        for id in &ids {
            let p = store.get_payout(&tenant, id).await.unwrap().unwrap();
            if p.payout.exec == lajan_domain::payout::ExecStatus::Sent {
                sent += 1;
            }
        }
        if sent == PAYOUTS {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{sent} of {PAYOUTS} sent after two minutes");
    }
    for id in &ids {
        let p = payout(live, id).await;
        let attempts = p["attempts"].as_array().unwrap();
        assert!(attempts.iter().all(|a| a["errorCode"] != "tx_bad_seq"), "a sequence race: {p}");
    }
    assert_eq!(live.net.payments().len(), PAYOUTS, "each paid once");
    assert_eq!(live.net.sequence(&live.distribution), Some(START_SEQ + PAYOUTS as i64), "one sequence per payout");
    assert_eq!(live.net.try_again_later(), 0, "never a second transaction queued from the account");
    eprintln!("three executors, no channels: {PAYOUTS} payouts sent in {:?}", started.elapsed());
});
