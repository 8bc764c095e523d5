//! `lajan-bench channels`: live payouts per ledger close with 1, 4, 16 ... channel accounts,
//! through the real executor against the fake Stellar network (`FakeStellar`, its ledgers
//! closing on a clock, one transaction per source account per ledger), in process over a
//! temporary SQLite database.

use lajan_domain::client::WalletAddress;
use lajan_domain::id::IdKind;
use lajan_domain::payout::{ApprovalStatus, AssetCode, ExecStatus, Payout, PayoutType};
use lajan_domain::{Environment, Tenant, Timestamp};
use lajan_ledger::live::LiveLedgerConfig;
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_ledger::testing::{FakeStellar, keypair};
use lajan_services::events::payout_event;
use lajan_services::{ServiceConfig, Services};
use lajan_worker::{WorkerConfig, Workers};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// For each channel count, pays `payouts` live payouts with ledgers closing every `close_ms`
/// and prints `channels payouts ledgers per_ledger seconds`, one line each.
pub(crate) async fn channels(counts: &[u8], payouts: usize, close_ms: u64) -> anyhow::Result<()> {
    for &n in counts {
        let (ledgers, secs) = run(n, payouts, close_ms).await?;
        println!("{n} {payouts} {ledgers} {:.2} {secs:.1}", payouts as f64 / ledgers.max(1) as f64);
    }
    Ok(())
}

/// One run with `n` channels: how many ledgers the payouts landed in, and how long it took.
async fn run(n: u8, payouts: usize, close_ms: u64) -> anyhow::Result<(usize, f64)> {
    let net = FakeStellar::start(TESTNET_PASSPHRASE).await;
    net.close_ledgers_every(close_ms);
    let (distribution, secret) = keypair(7);
    let (issuer, _) = keypair(8);
    let (wallet, _) = keypair(9);
    net.create_account(&distribution, 100 << 32);
    net.create_account(&wallet, 1);
    net.trust(&wallet, "USDC", &issuer);
    let mut channel_secrets = Vec::new();
    for byte in 0..n {
        let (account, channel_secret) = keypair(byte.wrapping_add(100));
        net.create_account(&account, (i64::from(byte) + 200) << 32);
        channel_secrets.push(channel_secret);
    }
    let dir = std::env::temp_dir().join(format!("lajan-bench-channels-{}", IdKind::Lease.generate()));
    std::fs::create_dir_all(&dir)?;
    let store = lajan_store::open(&format!("sqlite://{}", dir.join("channels.db").display())).await?;
    store.migrate().await?;
    let config = ServiceConfig {
        live_ledger: Some(LiveLedgerConfig {
            horizon_url: net.url().to_owned(),
            network_passphrase: TESTNET_PASSPHRASE.into(),
            distribution_secret: secret,
            channel_secrets,
            receiving_account: None,
            base_fee: 100,
            max_fee: 10_000,
            tx_timeout_secs: 60,
        }),
        ..ServiceConfig::default()
    };
    let services = Arc::new(Services::new(store.clone(), config)?);
    let workers = Workers::new(services, WorkerConfig::default())?;

    let org = crate::bench_org(store.as_ref()).await?;
    let tenant = Tenant::new(org.id.clone(), Environment::Live);
    for i in 0..payouts {
        let now = Timestamp::now();
        let payout = Payout {
            id: IdKind::Payout.generate(),
            payout_type: PayoutType::Direct,
            client_id: None,
            wallet_account_id: Some(WalletAddress::parse(&wallet).map_err(anyhow::Error::msg)?),
            asset_amount: 100 + i64::try_from(i)?,
            asset_code: AssetCode::parse("USDC")?,
            asset_issuer: Some(WalletAddress::parse(&issuer).map_err(anyhow::Error::msg)?),
            memo: None,
            wallet_memo: None,
            disbursement_id: None,
            approval: ApprovalStatus::Approved,
            exec: ExecStatus::Pending,
            created_by_key: "key_bench".into(),
            approval_withdrawn_by: None,
            created_at: now,
            updated_at: now,
        };
        let approved = |_: &_| (ApprovalStatus::Approved, &["payout.created"][..]);
        store.create_payout(&tenant, &payout, &approved, &payout_event, None).await?;
    }

    let started = Instant::now();
    while net.payments().len() < payouts {
        anyhow::ensure!(started.elapsed() < Duration::from_secs(600), "the payouts were not all paid in 10 minutes");
        workers.execute_payouts_once(Timestamp::now()).await?;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let secs = started.elapsed().as_secs_f64();
    let ledgers: BTreeSet<i64> = net.payment_ledgers().into_iter().collect();
    let _ = std::fs::remove_dir_all(&dir);
    Ok((ledgers.len(), secs))
}
