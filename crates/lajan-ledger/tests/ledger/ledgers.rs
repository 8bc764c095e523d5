//! The one `Ledger` interface over both networks: the sandbox simulator (on SQLite and
//! PostgreSQL) and Stellar through a loopback fake Horizon build, submit, look up by hash and
//! read balances the same way.

use lajan_domain::client::{Client, WalletAddress};
use lajan_domain::id::IdKind;
use lajan_domain::payout::{ApprovalStatus, AssetCode, AttemptResult, ExecStatus, Payout, PayoutDetail, PayoutType};
use lajan_domain::retry::Doubling;
use lajan_domain::{Tenant, Timestamp};
use lajan_ledger::live::{LiveLedgerConfig, StellarLedger};
use lajan_ledger::sandbox::{self, SandboxLedger};
use lajan_ledger::stellar::TESTNET_PASSPHRASE;
use lajan_ledger::testing::FakeStellar;
use lajan_ledger::{Ledger, Reach, Tries};
use secrecy::SecretString;

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
const RETRY: Doubling = Doubling::PAYOUTS;

fn payout(tenant: &Tenant, asset_issuer: Option<String>, cents: i64) -> PayoutDetail {
    let now = Timestamp::now();
    PayoutDetail {
        tenant: tenant.clone(),
        payout: Payout {
            id: IdKind::Payout.generate(),
            payout_type: PayoutType::Direct,
            client_id: None,
            wallet_account_id: Some(WalletAddress::parse(WALLET).unwrap()),
            asset_amount: cents,
            asset_code: AssetCode::parse("USDC").unwrap(),
            asset_issuer: asset_issuer.map(|issuer| WalletAddress::parse(&issuer).unwrap()),
            memo: Some("loan 7".into()),
            wallet_memo: None,
            disbursement_id: None,
            approval: ApprovalStatus::Approved,
            exec: ExecStatus::ReadyToSend,
            created_by_key: "key_test".into(),
            approval_withdrawn_by: None,
            created_at: now,
            updated_at: now,
        },
        client: None::<Client>,
        attempts: Vec::new(),
        attempts_before_retry: 0,
        approved_at: None,
        cancel_reason: None,
        hold: None,
    }
}

/// Pays 25.00 USDC through `ledger` and checks what the interface promises about it.
async fn pays_once_and_finds_it_by_hash(ledger: &dyn Ledger, d: &PayoutDetail) {
    let tx = ledger.build(d, None, None).await.expect("built");
    assert_eq!(ledger.lookup(&tx.hash).await.expect("asked"), None, "not on the ledger before it is sent");
    let first = ledger.submit(d, &tx, false, Tries { built: 1, sends: 1 }, &RETRY).await.expect("submitted");
    let AttemptResult::Sent { ledger_seq } = first else { panic!("sent, got {first:?}") };
    assert_eq!(ledger.lookup(&tx.hash).await.expect("asked"), Some(ledger_seq));
    // The identical transaction again: the ledger holds it once, in the same ledger.
    let again = ledger.submit(d, &tx, true, Tries { built: 1, sends: 2 }, &RETRY).await.expect("resubmitted");
    assert_eq!(again, AttemptResult::Sent { ledger_seq });
}

async fn sandbox_case(db: lajan_store::testing::TestStore) {
    let tenant = lajan_store::testing::test_tenant(&db.store).await;
    let ledger = SandboxLedger::new(db.store.clone(), 10);
    let issuer = sandbox::issuer("USDC");
    assert_eq!(ledger.balance(&tenant, "USDC", issuer.as_deref()).await.unwrap(), Some(100_000_000));
    assert_eq!(ledger.balance(&tenant, "USDC", Some(WALLET)).await.unwrap(), None, "another issuer's USDC");
    assert!(ledger.parallelism() > 1, "sandbox payouts share a ledger");
    pays_once_and_finds_it_by_hash(&ledger, &payout(&tenant, issuer.clone(), 2_500)).await;
    assert_eq!(ledger.balance(&tenant, "USDC", issuer.as_deref()).await.unwrap(), Some(100_000_000 - 2_500));
    let usdc = [("USDC".to_owned(), issuer.clone())];
    assert_eq!(ledger.reach(WALLET, &usdc).await.unwrap(), Reach::Ready);
    let magic = |label: &str| sandbox::magic::address(label);
    assert_eq!(ledger.reach(&magic("op_no_destination"), &usdc).await.unwrap(), Reach::NoAccount);
    assert_eq!(ledger.reach(&magic("op_no_trust"), &usdc).await.unwrap(), Reach::NoTrustline("USDC".into()));
    db.cleanup().await;
}

#[tokio::test]
async fn the_sandbox_ledger_sqlite() {
    sandbox_case(lajan_store::testing::sqlite().await).await;
}

#[tokio::test]
async fn the_sandbox_ledger_postgres() {
    let Some(db) = lajan_store::testing::postgres("the_sandbox_ledger").await else { return };
    sandbox_case(db).await;
}

/// A live ledger configured for the test network, paying from `secret`, through `net`'s Horizon.
fn testnet_ledger(net: &FakeStellar, secret: SecretString) -> StellarLedger {
    StellarLedger::new(&LiveLedgerConfig {
        horizon_url: net.url().to_owned(),
        network_passphrase: TESTNET_PASSPHRASE.into(),
        distribution_secret: secret,
        channel_secrets: Vec::new(),
        receiving_account: None,
        base_fee: 100,
        max_fee: 10_000,
        tx_timeout_secs: 60,
    })
    .unwrap()
}

#[tokio::test]
async fn the_stellar_ledger() {
    let net = FakeStellar::start(TESTNET_PASSPHRASE).await;
    let seed = stellar_strkey::ed25519::PrivateKey([7; 32]);
    let secret = SecretString::from(seed.as_unredacted().to_string().as_str().to_owned());
    let distribution = lajan_ledger::stellar::account_of_secret(&secret).unwrap();
    let issuer = lajan_ledger::stellar::account_of_secret(&SecretString::from(
        stellar_strkey::ed25519::PrivateKey([8; 32]).as_unredacted().to_string().as_str().to_owned(),
    ))
    .unwrap();
    net.create_account(&distribution, 100 << 32);
    net.create_account(WALLET, 1);
    net.fund(&distribution, "USDC", Some(&issuer), 1_234_567_890);
    let ledger = testnet_ledger(&net, secret);
    let tenant = Tenant::new("org_live".to_owned(), lajan_domain::Environment::Live);
    // 123.4567890 USDC on the network is 123.45 here: a fraction of a cent is not counted.
    assert_eq!(ledger.balance(&tenant, "USDC", Some(&issuer)).await.unwrap(), Some(12_345));
    assert_eq!(ledger.balance(&tenant, "EURC", Some(&issuer)).await.unwrap(), None, "no trustline");
    assert_eq!(ledger.parallelism(), 1, "live payouts take the account's sequence one by one");
    pays_once_and_finds_it_by_hash(&ledger, &payout(&tenant, Some(issuer.clone()), 2_500)).await;
    assert_eq!(net.payments().len(), 1, "paid once");

    // A receiver's address, checked before payouts go to it: it exists and trusts each asset.
    let usdc = [("USDC".to_owned(), Some(issuer.clone())), ("XLM".to_owned(), None)];
    let unknown = lajan_ledger::stellar::account_of_secret(&SecretString::from(
        stellar_strkey::ed25519::PrivateKey([9; 32]).as_unredacted().to_string().as_str().to_owned(),
    ))
    .unwrap();
    assert_eq!(ledger.reach(&unknown, &usdc).await.unwrap(), Reach::NoAccount);
    net.create_account(&unknown, 1);
    assert_eq!(ledger.reach(&unknown, &usdc).await.unwrap(), Reach::NoTrustline("USDC".into()));
    assert_eq!(ledger.reach(&unknown, &usdc[1..]).await.unwrap(), Reach::Ready, "every account holds XLM");
    net.fund(&unknown, "USDC", Some(&issuer), 0);
    assert_eq!(ledger.reach(&unknown, &usdc).await.unwrap(), Reach::Ready, "a trustline, even empty");
    net.fund(&unknown, "USDC", Some(WALLET), 0);
    let other = [("USDC".to_owned(), Some(WALLET.to_owned()))];
    assert_eq!(
        ledger.reach(&distribution, &other).await.unwrap(),
        Reach::NoTrustline("USDC".into()),
        "another issuer's"
    );
}

#[tokio::test]
async fn the_stellar_ledger_builds_nothing_for_another_network() {
    let net = FakeStellar::start(lajan_ledger::stellar::PUBLIC_PASSPHRASE).await;
    let seed = stellar_strkey::ed25519::PrivateKey([7; 32]);
    let secret = SecretString::from(seed.as_unredacted().to_string().as_str().to_owned());
    net.create_account(&lajan_ledger::stellar::account_of_secret(&secret).unwrap(), 100 << 32);
    let ledger = testnet_ledger(&net, secret);
    let mismatch = ledger.check_network().await.unwrap_err().to_string();
    assert!(mismatch.contains(TESTNET_PASSPHRASE) && mismatch.contains(lajan_ledger::stellar::PUBLIC_PASSPHRASE));
    let tenant = Tenant::new("org_live".to_owned(), lajan_domain::Environment::Live);
    let refused = ledger.build(&payout(&tenant, None, 100), None, None).await.unwrap_err();
    assert!(
        matches!(refused, lajan_ledger::LedgerFault::Unavailable(ref m) if m.contains("another network")),
        "{refused}"
    );
    // The distribution secret never prints.
    let shown = format!("{ledger:?}");
    assert!(!shown.contains(&seed.as_unredacted().to_string().to_string()), "{shown}");
}

/// Channel accounts: each its own account, never the distribution account; the parallelism is
/// one payout per channel.
#[test]
fn channel_secrets_are_checked_at_start() {
    let secret = |byte: u8| {
        SecretString::from(
            stellar_strkey::ed25519::PrivateKey([byte; 32]).as_unredacted().to_string().as_str().to_owned(),
        )
    };
    let config = |channels: Vec<SecretString>| LiveLedgerConfig {
        horizon_url: "http://127.0.0.1:1".into(),
        network_passphrase: TESTNET_PASSPHRASE.into(),
        distribution_secret: secret(7),
        channel_secrets: channels,
        receiving_account: None,
        base_fee: 100,
        max_fee: 10_000,
        tx_timeout_secs: 60,
    };
    let ledger = StellarLedger::new(&config(vec![secret(20), secret(21)])).unwrap();
    assert_eq!(ledger.parallelism(), 2);
    let account = |byte| lajan_ledger::stellar::account_of_secret(&secret(byte)).unwrap();
    assert_eq!(ledger.channels(), [account(20), account(21)]);
    assert_eq!(StellarLedger::new(&config(Vec::new())).unwrap().parallelism(), 1, "one at a time without channels");
    for bad in [vec![secret(20), secret(20)], vec![secret(7)], vec![SecretString::from("GABC")]] {
        let err = StellarLedger::new(&config(bad)).unwrap_err();
        assert!(err.to_string().contains("LAJAN_LIVE_CHANNEL_SECRETS"), "{err}");
        let seeds = [secret(7), secret(20)];
        assert!(seeds.iter().all(|s| !err.to_string().contains(secrecy::ExposeSecret::expose_secret(s))), "{err}");
    }
}
