//! The one interface the payout executor pays through, implemented by the sandbox simulator
//! ([`crate::sandbox`]) and by Stellar through Horizon ([`crate::live`]); and the retry rules
//! both follow.

use async_trait::async_trait;
use lajan_domain::client::WalletAddress;
use lajan_domain::payout::{AttemptResult, Payout, PayoutDetail};
use lajan_domain::retry::Doubling;
use lajan_domain::{Tenant, Timestamp};
use lajan_store::StoreError;
use std::sync::Arc;

/// A transaction for a payout: its hash, stored before it is submitted, and its envelope, which
/// a resubmission sends unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    pub hash: String,
    pub envelope: String,
}

/// A payout's last transaction, proven dead, and the code it was refused with.
#[derive(Debug, Clone, Copy)]
pub struct Previous<'a> {
    pub tx: &'a Transaction,
    pub error_code: Option<&'a str>,
}

/// How far a payout has got, as the retry rules count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tries {
    /// Transactions built for the payout since its last manual retry, this one included: the
    /// wait before the next rebuild grows with it.
    pub built: i64,
    /// Times this transaction's envelope was sent, this time included: the wait after an
    /// unknown outcome grows with it.
    pub sends: i64,
}

/// One transaction of a [`Ledger::submit_many`], with what [`Ledger::submit`] takes beside it.
#[derive(Debug, Clone, Copy)]
pub struct Submission<'a> {
    pub payout: &'a PayoutDetail,
    pub tx: &'a Transaction,
    pub resubmission: bool,
    pub tries: Tries,
}

/// Where a stored transaction stands on the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// It applied, in this ledger: the payout was paid.
    Applied { ledger_seq: i64 },
    /// Proven never to apply: its hash is not in the network's history, and the network has
    /// closed a ledger past its `max_time` or used its sequence number for another transaction.
    Dead,
    /// Not applied yet, but it could be until about `until`: nothing new may be built before.
    Pending { until: Timestamp },
}

/// Why a ledger gave no answer: the network or the store could not be asked.
#[derive(Debug, thiserror::Error)]
pub enum LedgerFault {
    /// The network could not be asked (e.g. Horizon is unreachable); try again later. From
    /// `build`, nothing was signed; from `submit`, the outcome is unknown, so the executor
    /// resubmits the same transaction.
    #[error("{0}")]
    Unavailable(String),
    /// From `build`: the payout cannot be expressed as a transaction on this network, and no
    /// retry can change that (nothing was signed).
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub type LedgerResult<T> = Result<T, LedgerFault>;

/// The account `payout` pays. Only a payout with a wallet is ever queued (one waiting for its
/// client's registration is not), so a missing one is refused before anything is signed.
pub fn destination(payout: &Payout) -> LedgerResult<&str> {
    payout
        .wallet_account_id
        .as_ref()
        .map(WalletAddress::as_str)
        .ok_or_else(|| LedgerFault::Invalid(format!("payout {} has no wallet to pay yet", payout.id)))
}

/// Whether an account can take a payment of some assets now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    Ready,
    /// The network has no such account (it was never funded).
    NoAccount,
    /// The account holds no trustline for this asset code.
    NoTrustline(String),
}

/// A network payouts are paid on.
#[async_trait]
pub trait Ledger: Send + Sync {
    /// Whether `account` exists and trusts each of `assets` (code and issuer; no issuer: the
    /// native asset, which every account holds): what a receiver's address is checked against
    /// before payouts are sent to it.
    async fn reach(&self, account: &str, assets: &[(String, Option<String>)]) -> LedgerResult<Reach>;

    /// How many payouts may be in flight at once: sandbox payouts share a ledger and wait for its
    /// close together; live ones each take the next sequence number of their source (the
    /// distribution account, or one channel account each).
    fn parallelism(&self) -> usize;

    /// The channel accounts payouts' transactions can take as their source (each its own
    /// sequence numbers, the payment still from the paying account); none: the paying account
    /// is the source of every transaction.
    fn channels(&self) -> &[String] {
        &[]
    }

    /// The accounts whose sequence numbers new transactions take: the channels, or without
    /// them the paying account; each is built on by one executor at a time, in any process
    /// (none: the ledger orders its own submissions, as the sandbox does).
    fn sources(&self) -> &[String] {
        self.channels()
    }

    /// Builds and signs a new transaction paying `payout`, on `channel` (one of
    /// [`Ledger::sources`], reserved for it) when given; the paying account itself is no channel. An error means nothing was signed.
    /// `previous`: the payout's last transaction, already proven dead ([`Ledger::fate`]); where
    /// the sequence it took is still unused (on the same source), the new one takes it again, so
    /// even if the proof were wrong the two could not both apply.
    async fn build(
        &self,
        payout: &PayoutDetail,
        previous: Option<Previous<'_>>,
        channel: Option<&str>,
    ) -> LedgerResult<Transaction>;

    /// Whether a stored transaction (stored at `stored_at`) applied, can never apply, or may
    /// still apply.
    async fn fate(&self, tx: &Transaction, stored_at: Timestamp) -> LedgerResult<Fate>;

    /// Submits a stored transaction and says how the attempt ended. `resubmission`: an earlier
    /// attempt (or a process that died) may already have sent it. Unknown outcomes are
    /// `AttemptResult::Retry` with [`OUTCOME_UNKNOWN`], never failures.
    async fn submit(
        &self,
        payout: &PayoutDetail,
        tx: &Transaction,
        resubmission: bool,
        tries: Tries,
        retry: &Doubling,
    ) -> LedgerResult<AttemptResult>;

    /// [`Ledger::submit`] for many payouts' transactions at once, answering each in order. The
    /// default sends them one after the other; a network that takes many in one go (the
    /// sandbox's one store transaction and one ledger close) overrides it.
    async fn submit_many(&self, submissions: &[Submission<'_>], retry: &Doubling) -> LedgerResult<Vec<AttemptResult>> {
        let mut results = Vec::with_capacity(submissions.len());
        for s in submissions {
            results.push(self.submit(s.payout, s.tx, s.resubmission, s.tries, retry).await?);
        }
        Ok(results)
    }

    /// Whether the network answers at all (Horizon's root resource, for Stellar): after it could
    /// not be asked, the executor asks this before trying its held payouts again.
    async fn answers(&self) -> LedgerResult<()> {
        Ok(())
    }

    /// The ledger that applied the transaction with this hash, if it was applied.
    async fn lookup(&self, hash: &str) -> LedgerResult<Option<i64>>;

    /// What the account `tenant` pays from holds of an asset, in cents; `None` when it holds no
    /// trustline for it (`asset_issuer` `None`: the native asset).
    async fn balance(&self, tenant: &Tenant, asset_code: &str, asset_issuer: Option<&str>)
    -> LedgerResult<Option<i64>>;
}

/// The ledger of each environment: the sandbox always, the live network when configured.
#[derive(Clone)]
pub struct Ledgers {
    pub sandbox: Arc<dyn Ledger>,
    pub live: Option<Arc<dyn Ledger>>,
}

impl Ledgers {
    /// The ledger `tenant`'s payouts go to; `None` for live ones while no live network is set.
    pub fn of(&self, tenant: &Tenant) -> Option<&Arc<dyn Ledger>> {
        if tenant.env.is_live() { self.live.as_ref() } else { Some(&self.sandbox) }
    }
}

/// How long a payout waits after its `n`th transient outcome in a row ([`Doubling::delay_after`]),
/// spread at random so that payouts refused together do not all come back together.
pub fn retry_delay(retry: &Doubling, n: i64) -> i64 {
    retry.delay_after(n, rand::random_range(0..=1000))
}

pub use lajan_domain::payout::OUTCOME_UNKNOWN;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payout_retries_are_spread_over_the_half_below_each_ceiling() {
        let retry = Doubling::PAYOUTS;
        let drawn: std::collections::HashSet<i64> = (0..200).map(|_| retry_delay(&retry, 1)).collect();
        assert!(drawn.iter().all(|ms| (500..=1_000).contains(ms)), "{drawn:?}");
        assert!(drawn.len() > 10, "jittered: {drawn:?}");
        assert!((0..200).map(|_| retry_delay(&retry, 40)).all(|ms| (15_000..=30_000).contains(&ms)));
    }
}
