//! A seeded, bounded randomized run of live payouts: several executors on one database pay
//! forty payouts, approved in waves, through a fake Stellar network that answers 504 after
//! applying or without, refuses for the fee, answers late and for a while answers nothing, while (on PostgreSQL, where executors can be separate
//! processes) executors are killed mid-step or frozen past their lease and then resumed. Once the faults stop, every payout must be
//! settled within a minute on the real clock, paid at most once, `sent` exactly when its
//! transaction applied, with that hash; and as every payout is payable, none `failed`.
//!
//! The seed is printed; `LAJAN_CHAOS_SEED=<seed>` draws the same faults again (the executors'
//! interleaving still depends on the machine).

use crate::live::{Live, live_test};
use lajan_domain::Timestamp;
use lajan_domain::payout::ExecStatus;
use lajan_ledger::testing::SplitMix64;
use lajan_testkit::{TestConfig, WALLET};
use lajan_worker::{WorkerConfig, Workers};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

const PAYOUTS: usize = 40;
/// Payouts are approved in this many waves while the faults last.
const WAVES: usize = 8;
const EXECUTORS: u64 = 3;
const LEASE_MS: i64 = 1_000;
const FAULTS_FOR: Duration = Duration::from_secs(8);
const SETTLE_WITHIN: Duration = Duration::from_secs(60);
/// Horizon answers nothing (503) for this long in the middle of the faults: payouts wait, and
/// the executors' next step once it answers again makes them due at once.
const BROWNOUT: Duration = Duration::from_secs(2);

fn seed() -> u64 {
    std::env::var("LAJAN_CHAOS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        u64::try_from(nanos.as_nanos() % u128::from(u64::MAX)).unwrap_or(7)
    })
}

#[derive(Default)]
struct Counts {
    steps: AtomicU32,
    killed: AtomicU32,
    frozen: AtomicU32,
    errors: AtomicU32,
}

/// One executor's loop: steps, some killed (dropped) mid-way and some frozen past the lease
/// while the faults last, until `done`.
/// `stops`: whether executors are killed and frozen. On SQLite every executor lives in the one
/// process that owns the database file: killing or stopping one alone is not a fault that can
/// happen there (and a frozen one would hold the only writer), so only the network misbehaves.
async fn executor(
    workers: Workers,
    mut rng: SplitMix64,
    (faults_end, stops): (Instant, bool),
    done: &AtomicBool,
    counts: &Counts,
) {
    while !done.load(Ordering::Acquire) {
        // The real clock: retry waits and holds are what they are in production.
        let step = workers.execute_payouts_once(Timestamp::now());
        let mut step = std::pin::pin!(step);
        let cut_after = Duration::from_millis(rng.next_u64() % 300);
        let outcome = match rng.next_u64() % 4 {
            0 if stops && Instant::now() < faults_end => match tokio::time::timeout(cut_after, &mut step).await {
                Ok(result) => Some(result),
                Err(_) => {
                    counts.killed.fetch_add(1, Ordering::Relaxed);
                    None
                }
            },
            1 if stops && Instant::now() < faults_end => match tokio::time::timeout(cut_after, &mut step).await {
                Ok(result) => Some(result),
                Err(_) => {
                    // Not polled, so not renewing its lease either: another executor may take
                    // its payout, and its answers arrive late.
                    counts.frozen.fetch_add(1, Ordering::Relaxed);
                    let ms = u64::try_from(LEASE_MS).unwrap_or(1_000) + rng.next_u64() % 1_500;
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    Some(step.await)
                }
            },
            _ => Some(step.await),
        };
        counts.steps.fetch_add(1, Ordering::Relaxed);
        if let Some(Err(e)) = outcome {
            counts.errors.fetch_add(1, Ordering::Relaxed);
            eprintln!("executor step failed: {e}");
        }
        tokio::time::sleep(Duration::from_millis(10 + rng.next_u64() % 40)).await;
    }
}

fn short_lease(c: &mut TestConfig) {
    c.workers.payout_lease_ms = LEASE_MS;
}

live_test!(random_faults_never_pay_a_payout_twice, 2, short_lease, |live| { chaos(live).await });

/// The same with four channel accounts: several payouts in flight at once, each on its own
/// channel's sequence, every sequence number used by exactly one payment.
mod random_faults_with_channels_never_pay_a_payout_twice {
    use super::*;

    async fn case(live: &Live) {
        chaos(live).await;
        let channel = crate::live_channels::channel;
        let used: i64 = (0..4).map(|i| live.net.sequence(&channel(i).0).unwrap() - channel(i).1).sum();
        assert_eq!(used, PAYOUTS as i64, "one channel sequence number per payment, none lost");
        assert_eq!(live.net.sequence(&live.distribution), Some(crate::live::START_SEQ), "never a source");
    }

    #[tokio::test]
    async fn sqlite() {
        let live = Live::start_with_channels(lajan_store::testing::sqlite().await, 2, 4, short_lease).await;
        case(&live).await;
        live.app.stop().await;
    }

    #[tokio::test]
    async fn postgres() {
        let Some(db) = lajan_store::testing::postgres("live_chaos_with_channels").await else { return };
        let live = Live::start_with_channels(db, 2, 4, short_lease).await;
        case(&live).await;
        live.app.stop().await;
    }
}

/// Approves the payouts in waves through the faults, stops them, and checks what the module
/// promises.
async fn chaos(live: &Live) {
    let seed = seed();
    eprintln!("live chaos seed {seed} (LAJAN_CHAOS_SEED={seed} draws these faults again)");
    // Created now, approved in waves while the faults last.
    let mut ids = Vec::new();
    for i in 0..PAYOUTS {
        let body = serde_json::json!({ "walletAccountId": WALLET, "assetAmount": i + 1, "assetCode": "USDC" });
        ids.push(live.post("/v1/payouts", &body).await["id"].as_str().unwrap().to_owned());
    }
    let services = live.app.workers().services().clone();
    let config = WorkerConfig { payout_lease_ms: LEASE_MS, ..WorkerConfig::default() };
    let (done, counts) = (AtomicBool::new(false), Counts::default());
    let faults_end = Instant::now() + FAULTS_FOR;
    let stops = live.app.store().backend() == lajan_store::Backend::Postgres;
    live.net.start_chaos(seed);
    let executors = (0..EXECUTORS).map(|n| {
        let workers = Workers::new(services.clone(), config.clone()).unwrap();
        let rng = SplitMix64(seed ^ (n + 1).wrapping_mul(0x9E37_79B9));
        executor(workers, rng, (faults_end, stops), &done, &counts)
    });
    let store = live.app.store().clone();
    let tenant = lajan_domain::Tenant::new(live.app.org.id.clone(), lajan_domain::Environment::Live);
    let watch = async {
        for (n, wave) in ids.chunks(PAYOUTS / WAVES).enumerate() {
            for id in wave {
                live.post(&format!("/v1/payouts/{id}/approve"), &serde_json::json!({})).await;
            }
            if n == WAVES / 2 {
                live.net.go_down(true);
                tokio::time::sleep(BROWNOUT).await;
                live.net.go_down(false);
            }
            tokio::time::sleep(FAULTS_FOR / u32::try_from(WAVES + 1).unwrap()).await;
        }
        tokio::time::sleep_until(faults_end.into()).await;
        live.net.stop_chaos();
        let stopped = Instant::now();
        let deadline = stopped + SETTLE_WITHIN;
        loop {
            let mut unsettled = Vec::new();
            for id in &ids {
                let p = store.get_payout(&tenant, id).await.unwrap().unwrap();
                let settled = matches!(p.payout.exec, ExecStatus::Sent | ExecStatus::Failed)
                    && !p.attempts.iter().any(|a| a.unsettled());
                if !settled {
                    unsettled.push((p.payout.id, p.payout.exec, p.attempts));
                }
            }
            if unsettled.is_empty() {
                eprintln!(
                    "live chaos seed {seed}: every payout settled {:?} after the faults stopped",
                    stopped.elapsed()
                );
                break;
            }
            assert!(Instant::now() < deadline, "seed {seed}: unsettled after the faults stopped: {unsettled:#?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        done.store(true, Ordering::Release);
    };
    futures::join!(futures::future::join_all(executors), watch);

    // Each payout's amount is its own, so the network's payments say which payout they paid.
    let mut applied: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for payment in live.net.payments() {
        applied.entry(payment.amount_stroops).or_default().push(payment.tx_hash);
    }
    let (mut sent, mut failed) = (0, 0);
    for (i, id) in ids.iter().enumerate() {
        let p = store.get_payout(&tenant, id).await.unwrap().unwrap();
        let stroops = i64::try_from(i + 1).unwrap() * 10_000_000;
        let paid = applied.get(&stroops).cloned().unwrap_or_default();
        assert!(paid.len() <= 1, "seed {seed}: payout {id} paid {} times: {paid:?} {:#?}", paid.len(), p.attempts);
        match p.payout.exec {
            ExecStatus::Sent => {
                sent += 1;
                let landed: Vec<_> = p.attempts.iter().filter(|a| a.applied()).collect();
                assert_eq!(landed.len(), 1, "seed {seed}: {id} {:#?}", p.attempts);
                assert_eq!(paid, [landed[0].tx_hash.clone()], "seed {seed}: {id} sent with the hash that applied");
            }
            _ => {
                failed += 1;
                assert!(paid.is_empty(), "seed {seed}: {id} is {:?} though paid: {:#?}", p.payout.exec, p.attempts);
            }
        }
    }
    assert_eq!(failed, 0, "seed {seed}: every payout could be paid, none may fail");
    eprintln!(
        "live chaos seed {seed}: {sent} sent, {failed} failed, {} payments, {} submissions; {} steps, {} killed, {} frozen, {} step errors",
        live.net.payments().len(),
        live.net.submissions().len(),
        counts.steps.load(Ordering::Relaxed),
        counts.killed.load(Ordering::Relaxed),
        counts.frozen.load(Ordering::Relaxed),
        counts.errors.load(Ordering::Relaxed),
    );
}
