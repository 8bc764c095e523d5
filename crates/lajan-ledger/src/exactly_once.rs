//! Submitting one envelope so that it applies at most once and its outcome is known: resent
//! unchanged on every unknown outcome, settled by its hash once its `max_time` has passed.

use crate::horizon::{HorizonClient, HorizonError, Submitted};
use std::time::Duration;

/// Upper bound on submissions in [`submit_exactly_once`], so a Horizon that keeps timing out cannot
/// keep a worker busy forever; with the backoff below this spans roughly half a minute.
const MAX_SUBMISSIONS: u32 = 12;
/// First pause between resubmissions; doubled each time up to `MAX_RETRY_DELAY`. Short because a
/// Horizon 504 already means it waited ~30 s for the ledger, and a ledger closes every ~5 s.
const FIRST_RETRY_DELAY: Duration = Duration::from_millis(100);
const MAX_RETRY_DELAY: Duration = Duration::from_secs(5);
/// Submits `envelope` (whose hash is `hash` and whose time bound is `max_time`, in the same unit as
/// `now()`: Unix seconds) so that the payment is applied at most once and its outcome is known.
///
/// On an unknown outcome the identical envelope is resubmitted (short, growing pauses, at most
/// `MAX_SUBMISSIONS` = 12 tries) while `now() <= max_time`. Once `max_time` has passed the envelope can
/// no longer be applied, so looking it up by hash is conclusive: `Ok` if found, else `Rejected
/// tx_too_late`. If the tries run out before `max_time`, a lookup that finds nothing proves nothing
/// and the result stays `Unknown`: call again later (with the same envelope).
///
/// `tx_too_late` is concluded only once Horizon has ingested a ledger that closed after `max_time`
/// (Horizon lags the network by a ledger or two); before that the result stays `Unknown`.
///
/// `already_submitted` says an earlier call (or an earlier run of the process) may have sent this
/// envelope: from then on (as after any unknown outcome in this call) a refusal of a resend
/// (`tx_bad_seq`, `tx_insufficient_fee`, ...) cannot prove that nothing was applied, so only
/// `max_time` settles it; a resend included in a ledger and failed (`tx_failed`) does.
pub async fn submit_exactly_once(
    client: &HorizonClient,
    envelope: &str,
    hash: &str,
    max_time: u64,
    already_submitted: bool,
    now: impl Fn() -> u64,
) -> Result<Submitted, HorizonError> {
    // Set once any submission may have reached the network: from then on a tx_bad_seq can mean
    // "your earlier copy already consumed the sequence" rather than "someone else did".
    let mut maybe_submitted = already_submitted;
    let mut delay = FIRST_RETRY_DELAY;
    let mut last_unknown = None;
    for attempt in 0..MAX_SUBMISSIONS {
        if now() > max_time {
            break;
        }
        if attempt > 0 {
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(MAX_RETRY_DELAY);
            // The pause may have carried us past max_time; submitting then would only earn a
            // tx_too_late, so go straight to the conclusive lookup.
            if now() > max_time {
                break;
            }
        }
        match client.submit(envelope).await {
            Ok(submitted) => return Ok(submitted),
            Err(e @ HorizonError::Unknown(_)) => {
                maybe_submitted = true;
                last_unknown = Some(e);
            }
            Err(e) if e.is_tx_code("tx_bad_seq") => {
                // Our own envelope may hold that sequence (an earlier attempt, or an earlier run of
                // the caller that crashed before recording the result), so check before giving up.
                if let Some(ledger) = client.transaction_ledger(hash).await? {
                    return Ok(Submitted { hash: hash.to_owned(), ledger });
                }
                if !maybe_submitted {
                    return Err(e);
                }
                // Applied-but-not-yet-ingested looks exactly like this; only max_time settles it.
                last_unknown = Some(HorizonError::Unknown(format!("{e} after an earlier unknown outcome")));
            }
            // Expired before any attempt got in; the lookup below decides (it may have landed earlier).
            Err(e) if e.is_tx_code("tx_too_late") => break,
            // A copy included in a ledger and failed settles the hash: the one sent before cannot
            // apply as well. Any other refusal of a resend (a fee below the surge price, say) says
            // nothing of the copy that may already be on its way: still unknown.
            Err(e @ HorizonError::Rejected { .. }) if maybe_submitted && !e.is_tx_code("tx_failed") => {
                last_unknown = Some(HorizonError::Unknown(format!("{e} after an earlier unknown outcome")));
            }
            Err(e) => return Err(e),
        }
    }

    let found = client.transaction_ledger(hash).await?;
    match found {
        Some(ledger) => Ok(Submitted { hash: hash.to_owned(), ledger }),
        // Horizon lags the network by a ledger or two: "not found" only proves "not applied" once
        // Horizon has ingested a ledger that closed after max_time. Until then the outcome is
        // unknown, and the caller must look again rather than build a new transaction.
        None if now() > max_time => {
            let closed = client.latest_ledger_closed_at().await?;
            if closed <= max_time {
                return Err(HorizonError::Unknown(format!(
                    "transaction {hash} not found yet, and Horizon has only ingested ledgers up to {closed} (max_time {max_time})"
                )));
            }
            if let Some(ledger) = client.transaction_ledger(hash).await? {
                return Ok(Submitted { hash: hash.to_owned(), ledger });
            }
            Err(HorizonError::Rejected {
                tx_code: "tx_too_late".to_owned(),
                op_codes: Vec::new(),
                message: format!("transaction {hash} was not applied before its max_time {max_time}"),
            })
        }
        None => Err(last_unknown.unwrap_or_else(|| {
            HorizonError::Unknown(format!("gave up resubmitting {hash} before its max_time {max_time}"))
        })),
    }
}
