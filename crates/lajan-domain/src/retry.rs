//! When each kind of work runs again after a try that did not finish it, in one place: payouts
//! (a transient outcome never gives up; the wait doubles), webhook deliveries (the fixed schedule
//! of DECISIONS, then failed) and messages (email and SMS: a shorter schedule, then failed). The
//! randomness that spreads retries apart is drawn by the caller, so each rule is a pure function.

/// A wait that doubles from `first_ms` up to `cap_ms`, for work that is never given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Doubling {
    /// The first wait, in milliseconds.
    pub first_ms: i64,
    /// The longest wait, in milliseconds.
    pub cap_ms: i64,
}

impl Doubling {
    /// Payouts after a transient outcome (a refusal a new transaction cures, an unknown outcome,
    /// a network that cannot be asked): a second (one ledger close), doubling to half a minute.
    pub const PAYOUTS: Doubling = Doubling { first_ms: 1_000, cap_ms: 30_000 };

    /// The longest wait after the `n`th try in a row (1-based): `first_ms` doubled `n - 1` times,
    /// up to `cap_ms`.
    pub fn ceiling_after(&self, n: i64) -> i64 {
        let doublings = u32::try_from(n.saturating_sub(1).clamp(0, 32)).unwrap_or(32);
        self.first_ms.max(1).saturating_mul(1_i64 << doublings).min(self.cap_ms.max(self.first_ms))
    }

    /// The wait after the `n`th try: [`Doubling::ceiling_after`] less `spread_permille`
    /// thousandths (0 to 1000, drawn at random by the caller) of its half, so that work refused
    /// together (one sequence race, one brownout) does not all come back together.
    pub fn delay_after(&self, n: i64, spread_permille: i64) -> i64 {
        let ceiling = self.ceiling_after(n);
        ceiling - ceiling / 2 * spread_permille.clamp(0, 1000) / 1000
    }
}

/// How long a webhook delivery waits after each failed try before the next (DECISIONS): 5 s,
/// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. A delivery is tried at most once more than there are
/// steps, then fails.
pub const WEBHOOK_STEPS_MS: [i64; 7] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/// How long a webhook delivery waits after its `tries`-th failed try, or `None` when that was
/// the last. `jitter_permille` (within +-200) spreads the step by that much; `retry_after_ms`,
/// the receiver's `Retry-After`, replaces the step, clamped to the first and last steps.
/// Everything is divided by `divisor` (sandbox endpoints may go faster).
pub fn webhook_wait(tries: i64, jitter_permille: i64, retry_after_ms: Option<i64>, divisor: i64) -> Option<i64> {
    let step = usize::try_from(tries).ok()?.checked_sub(1).and_then(|i| WEBHOOK_STEPS_MS.get(i))?;
    let (first, last) = (WEBHOOK_STEPS_MS[0], WEBHOOK_STEPS_MS[WEBHOOK_STEPS_MS.len() - 1]);
    let wait = match retry_after_ms {
        Some(asked) => asked.clamp(first, last),
        None => step * (1000 + jitter_permille.clamp(-200, 200)) / 1000,
    };
    Some(wait / divisor.max(1))
}

/// How long an email or SMS waits after each transient failure (a provider that did not
/// answer, a 5xx, a rate limit) before the next try: 30 s, 2 min, 10 min, 1 h, 6 h. After the
/// last, the message fails.
pub const MESSAGE_STEPS_MS: [i64; 5] = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];

/// How long a message waits after its `attempts`-th try failed for a transient reason, or
/// `None` when that was the last.
pub fn message_wait(attempts: i64) -> Option<i64> {
    let step = usize::try_from(attempts).ok()?.checked_sub(1)?;
    MESSAGE_STEPS_MS.get(step).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payouts_wait_double_from_a_ledger_close_to_half_a_minute_spread_over_the_half() {
        let retry = Doubling::PAYOUTS;
        let ceilings: Vec<i64> = (0..8).map(|n| retry.ceiling_after(n)).collect();
        assert_eq!(ceilings, [1_000, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
        assert_eq!(retry.ceiling_after(i64::MAX), 30_000);
        assert_eq!(retry.delay_after(1, 0), 1_000);
        assert_eq!(retry.delay_after(1, 1000), 500);
        assert_eq!(retry.delay_after(40, 500), 22_500);
        assert_eq!(retry.delay_after(3, 5_000), 2_000, "the spread is bounded");
        assert_eq!(retry.delay_after(3, -5), 4_000);
    }

    #[test]
    fn webhook_waits_follow_the_schedule_with_bounded_jitter() {
        assert_eq!(webhook_wait(1, 0, None, 1), Some(5_000));
        assert_eq!(webhook_wait(2, 200, None, 1), Some(360_000), "+20 %");
        assert_eq!(webhook_wait(3, -200, None, 1), Some(1_440_000), "-20 %");
        assert_eq!(webhook_wait(2, 900, None, 1), Some(360_000), "jitter is bounded");
        assert_eq!(webhook_wait(7, 0, None, 1), Some(36_000_000));
        assert_eq!(webhook_wait(8, 0, None, 1), None, "eight tries, then failed");
        assert_eq!(webhook_wait(0, 0, None, 1), None);
        assert_eq!(webhook_wait(1, 0, Some(120_000), 1), Some(120_000), "Retry-After replaces the step");
        assert_eq!(webhook_wait(1, 0, Some(0), 1), Some(5_000), "clamped to the first step");
        assert_eq!(webhook_wait(1, 0, Some(i64::MAX), 1), Some(36_000_000), "and to the last");
        assert_eq!(webhook_wait(2, 0, None, 1000), Some(300), "sandbox may divide");
    }

    #[test]
    fn messages_are_tried_six_times_then_fail() {
        let waits: Vec<Option<i64>> = (0..7).map(message_wait).collect();
        assert_eq!(waits, [None, Some(30_000), Some(120_000), Some(600_000), Some(3_600_000), Some(21_600_000), None]);
    }
}
