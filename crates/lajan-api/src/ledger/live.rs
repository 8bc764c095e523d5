//! Live payouts on Stellar through Horizon: payment transactions built with `stellar-xdr` and
//! signed with the distribution account's secret (see `lajan_ledger::stellar`), submitted so the
//! payment lands at most once (`lajan_ledger::horizon::submit_exactly_once`).
//!
//! A payout's transaction uses the distribution account's next sequence number, read from Horizon
//! when the transaction is built. Two transactions built on the same sequence (two executors at
//! once) cannot both land: the loser is refused with `tx_bad_seq`, nothing moves, and a new
//! transaction is built for it. A transaction is only replaced once the network has settled that
//! it was not applied (refused, or its `max_time` passed without it).

use super::{OUTCOME_UNKNOWN, RetryPolicy};
use crate::config::LiveLedgerConfig;
use anyhow::Context;
use lajan_domain::Timestamp;
use lajan_ledger::horizon::{HorizonClient, HorizonError, submit_exactly_once};
use lajan_ledger::stellar::{PaymentTx, build_and_sign, decode_payment};
use lajan_store::payouts::{AttemptResult, PayoutDetail};
use secrecy::SecretString;
use std::time::Duration;

/// Refusals that leave nothing applied and that a new transaction can cure: another transaction
/// took the sequence, the fee was below the surge price, or the time bounds ran out.
const REBUILD: [&str; 3] = ["tx_bad_seq", "tx_insufficient_fee", "tx_too_late"];

/// The live Stellar network as the executor and the payment watcher see it.
pub struct LiveLedger {
    pub(crate) horizon: HorizonClient,
    passphrase: String,
    distribution_account: String,
    secret: SecretString,
    receiving_account: String,
    base_fee: u32,
    tx_timeout_secs: u64,
}

impl std::fmt::Debug for LiveLedger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveLedger")
            .field("distribution_account", &self.distribution_account)
            .field("receiving_account", &self.receiving_account)
            .finish_non_exhaustive()
    }
}

impl LiveLedger {
    /// Checks the configuration (the secret must be a valid seed) without touching the network.
    pub fn new(config: &LiveLedgerConfig) -> anyhow::Result<Self> {
        let distribution_account = lajan_ledger::stellar::account_of_secret(&config.distribution_secret)
            .context("the live distribution secret (LAJAN_LIVE_DISTRIBUTION_SECRET)")?;
        let receiving_account = config.receiving_account.clone().unwrap_or_else(|| distribution_account.clone());
        lajan_domain::client::WalletAddress::parse(&receiving_account)
            .map_err(|e| anyhow::anyhow!("the live receiving account (LAJAN_LIVE_RECEIVING_ACCOUNT) {e}"))?;
        // Horizon answers a submission within ~30 s (then 504), so a little more than that.
        let horizon = HorizonClient::new(&config.horizon_url, Duration::from_secs(40))
            .context("the Horizon URL (LAJAN_LIVE_HORIZON_URL)")?;
        Ok(LiveLedger {
            horizon,
            passphrase: config.network_passphrase.clone(),
            distribution_account,
            secret: config.distribution_secret.clone(),
            receiving_account,
            base_fee: config.base_fee,
            tx_timeout_secs: config.tx_timeout_secs,
        })
    }

    /// Where customers pay invoices: shown on live payment pages and watched for payments.
    pub fn receiving_account(&self) -> &str {
        &self.receiving_account
    }

    /// A new signed transaction for the payout: its hash and base64 envelope. Fails without
    /// side effects when Horizon cannot give the account's sequence or the payout cannot be
    /// expressed as a Stellar payment.
    pub async fn build(&self, d: &PayoutDetail) -> Result<(String, String), String> {
        let p = &d.payout;
        let sequence = self
            .horizon
            .account_sequence(&self.distribution_account)
            .await
            .map_err(|e| format!("cannot read the distribution account's sequence: {e}"))?;
        let now = unix_now();
        let signed = build_and_sign(
            &PaymentTx {
                network_passphrase: &self.passphrase,
                source_account: &self.distribution_account,
                sequence: sequence.checked_add(1).ok_or("the account's sequence number is exhausted")?,
                base_fee: self.base_fee,
                min_time: 0,
                max_time: now + self.tx_timeout_secs,
                destination: &p.wallet_account_id,
                asset_code: &p.asset_code,
                asset_issuer: p.asset_issuer.as_deref(),
                amount_cents: p.asset_amount,
                memo_text: p.memo.as_deref(),
            },
            &self.secret,
        )
        .map_err(|e| format!("cannot build the transaction: {e}"))?;
        Ok((signed.hash_hex, signed.envelope_xdr_base64))
    }

    /// Submits a stored transaction and says how the attempt ended. `resubmission`: an earlier
    /// attempt (or a process that died) may already have sent it.
    pub async fn submit(
        &self,
        hash: &str,
        envelope: &str,
        resubmission: bool,
        attempt_number: i64,
        retry: &RetryPolicy<'_>,
    ) -> AttemptResult {
        let max_time = match decode_payment(envelope, &self.passphrase) {
            Ok(tx) if tx.hash_hex == hash => tx.max_time,
            // Not a transaction for this network: it cannot be submitted, so it never moved money.
            _ => {
                return AttemptResult::Failed {
                    code: "tx_malformed".into(),
                    message: "the stored transaction is not a payment on the configured network".into(),
                };
            }
        };
        let outcome = submit_exactly_once(&self.horizon, envelope, hash, max_time, resubmission, unix_now).await;
        let now = Timestamp::now();
        match outcome {
            Ok(submitted) => AttemptResult::Sent { ledger_seq: submitted.ledger },
            Err(e @ HorizonError::Rejected { .. }) => {
                let code = e.error_code();
                if REBUILD.contains(&code.as_str()) && attempt_number < retry.max_attempts {
                    AttemptResult::Retry {
                        message: format!("{e}; a new transaction will be built"),
                        code,
                        retry_at: now.plus_millis(1000),
                    }
                } else {
                    AttemptResult::Failed { message: e.to_string(), code }
                }
            }
            // The payment may have landed: never a failure, and never a new transaction.
            Err(e) => AttemptResult::Retry {
                code: OUTCOME_UNKNOWN.into(),
                message: format!("{e}; the same transaction will be resubmitted"),
                retry_at: now.plus_millis(retry.delay_after(attempt_number) * 1000),
            },
        }
    }
}

fn unix_now() -> u64 {
    u64::try_from(Timestamp::now().as_millis() / 1000).unwrap_or(0)
}
