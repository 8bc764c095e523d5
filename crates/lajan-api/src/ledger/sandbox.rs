//! The sandbox network persisted in the store, with its documented magic destinations. The
//! envelope is a canonical JSON document standing in for a signed Stellar transaction; its
//! SHA-256 is the transaction hash. Like Horizon, a submission answers once its ledger closed.

use super::RetryPolicy;
use crate::keys::hex;
use crate::stellar::magic::{self, Behaviour};
use crate::stellar::sandbox_receiving_account;
use lajan_domain::Timestamp;
use lajan_store::payouts::{AttemptResult, PayoutDetail, SandboxSubmit};
use lajan_store::{Store, StoreResult};
use sha2::{Digest, Sha256};

/// A new transaction for a payout: its hash and envelope. The nonce makes a retried payout a
/// new transaction, while resubmissions reuse the stored envelope unchanged.
pub fn envelope(d: &PayoutDetail) -> (String, String) {
    let p = &d.payout;
    let envelope = serde_json::json!({
        "network": "lajan-sandbox",
        "source": sandbox_receiving_account(&d.tenant.org_id),
        "destination": p.wallet_account_id,
        "asset": { "code": p.asset_code, "issuer": p.asset_issuer },
        "amount": p.asset_amount,
        "memo": p.memo,
        "payout": p.id,
        "nonce": uuid::Uuid::now_v7().to_string(),
    })
    .to_string();
    (hex(&Sha256::digest(envelope.as_bytes())), envelope)
}

/// Submits a payout's transaction to the sandbox network and says how the attempt ended.
pub async fn submit(
    store: &dyn Store,
    d: &PayoutDetail,
    tx_hash: &str,
    attempt_number: i64,
    retry: &RetryPolicy<'_>,
    close_ms: i64,
) -> StoreResult<AttemptResult> {
    let p = &d.payout;
    let fail = |code: &str, message: &str| AttemptResult::Failed { code: code.into(), message: message.into() };
    let behaviour = magic::behaviour(&p.wallet_account_id);
    match behaviour {
        Some(Behaviour::NoDestination) => {
            return Ok(fail("op_no_destination", "the destination account does not exist"));
        }
        Some(Behaviour::NoTrust) => {
            return Ok(fail("op_no_trust", "the destination has no trustline for this asset"));
        }
        Some(Behaviour::Underfunded) => {
            return Ok(fail("op_underfunded", "the source account cannot cover the amount"));
        }
        Some(Behaviour::Timeout) | None => {}
    }
    let now = Timestamp::now();
    let submitted = store
        .sandbox_submit(
            &d.tenant,
            tx_hash,
            &p.wallet_account_id,
            &p.asset_code,
            p.asset_amount,
            p.memo.as_deref(),
            now,
            close_ms,
        )
        .await?;
    if let SandboxSubmit::Accepted { closes_at, .. } = &submitted {
        wait_until(*closes_at).await;
    }
    Ok(match submitted {
        SandboxSubmit::Accepted { fresh: true, ledger_seq, .. } if behaviour == Some(Behaviour::Timeout) => {
            let delay = usize::try_from(attempt_number - 1).ok().and_then(|i| retry.delays_secs.get(i)).copied();
            match delay {
                Some(secs) if attempt_number < retry.max_attempts => AttemptResult::Retry {
                    code: "tx_timeout".into(),
                    message: "the network did not answer in time; the same transaction will be resubmitted".into(),
                    retry_at: now.plus_millis(secs * 1000),
                },
                // Out of attempts: reconciled by hash, the network holds the transaction.
                _ => AttemptResult::Sent { ledger_seq },
            }
        }
        SandboxSubmit::Accepted { ledger_seq, .. } => AttemptResult::Sent { ledger_seq },
        SandboxSubmit::Refused { code, message } => fail(code, &message),
    })
}

/// Sleeps until `at` (a ledger's close), as a Horizon submission waits for its ledger.
pub async fn wait_until(at: Timestamp) {
    let ms = at.as_millis() - Timestamp::now().as_millis();
    if let Ok(ms) = u64::try_from(ms) {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
}
