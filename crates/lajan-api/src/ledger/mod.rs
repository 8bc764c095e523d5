//! Submitting payouts to a ledger: the sandbox network persisted in the store ([`sandbox`]), or
//! Stellar through Horizon for live payouts ([`live`]). Both store the transaction and its hash
//! before submitting it, and resubmit the identical transaction while its outcome is unknown.

pub mod live;
pub mod sandbox;

/// How often a payout is tried, and how long to wait between tries.
pub struct RetryPolicy<'a> {
    /// Attempts after which an error that left nothing applied becomes final. Unknown outcomes
    /// never become failures: the same transaction is resubmitted until the ledger settles it.
    pub max_attempts: i64,
    /// Waits before the 2nd, 3rd, ... attempt; the last one repeats.
    pub delays_secs: &'a [i64],
}

impl RetryPolicy<'_> {
    /// Seconds to wait after attempt `attempt_number` (1-based).
    pub fn delay_after(&self, attempt_number: i64) -> i64 {
        let i = usize::try_from(attempt_number.saturating_sub(1)).unwrap_or(0);
        self.delays_secs.get(i).or(self.delays_secs.last()).copied().unwrap_or(60)
    }
}

/// The error code of an attempt whose outcome is unknown (a timeout): the payout resumes by
/// resubmitting the same stored transaction, never by building a new one.
pub const OUTCOME_UNKNOWN: &str = "tx_timeout";

/// Whether a payout whose last attempt ended with `code` (None: it never finished, e.g. a crash)
/// must resume with that attempt's transaction.
pub fn resubmits_same_transaction(code: Option<&str>) -> bool {
    code.is_none_or(|c| c == OUTCOME_UNKNOWN)
}
