//! The sandbox ledger: Lajan's stand-in for Stellar in the test environment. It holds each
//! organization's sandbox balances, takes the payments payouts send, and records the payments
//! a payment page makes, in ledgers that close on a clock as Stellar's do.

use crate::{IdempotentResponse, StoreResult};
use async_trait::async_trait;
use lajan_domain::payment::IncomingPayment;
use lajan_domain::{Tenant, Timestamp};

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

/// A payment submitted to the sandbox ledger.
#[derive(Debug, Clone)]
pub struct SandboxPayment<'a> {
    pub tenant: &'a Tenant,
    pub tx_hash: &'a str,
    pub destination: &'a str,
    pub asset_code: &'a str,
    pub amount: i64,
    pub memo: Option<String>,
}

#[async_trait]
pub trait SandboxStore: Send + Sync {
    /// Applies payments from their organizations' sandbox accounts, in order and in one
    /// transaction, once per `tx_hash`: a hash seen before answers with its original ledger
    /// sequence and moves nothing again; a payment its account cannot cover is refused. They
    /// land in the ledger open at `at`; ledgers close every `close_ms`. Answers each in order.
    async fn sandbox_submit(
        &self,
        payments: &[SandboxPayment<'_>],
        at: Timestamp,
        close_ms: i64,
    ) -> StoreResult<Vec<SandboxSubmit>>;

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

    /// Records a payment on the sandbox ledger in the ledger open at its `created_at` (ledgers
    /// close every `close_ms`), and says when that ledger closes. A transaction hash recorded
    /// before answers with that payment as recorded, closing at once.
    async fn record_sandbox_payment(
        &self,
        payment: &IncomingPayment,
        close_ms: i64,
    ) -> StoreResult<(IncomingPayment, Timestamp)>;
}

/// Every sandbox account starts with this much of each asset: 1,000,000.00.
pub const SANDBOX_OPENING_BALANCE: i64 = 100_000_000;
