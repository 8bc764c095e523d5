//! SEP-24 deposits: a wallet's user registering the wallet's account, and the payout the wallet
//! follows afterwards. A deposit is only ever read by the account (and memo) it is for.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::wallet_deposit::WalletDeposit;
use lajan_domain::{Environment, Tenant, Timestamp};

/// A deposit as its interactive page opens it: with the receiver its contact matched, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedDeposit {
    pub deposit: WalletDeposit,
    /// The organization and client whose open invitation the contact given matched.
    pub receiver: Option<(Tenant, String)>,
    /// How many contacts were given on the page.
    pub contact_tries: i64,
}

/// Which of an account's deposits to list, newest first.
#[derive(Debug, Clone, Default)]
pub struct DepositQuery<'a> {
    pub asset_code: Option<&'a str>,
    /// Only those started at or after this.
    pub no_older_than: Option<Timestamp>,
    /// Only those started before this deposit (the SEP's `paging_id`).
    pub before_id: Option<&'a str>,
    pub limit: i64,
}

#[async_trait]
pub trait WalletDepositStore: Send + Sync {
    /// Stores a new deposit whose page opens with the link hashed `link_hash`. Deposits whose
    /// link expired a day before `d.started_at` without a registration are forgotten in the same
    /// transaction, so unfinished ones are bounded by how many are started in a day.
    async fn start_wallet_deposit(&self, d: &WalletDeposit, link_hash: &str) -> StoreResult<()>;

    /// How many deposits are unfinished with a link still working at `now`, counting up to
    /// `cap` (a bound on what anonymous wallets can leave open).
    async fn open_wallet_deposits(&self, now: Timestamp, cap: i64) -> StoreResult<i64>;

    /// The deposit `id` of `account` (with `memo`) on `env`'s network.
    async fn wallet_deposit(
        &self,
        env: Environment,
        account: &str,
        memo: Option<u64>,
        id: &str,
    ) -> StoreResult<Option<WalletDeposit>>;

    /// The deposits of `account` (with `memo`) on `env`'s network, newest first.
    async fn wallet_deposits(
        &self,
        env: Environment,
        account: &str,
        memo: Option<u64>,
        q: &DepositQuery<'_>,
    ) -> StoreResult<Vec<WalletDeposit>>;

    /// The deposit whose page link is hashed `link_hash`.
    async fn wallet_deposit_by_link(&self, link_hash: &str) -> StoreResult<Option<LinkedDeposit>>;

    /// The client on `env` with this phone number or email (either may be `None`) and an open
    /// invitation, the most recently invited first, with their organization.
    async fn invited_by_contact(
        &self,
        env: Environment,
        phone: Option<&str>,
        email: Option<&str>,
    ) -> StoreResult<Option<(Tenant, String)>>;

    /// Counts a contact given on deposit `id`'s page and, when it matched, binds `receiver`.
    async fn give_deposit_contact(&self, id: &str, receiver: Option<(&Tenant, &str)>, at: Timestamp)
    -> StoreResult<()>;

    /// Marks deposit `id` registered, following `payout_id` (none when nothing waits).
    async fn register_wallet_deposit(&self, id: &str, payout_id: Option<&str>, at: Timestamp) -> StoreResult<()>;
}
