//! SEP-24 deposits: a wallet's user registering the wallet's account, and the payout the wallet
//! follows afterwards. A deposit is only ever read by the account (and memo) it is for.

use crate::messages::Outgoing;
use crate::{EventFor, StoreResult};
use async_trait::async_trait;
use lajan_domain::invitation::{Invitation, RegistrationChecks};
use lajan_domain::wallet_deposit::WalletDeposit;
use lajan_domain::{Environment, Invalid, Tenant, Timestamp};

/// A deposit as its interactive page opens it: with the receiver its contact matched, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedDeposit {
    pub deposit: WalletDeposit,
    /// The organization and client whose open invitation the contact given matched.
    pub receiver: Option<(Tenant, String)>,
    /// How many contacts were given on the page.
    pub contact_tries: i64,
    /// What this page itself proved: its own code, confirmation and answer.
    pub checks: RegistrationChecks,
    /// SHA-256 of the contact last given on the page.
    pub contact_hash: Option<String>,
}

/// A code for the contact given on a deposit's page, as its transaction writes it.
pub struct DepositCode<'a> {
    /// SHA-256 of the contact as clients keep it: what the caps across pages count by.
    pub contact_hash: &'a str,
    /// The client whose open invitation the contact matched: the page is bound to it.
    pub receiver: Option<(&'a Tenant, &'a str)>,
    /// SHA-256 of the new code, bound to the deposit (a code is made whether or not it is sent,
    /// so both cases do the same work).
    pub code_hash: &'a str,
    /// The code's message, queued only when the contact matched.
    pub message: Option<Outgoing<'a>>,
    /// A contact given (it counts as one of the page's contacts) rather than a code asked again.
    pub new_contact: bool,
}

/// What became of a code asked for on a deposit's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeSend {
    Sent,
    /// The page sent one less than a minute ago: wait this many seconds.
    TooSoon(i64),
    /// The contact had its codes for the hour, from every page together.
    ContactBusy,
    /// The deposit is registered or its link expired.
    Gone,
}

/// A step's change to a page's checks and, when the page is bound to one, its invitation; given
/// the wrong codes given for the page's contact today on every deposit page.
pub type PageChange<'a> =
    dyn Fn(&mut RegistrationChecks, Option<&mut Invitation>, i64) -> Result<bool, Invalid> + Send + Sync + 'a;

/// One step on a deposit's page, applied in one transaction to its checks and, when the page is
/// bound to a receiver, to their invitation (locked).
pub struct DepositChange<'a> {
    /// Changes the page's checks (and the invitation's counts or status), given the wrong codes
    /// given for the page's contact today on every deposit page; whether `event` is due.
    pub change: &'a PageChange<'a>,
    /// Recorded with the change (`client.verification_locked`).
    pub event: Option<EventFor<'a, Invitation>>,
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
    /// Stores a new deposit whose page opens with the link hashed `link_hash`, unless its
    /// account already has `open_per_account` deposits unfinished with a working link (false,
    /// nothing stored; starts of one account are counted one at a time). Deposits whose link
    /// expired a day before `d.started_at` without a registration are forgotten in the same
    /// transaction, so unfinished ones are bounded by how many are started in a day.
    async fn start_wallet_deposit(
        &self,
        d: &WalletDeposit,
        link_hash: &str,
        open_per_account: i64,
    ) -> StoreResult<bool>;

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

    /// A new code for deposit `id`'s page (and, with `code.new_contact`, its contact given and
    /// the page bound to what it matched, forgetting what the page proved before). At most one
    /// a minute per page and [`lajan_domain::invitation::CONTACT_CODES_PER_HOUR`] per contact.
    async fn send_deposit_code(&self, id: &str, code: DepositCode<'_>, at: Timestamp) -> StoreResult<CodeSend>;

    /// Applies `step` to deposit `id`'s page; its checks after it, and the invitation it is bound
    /// to. `NotFound` for a deposit registered already.
    async fn deposit_step(
        &self,
        id: &str,
        at: Timestamp,
        step: DepositChange<'_>,
    ) -> StoreResult<(RegistrationChecks, Option<Invitation>)>;

    /// Marks deposit `id` registered, following `payout_id` (none when nothing waits).
    async fn register_wallet_deposit(&self, id: &str, payout_id: Option<&str>, at: Timestamp) -> StoreResult<()>;
}
