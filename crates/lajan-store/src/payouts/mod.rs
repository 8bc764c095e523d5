//! Payouts: money an organization sends, approved (or rejected) by its keys, then claimed by the
//! worker and executed through attempts, each one transaction on the ledger.

use crate::{Change, ChangeOf, EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payout::{
    ApprovalStatus, Attempt, AttemptResult, Hold, Payout, PayoutAction, PayoutDetail, PayoutFilter, PayoutType,
};
use lajan_domain::settings::Settings;
use lajan_domain::{Environment, Tenant, Timestamp};
use std::collections::BTreeMap;

// The sandbox ledger was part of this module before the store was split by area; this keeps
// its paths working.

#[derive(Debug, Clone, Default)]
pub struct PayoutQuery {
    pub filter: Option<PayoutFilter>,
    pub payout_type: Option<PayoutType>,
    /// Matches the client's name or the wallet address.
    pub search: Option<String>,
    pub page: PageRequest,
}

/// How many payouts fall under each list filter (with the same type and search), and in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayoutCounts {
    pub all: u64,
    pub by_filter: BTreeMap<&'static str, u64>,
}

/// How a new payout starts, from the tenant's settings: its approval status and the events its
/// creation records, in order (see `lajan_domain::payout::initial_approval`).
pub type ApprovalRule<'a> = &'a (dyn Fn(&Settings) -> (ApprovalStatus, &'static [&'static str]) + Send + Sync);

/// A transaction about to be submitted for a payout: its hash, its signed envelope, and the
/// channel account it takes its sequence number from, if any.
#[derive(Debug, Clone, Copy)]
pub struct NewAttempt<'a> {
    pub tx_hash: &'a str,
    pub envelope: &'a str,
    pub channel_account: Option<&'a str>,
}

impl NewAttempt<'static> {
    /// An attempt recorded only to fail a payout that was never sent: no transaction.
    pub const NOTHING_SENT: NewAttempt<'static> = NewAttempt { tx_hash: "", envelope: "", channel_account: None };
}

#[async_trait]
pub trait PayoutStore: Send + Sync {
    /// Inserts the payout with the approval status `approval` gives for the tenant's settings
    /// (read in this transaction, so a policy change and a create never cross), and records one
    /// event per type it names (e.g. `payout.created`, then `payout.approved` for an
    /// auto-approved payout); `payout.approval` is not read. With `idempotency`, the claimed key
    /// is completed with the response in the same transaction.
    async fn create_payout(
        &self,
        tenant: &Tenant,
        payout: &Payout,
        approval: ApprovalRule<'_>,
        event: EventFor<'_, PayoutDetail>,
        idempotency: Option<IdempotentResponse<'_, PayoutDetail>>,
    ) -> StoreResult<PayoutDetail>;

    async fn get_payout(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PayoutDetail>>;

    async fn list_payouts(
        &self,
        tenant: &Tenant,
        query: &PayoutQuery,
    ) -> StoreResult<(Page<PayoutDetail>, PayoutCounts)>;

    /// Approve, reject or retry under a row lock. When the tenant's settings require a
    /// distinct approver (read in this transaction), the approving key must not be the creating
    /// one (`Rejected(cannot_approve)`). With `idempotency`, the key is
    /// claimed and answered in the same transaction.
    async fn payout_action(
        &self,
        id: &str,
        action: PayoutAction,
        key_id: &str,
        reason: Option<&str>,
        change: ChangeOf<'_, PayoutDetail>,
    ) -> StoreResult<PayoutDetail>;

    /// Claims up to `limit` payouts of environment `env` to execute: approved and pending ones
    /// move to `ready_to_send`; those already there whose retry time (or a dead worker's lease)
    /// has come are taken again. Each is leased until `now + lease_ms` under a new token, which
    /// every later write by the claiming executor presents.
    async fn claim_payouts(&self, now: Timestamp, lease_ms: i64, limit: i64, env: Environment) -> StoreResult<Claimed>;

    /// The payout with its attempts, read under its row lock, while `lease` still holds it
    /// (`None` once another claim took it, or it settled or was held back): what the executor
    /// decides from, never the claim's copy, which other executors may have outdated.
    async fn held_payout(&self, tenant: &Tenant, payout_id: &str, lease: &str) -> StoreResult<Option<PayoutDetail>>;

    /// Extends to `until` every payout `lease` still holds; returns how many.
    async fn renew_lease(&self, lease: &str, until: Timestamp) -> StoreResult<u64>;

    /// Records an attempt with its transaction's hash and envelope before it is submitted, and
    /// the channel account its transaction takes as its source, if any; `None` (nothing
    /// recorded) when `lease` no longer holds the payout. `Conflict` (nothing recorded) when
    /// another unsettled attempt holds that channel.
    async fn start_attempt(
        &self,
        payout_id: &str,
        lease: &str,
        attempt: NewAttempt<'_>,
        at: Timestamp,
    ) -> StoreResult<Option<Attempt>>;

    /// The channel accounts held by unsettled attempts (whose transactions may still take
    /// their sequence numbers), whichever process made them.
    async fn channels_held(&self) -> StoreResult<Vec<String>>;

    /// Reserves the source `account` for `holder` (a lease) until `until`, unless another
    /// holder's reservation of it runs past `now`; answers whether `holder` has it now.
    async fn reserve_source(&self, account: &str, holder: &str, now: Timestamp, until: Timestamp) -> StoreResult<bool>;

    /// Ends `holder`'s reservation of `account` (none: nothing happens).
    async fn release_source(&self, account: &str, holder: &str) -> StoreResult<()>;

    /// The source accounts some executor, in any process, holds a reservation of at `now`.
    async fn reserved_sources(&self, now: Timestamp) -> StoreResult<Vec<String>>;

    /// Marks an unsettled attempt as being sent once more (its envelope unchanged): in flight
    /// again, one more submission. `None` (nothing changed) when `lease` no longer holds the
    /// payout or the attempt applied.
    async fn resend_attempt(&self, payout_id: &str, lease: &str, attempt_id: &str) -> StoreResult<Option<Attempt>>;

    /// The stored envelope of an attempt, to resubmit it unchanged.
    async fn attempt_envelope(&self, attempt_id: &str) -> StoreResult<String>;

    /// Records how an attempt ended (always: it is a fact) and, while `lease` holds the payout,
    /// moves it accordingly with its event (`payout.completed` or `payout.failed`; none for a
    /// retry) and releases it. An applied transaction moves any payout not yet `sent` (a late
    /// executor's answer, a payout marked failed): it was paid. Any other answer from an
    /// executor that lost the lease changes nothing but its attempt.
    async fn finish_attempt(
        &self,
        payout_id: &str,
        attempt_id: &str,
        lease: &str,
        result: &AttemptResult,
        change: Change<'_, EventFor<'_, PayoutDetail>>,
    ) -> StoreResult<PayoutDetail>;

    /// Releases a payout `lease` holds until `retry_at` without settling it (nothing was
    /// submitted, or an earlier transaction must be proven dead first).
    async fn hold_payout(&self, payout_id: &str, lease: &str, retry_at: Timestamp) -> StoreResult<()>;

    /// Holds a payout `lease` holds because its destination cannot take it, until `recheck_at`:
    /// records `hold`'s code and message, and its `since` unless it was held already (the first
    /// hold's time counts towards the registration window); the first hold records `event`
    /// (`payout.held`) in the same transaction. Building a transaction clears the hold. Answers
    /// the payout as held; `None` when `lease` no longer holds it.
    async fn hold_unreachable_payout(
        &self,
        tenant: &Tenant,
        payout_id: &str,
        lease: &str,
        hold: &Hold,
        recheck_at: Timestamp,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Option<PayoutDetail>>;

    /// Makes every payout of `env` that waits without an executor (held, or retrying later)
    /// due at `now`, for when the network answers again after it could not be asked; how many.
    async fn wake_held_payouts(&self, env: Environment, now: Timestamp) -> StoreResult<u64>;

    /// Raises `payout.delayed` (with `event`'s payload), once, for up to `limit` approved
    /// payouts still unsent since before `unsent_before` (their approval, or their last manual
    /// retry), each marked in the same transaction as its event; answers them.
    async fn alert_delayed_payouts(
        &self,
        unsent_before: Timestamp,
        now: Timestamp,
        limit: i64,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Vec<PayoutDetail>>;

    /// Cancels (`receiver_not_registered`, `payout.canceled` with `event`'s payload, in the same
    /// transaction) up to `limit` approved payouts whose client has not registered a wallet within
    /// their organization's `registrationWindowDays` of the approval, as of `now`; answers them.
    async fn cancel_unregistered_payouts(
        &self,
        now: Timestamp,
        limit: i64,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Vec<PayoutDetail>>;

    /// [`PayoutStore::start_attempt`] for many payouts' first transactions, in one database
    /// transaction: records an attempt for each payout `lease` still holds that has none yet,
    /// and answers those, by payout id. The others (taken by another claim, or with an attempt
    /// already) get nothing.
    async fn start_first_attempts(
        &self,
        lease: &str,
        first: &[FirstAttempt],
        at: Timestamp,
    ) -> StoreResult<Vec<(String, Attempt)>>;

    /// [`PayoutStore::finish_attempt`] for many attempts of payouts `lease` holds, in one
    /// database transaction with their events. Answers the payout ids it did not hold: their
    /// outcomes are recorded one by one with `finish_attempt`, which knows what a late
    /// executor's answer may still say.
    async fn finish_attempts(
        &self,
        lease: &str,
        outcomes: &[Outcome],
        at: Timestamp,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Vec<String>>;
}

/// A payout's first transaction, to record before it is submitted.
#[derive(Debug, Clone)]
pub struct FirstAttempt {
    pub payout_id: String,
    pub tx_hash: String,
    pub envelope: String,
}

/// How one attempt of a payout ended.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub payout_id: String,
    pub attempt_id: String,
    pub result: AttemptResult,
}

/// Payouts one claim took, and the lease token its executor writes to them with.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub lease: String,
    pub payouts: Vec<PayoutDetail>,
}
