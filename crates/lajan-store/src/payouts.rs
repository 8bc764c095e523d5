//! The payouts half of the store: payouts, their attempts, and the sandbox ledger's accounts and
//! transactions. One transaction per method; events written with their change.

use crate::{EventFor, IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::payout::{Attempt, AttemptResult, Payout, PayoutAction, PayoutDetail, PayoutFilter, PayoutType};
use lajan_domain::{Tenant, Timestamp};
use std::collections::BTreeMap;

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

/// What the sandbox ledger said to a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxSubmit {
    /// Applied now (`fresh`), or earlier under the same hash (with its original sequence).
    /// The ledger closes at `closes_at`; like Horizon, the submitter hears back after that.
    Accepted {
        ledger_seq: i64,
        fresh: bool,
        closes_at: Timestamp,
    },
    Refused {
        code: &'static str,
        message: String,
    },
}

#[async_trait]
pub trait PayoutStore: Send + Sync {
    /// Inserts the payout and records one event per entry of `events` (e.g. `payout.created`,
    /// then `payout.approved` for an auto-approved payout). With `idempotency`, the claimed key
    /// is completed with the response in the same transaction.
    async fn create_payout(
        &self,
        tenant: &Tenant,
        payout: &Payout,
        events: &[&'static str],
        event: EventFor<'_, PayoutDetail>,
        idempotency: Option<IdempotentResponse<'_, PayoutDetail>>,
    ) -> StoreResult<PayoutDetail>;

    async fn get_payout(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PayoutDetail>>;

    async fn list_payouts(
        &self,
        tenant: &Tenant,
        query: &PayoutQuery,
    ) -> StoreResult<(Page<PayoutDetail>, PayoutCounts)>;

    /// Approve, reject or retry under a row lock. With `distinct_approver`, the approving key
    /// must not be the creating one (`Rejected(cannot_approve)`). With `idempotency`, the key is
    /// claimed and answered in the same transaction.
    #[allow(clippy::too_many_arguments)]
    async fn payout_action(
        &self,
        tenant: &Tenant,
        id: &str,
        action: PayoutAction,
        key_id: &str,
        distinct_approver: bool,
        reason: Option<&str>,
        at: Timestamp,
        event: EventFor<'_, PayoutDetail>,
        idempotency: Option<IdempotentResponse<'_, PayoutDetail>>,
    ) -> StoreResult<PayoutDetail>;

    /// Claims up to `limit` payouts to execute: approved and pending ones move to
    /// `ready_to_send`; those already there whose retry time (or a dead worker's lease) has
    /// come are taken again. Each is leased for `lease_ms`.
    async fn claim_payouts(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<PayoutDetail>>;

    /// Records an attempt with its transaction's hash and envelope before it is submitted.
    async fn start_attempt(
        &self,
        payout_id: &str,
        tx_hash: &str,
        envelope: &str,
        at: Timestamp,
    ) -> StoreResult<Attempt>;

    /// The stored envelope of an attempt, to resubmit it unchanged.
    async fn attempt_envelope(&self, attempt_id: &str) -> StoreResult<String>;

    /// Records how an attempt ended and moves the payout accordingly, with its event
    /// (`payout.completed` or `payout.failed`; none for a retry). A payout that is no longer
    /// executing (another executor settled it) only gets the attempt recorded.
    async fn finish_attempt(
        &self,
        tenant: &Tenant,
        payout_id: &str,
        attempt_id: &str,
        result: &AttemptResult,
        at: Timestamp,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<PayoutDetail>;

    /// Leaves an executing payout for later without an attempt: nothing was submitted (the
    /// ledger could not be reached to build the transaction).
    async fn hold_payout(&self, payout_id: &str, retry_at: Timestamp) -> StoreResult<()>;

    /// A ledger watcher's saved position (e.g. Horizon's paging token), by watcher name.
    async fn ledger_cursor(&self, name: &str) -> StoreResult<Option<String>>;

    async fn save_ledger_cursor(&self, name: &str, cursor: &str, at: Timestamp) -> StoreResult<()>;

    /// Applies a payment from the organization's sandbox account, once per `tx_hash`: a hash
    /// seen before answers with its original ledger sequence and moves nothing again. The
    /// transaction lands in the ledger open at `at`; ledgers close every `close_ms`.
    #[allow(clippy::too_many_arguments)]
    async fn sandbox_submit(
        &self,
        tenant: &Tenant,
        tx_hash: &str,
        destination: &str,
        asset_code: &str,
        amount: i64,
        memo: Option<&str>,
        at: Timestamp,
        close_ms: i64,
    ) -> StoreResult<SandboxSubmit>;

    /// Whether the sandbox ledger holds a transaction with this hash (reconciliation).
    async fn sandbox_transaction_seq(&self, tx_hash: &str) -> StoreResult<Option<i64>>;

    /// The organization's sandbox balances (funded on first use), in cents per asset code.
    async fn sandbox_balances(&self, tenant: &Tenant) -> StoreResult<Vec<(String, i64)>>;

    /// Adds `amount` to a sandbox balance and returns every balance after it. A balance may not
    /// pass [`lajan_domain::money::MAX_CENTS`], the most a Stellar account can hold
    /// (`Rejected(invalid_amount)`). With `idempotency`, the key is claimed and answered in the
    /// same transaction.
    async fn sandbox_top_up(
        &self,
        tenant: &Tenant,
        asset_code: &str,
        amount: i64,
        idempotency: Option<IdempotentResponse<'_, Vec<(String, i64)>>>,
    ) -> StoreResult<Vec<(String, i64)>>;
}

/// Every sandbox account starts with this much of each asset: 1,000,000.00.
pub const SANDBOX_OPENING_BALANCE: i64 = 100_000_000;
