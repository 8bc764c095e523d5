//! Live payouts on Stellar through Horizon: payment transactions built with `stellar-xdr` and
//! signed with the distribution account's secret ([`crate::stellar`]), submitted so the payment
//! lands at most once ([`crate::exactly_once::submit_exactly_once`]).
//!
//! A payout's transaction uses its source's next sequence number, read from Horizon when the
//! transaction is built. The source is the distribution account, or with channel accounts
//! configured one channel account per payout in flight (the payment operation's source stays the
//! distribution account, and both sign), so payouts are not paid one per ledger. Two transactions
//! built on the same sequence cannot both land: the loser is refused with `tx_bad_seq`, nothing
//! moves, and a new transaction is built for it. A transaction is only replaced once the network
//! has settled that it was not applied (refused, or its `max_time` passed without it).

use crate::exactly_once::submit_exactly_once;
use crate::horizon::{HorizonClient, HorizonError};
use crate::ledger::{
    Fate, Ledger, LedgerFault, LedgerResult, OUTCOME_UNKNOWN, Previous, Reach, Transaction, Tries, destination,
    retry_delay,
};
use crate::stellar::{PaymentTx, account_of_secret, build_and_sign};
use crate::stellar_decode::decode_payment;
use async_trait::async_trait;
use lajan_domain::client::WalletAddress;
use lajan_domain::payout::{AttemptResult, PayoutDetail};
use lajan_domain::retry::Doubling;
use lajan_domain::{Tenant, Timestamp};
use lajan_store::redact_url;
use secrecy::SecretString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Refusals that leave nothing applied and that a new transaction can cure: another transaction
/// took the sequence, the fee was below the surge price, or the time bounds ran out. They are
/// transient: a payout refused with them is rebuilt for as long as it takes, never failed.
const REBUILD: [&str; 3] = ["tx_bad_seq", "tx_insufficient_fee", "tx_too_late"];

/// About one ledger close: Horizon sees a ledger past a transaction's `max_time` this long after.
const LEDGER_CLOSE_MS: i64 = 6_000;

/// The public Stellar network, where live payouts go unless configured otherwise.
pub const PUBLIC_NETWORK_PASSPHRASE: &str = crate::stellar::PUBLIC_PASSPHRASE;

/// Where and how live payouts are made, and where live payments arrive.
#[derive(Clone)]
pub struct LiveLedgerConfig {
    /// e.g. `https://horizon.stellar.org`.
    pub horizon_url: String,
    /// Signed into every transaction: the public network's unless configured otherwise.
    pub network_passphrase: String,
    /// The `S...` seed of the account payouts are paid from. Never logged.
    pub distribution_secret: SecretString,
    /// The `S...` seeds of channel accounts (funded accounts whose only job is to be the source
    /// of payout transactions); none: every transaction's source is the distribution account.
    /// Never logged.
    pub channel_secrets: Vec<SecretString>,
    /// The account customers pay into; the distribution account when unset.
    pub receiving_account: Option<String>,
    /// Stroops per operation (the network minimum is 100).
    pub base_fee: u32,
    /// The most a rebuilt transaction offers per operation when the network refused the previous
    /// one's fee (`tx_insufficient_fee`): each rebuild doubles the fee, up to this.
    pub max_fee: u32,
    /// A transaction's `max_time` is this long after it is built; an unknown outcome is settled
    /// when it has passed.
    pub tx_timeout_secs: u64,
}

/// Every field but the secrets (already `[REDACTED]`) as they are, and the Horizon URL without
/// the credentials it may carry.
impl std::fmt::Debug for LiveLedgerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveLedgerConfig")
            .field("horizon_url", &redact_url(&self.horizon_url))
            .field("network_passphrase", &self.network_passphrase)
            .field("distribution_secret", &self.distribution_secret)
            .field("channel_secrets", &self.channel_secrets)
            .field("receiving_account", &self.receiving_account)
            .field("base_fee", &self.base_fee)
            .field("max_fee", &self.max_fee)
            .field("tx_timeout_secs", &self.tx_timeout_secs)
            .finish()
    }
}

/// The live Stellar network as the executor and the payment watcher see it.
pub struct StellarLedger {
    horizon: HorizonClient,
    /// Without credentials: it is only ever shown.
    horizon_url: String,
    /// Set once Horizon confirmed it serves the configured network.
    network_confirmed: AtomicBool,
    passphrase: String,
    distribution_account: String,
    secret: SecretString,
    /// Channel accounts, and their seeds by account.
    channel_accounts: Vec<String>,
    channel_secrets: std::collections::HashMap<String, SecretString>,
    receiving_account: String,
    base_fee: u32,
    max_fee: u32,
    tx_timeout_secs: u64,
}

impl std::fmt::Debug for StellarLedger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StellarLedger")
            .field("distribution_account", &self.distribution_account)
            .field("receiving_account", &self.receiving_account)
            .finish_non_exhaustive()
    }
}

/// Why Horizon's network is not confirmed to be the configured one.
#[derive(Debug, thiserror::Error)]
pub enum NetworkCheck {
    #[error(
        "the configured network passphrase (LAJAN_LIVE_NETWORK_PASSPHRASE) is {configured:?} but Horizon at \
         {horizon_url} serves {horizon:?}: live payouts would be signed for another network"
    )]
    Mismatch { configured: String, horizon: String, horizon_url: String },
    #[error("Horizon at {horizon_url} could not confirm its network passphrase: {reason}")]
    Unreachable { horizon_url: String, reason: String },
}

/// A configuration the live ledger cannot start with, naming the setting to fix.
#[derive(Debug, thiserror::Error)]
#[error("{setting}: {problem}")]
pub struct ConfigError {
    pub setting: &'static str,
    pub problem: String,
}

impl StellarLedger {
    /// Checks the configuration (the secret must be a valid seed) without touching the network.
    pub fn new(config: &LiveLedgerConfig) -> Result<Self, ConfigError> {
        let distribution_account = account_of_secret(&config.distribution_secret).map_err(|e| ConfigError {
            setting: "the live distribution secret (LAJAN_LIVE_DISTRIBUTION_SECRET)",
            problem: e.to_string(),
        })?;
        let mut channel_accounts = Vec::with_capacity(config.channel_secrets.len());
        let mut channel_secrets = std::collections::HashMap::new();
        for (i, secret) in config.channel_secrets.iter().enumerate() {
            let account = account_of_secret(secret).map_err(|e| ConfigError {
                setting: "the live channel secrets (LAJAN_LIVE_CHANNEL_SECRETS)",
                problem: format!("channel {}: {e}", i + 1),
            })?;
            if account == distribution_account || channel_secrets.insert(account.clone(), secret.clone()).is_some() {
                return Err(ConfigError {
                    setting: "the live channel secrets (LAJAN_LIVE_CHANNEL_SECRETS)",
                    problem: format!(
                        "channel {} repeats an account ({account}): each channel is its own account",
                        i + 1
                    ),
                });
            }
            channel_accounts.push(account);
        }
        let receiving_account = config.receiving_account.clone().unwrap_or_else(|| distribution_account.clone());
        WalletAddress::parse(&receiving_account).map_err(|e| ConfigError {
            setting: "the live receiving account (LAJAN_LIVE_RECEIVING_ACCOUNT)",
            problem: e.to_string(),
        })?;
        // Horizon answers a submission within ~30 s (then 504), so a little more than that.
        let horizon = HorizonClient::new(&config.horizon_url, Duration::from_secs(40))
            .map_err(|e| ConfigError { setting: "the Horizon URL (LAJAN_LIVE_HORIZON_URL)", problem: e.to_string() })?;
        Ok(StellarLedger {
            horizon,
            horizon_url: redact_url(&config.horizon_url),
            network_confirmed: AtomicBool::new(false),
            passphrase: config.network_passphrase.clone(),
            distribution_account,
            secret: config.distribution_secret.clone(),
            channel_accounts,
            channel_secrets,
            receiving_account,
            base_fee: config.base_fee,
            max_fee: config.max_fee.max(config.base_fee),
            tx_timeout_secs: config.tx_timeout_secs,
        })
    }

    /// Asks Horizon which network it serves: live payouts are never signed for another one than
    /// the configured passphrase names. Once confirmed, not asked again.
    pub async fn check_network(&self) -> Result<(), NetworkCheck> {
        let horizon_url = self.horizon_url.clone();
        let root = self
            .horizon
            .root()
            .await
            .map_err(|e| NetworkCheck::Unreachable { horizon_url: horizon_url.clone(), reason: e.to_string() })?;
        if root.network_passphrase != self.passphrase {
            return Err(NetworkCheck::Mismatch {
                configured: self.passphrase.clone(),
                horizon: root.network_passphrase,
                horizon_url,
            });
        }
        self.network_confirmed.store(true, Ordering::Release);
        Ok(())
    }

    /// An account's current sequence number (the distribution account's, or a channel's).
    async fn sequence(&self, account: &str) -> LedgerResult<i64> {
        self.horizon
            .account_sequence(account)
            .await
            .map_err(|e| LedgerFault::Unavailable(format!("cannot read the sequence of {account}: {e}")))
    }

    /// Where customers pay invoices: shown on live payment pages and watched for payments.
    pub fn receiving_account(&self) -> &str {
        &self.receiving_account
    }

    /// The Horizon server, for the live payment watcher.
    pub fn horizon(&self) -> &HorizonClient {
        &self.horizon
    }
}

#[async_trait]
impl Ledger for StellarLedger {
    async fn reach(&self, account: &str, assets: &[(String, Option<String>)]) -> LedgerResult<Reach> {
        let held = self.horizon.account_assets(account).await.map_err(|e| LedgerFault::Unavailable(e.to_string()))?;
        let Some(held) = held else { return Ok(Reach::NoAccount) };
        let missing = assets.iter().find(|(code, issuer)| {
            issuer.as_ref().is_some_and(|issuer| !held.iter().any(|(c, i)| c == code && i.as_ref() == Some(issuer)))
        });
        Ok(missing.map_or(Reach::Ready, |(code, _)| Reach::NoTrustline(code.clone())))
    }

    /// One payout per channel account at a time; one in all without channels.
    fn parallelism(&self) -> usize {
        self.channel_accounts.len().max(1)
    }

    fn channels(&self) -> &[String] {
        &self.channel_accounts
    }

    fn sources(&self) -> &[String] {
        if self.channel_accounts.is_empty() {
            std::slice::from_ref(&self.distribution_account)
        } else {
            &self.channel_accounts
        }
    }

    /// Fails without side effects when Horizon cannot confirm its network or give the source's
    /// sequence (try later) or the payout cannot be expressed as a Stellar payment (never).
    async fn build(
        &self,
        d: &PayoutDetail,
        previous: Option<Previous<'_>>,
        channel: Option<&str>,
    ) -> LedgerResult<Transaction> {
        let p = &d.payout;
        let unavailable = LedgerFault::Unavailable;
        if !self.network_confirmed.load(Ordering::Acquire) {
            self.check_network().await.map_err(|e| unavailable(e.to_string()))?;
        }
        let channel =
            match channel {
                // Without channels the distribution account is the one source executors reserve.
                None => None,
                Some(account) if account == self.distribution_account => None,
                Some(account) => Some(self.channel_secrets.get_key_value(account).ok_or_else(|| {
                    LedgerFault::Unavailable(format!("{account} is not a configured channel account"))
                })?),
            };
        let source = channel.map_or(self.distribution_account.as_str(), |(account, _)| account.as_str());
        let sequence = self.sequence(source).await?;
        let next = sequence
            .checked_add(1)
            .ok_or_else(|| LedgerFault::Invalid(format!("the sequence number of {source} is exhausted")))?;
        // The previous transaction's sequence while no transaction has used it (on the same
        // source): at most one of the two can ever apply.
        let decoded = previous.and_then(|p| decode_payment(&p.tx.envelope, &self.passphrase).ok());
        let reused = decoded.as_ref().filter(|d| d.source_account == source).map(|d| d.sequence);
        let next = reused.filter(|&taken| taken > sequence).unwrap_or(next);
        let refused_fee = previous.is_some_and(|p| p.error_code == Some("tx_insufficient_fee"));
        let fee = next_fee(self.base_fee, self.max_fee, decoded.map(|d| d.fee), refused_fee);
        let signers: Vec<&SecretString> = match channel {
            Some((_, channel_secret)) => vec![channel_secret, &self.secret],
            None => vec![&self.secret],
        };
        let signed = build_and_sign(
            &PaymentTx {
                network_passphrase: &self.passphrase,
                source_account: source,
                payment_source: channel.map(|_| self.distribution_account.as_str()),
                sequence: next,
                base_fee: fee,
                min_time: 0,
                max_time: unix_now() + self.tx_timeout_secs,
                destination: destination(p)?,
                asset_code: p.asset_code.as_str(),
                asset_issuer: p.asset_issuer.as_ref().map(WalletAddress::as_str),
                amount_cents: p.asset_amount,
                memo: p.network_memo(),
            },
            &signers,
        )
        .map_err(|e| LedgerFault::Invalid(format!("cannot build the transaction: {e}")))?;
        Ok(Transaction { hash: signed.hash_hex, envelope: signed.envelope_xdr_base64 })
    }

    async fn submit(
        &self,
        _payout: &PayoutDetail,
        tx: &Transaction,
        resubmission: bool,
        tries: Tries,
        retry: &Doubling,
    ) -> LedgerResult<AttemptResult> {
        let max_time = match decode_payment(&tx.envelope, &self.passphrase) {
            Ok(decoded) if decoded.hash_hex == tx.hash => decoded.max_time,
            // Not a transaction for this network: it cannot be submitted, so it never moved money.
            _ => {
                return Ok(AttemptResult::Failed {
                    code: "tx_malformed".into(),
                    message: "the stored transaction is not a payment on the configured network".into(),
                });
            }
        };
        let outcome =
            submit_exactly_once(&self.horizon, &tx.envelope, &tx.hash, max_time, resubmission, unix_now).await;
        let now = Timestamp::now();
        Ok(match outcome {
            Ok(submitted) => AttemptResult::Sent { ledger_seq: submitted.ledger },
            Err(e @ HorizonError::Rejected { .. }) => {
                let code = e.error_code();
                if REBUILD.contains(&code.as_str()) {
                    AttemptResult::Retry {
                        message: format!("{e}; a new transaction will be built"),
                        code,
                        retry_at: now.plus_millis(retry_delay(retry, tries.built)),
                    }
                } else {
                    AttemptResult::Failed { message: e.to_string(), code }
                }
            }
            // The payment may have landed: never a failure, and never a new transaction.
            Err(e) => AttemptResult::Retry {
                code: OUTCOME_UNKNOWN.into(),
                message: format!("{e}; the same transaction will be resubmitted"),
                retry_at: now.plus_millis(retry_delay(retry, tries.sends)),
            },
        })
    }

    /// The source's sequence and Horizon's latest ledger are read before the hash is looked
    /// up: Horizon ingests ledgers in order, so a lookup after them sees every ledger they saw,
    /// and a transaction whose sequence was used (or whose `max_time` passed) and whose hash is
    /// not there never applied and never will.
    ///
    /// Horizon's history must reach back to when the transaction was stored: "not found" in a
    /// history that starts later proves nothing, so such a transaction is never settled dead.
    async fn fate(&self, tx: &Transaction, stored_at: Timestamp) -> LedgerResult<Fate> {
        let Ok(decoded) = decode_payment(&tx.envelope, &self.passphrase) else {
            // Not a payment on this network: no ledger of it can ever apply it.
            return Ok(Fate::Dead);
        };
        let unavailable = |what: &str, e: HorizonError| LedgerFault::Unavailable(format!("cannot read {what}: {e}"));
        let sequence = self.sequence(&decoded.source_account).await?;
        let root = self.horizon.root().await.map_err(|e| unavailable("Horizon's root resource", e))?;
        let closed = root.latest_closed_at;
        if let Some(ledger_seq) = self.lookup(&decoded.hash_hex).await? {
            return Ok(Fate::Applied { ledger_seq });
        }
        let history_from = self
            .horizon
            .ledger_closed_at(root.elder_ledger)
            .await
            .map_err(|e| unavailable("Horizon's oldest ledger", e))?;
        let stored = u64::try_from(stored_at.as_unix_seconds()).unwrap_or(0);
        // Whole seconds: a history starting in the same second may miss it.
        if history_from >= stored {
            return Err(LedgerFault::Unavailable(format!(
                "Horizon's history starts at ledger {} (closed at {history_from}), after transaction {} was stored \
                 (at {stored}): its absence proves nothing. Point LAJAN_LIVE_HORIZON_URL at a Horizon whose \
                 history reaches back to the oldest unsettled attempt",
                root.elder_ledger, decoded.hash_hex
            )));
        }
        let expired = decoded.max_time != 0 && closed > decoded.max_time;
        if expired || sequence >= decoded.sequence {
            return Ok(Fate::Dead);
        }
        let until = i64::try_from(decoded.max_time).unwrap_or(i64::MAX / 1000).saturating_mul(1000);
        Ok(Fate::Pending { until: Timestamp::from_millis(until.saturating_add(LEDGER_CLOSE_MS)) })
    }

    async fn answers(&self) -> LedgerResult<()> {
        self.horizon
            .root()
            .await
            .map(drop)
            .map_err(|e| LedgerFault::Unavailable(format!("Horizon does not answer: {e}")))
    }

    /// A transaction included in a ledger but failed moved nothing: it is not applied.
    async fn lookup(&self, hash: &str) -> LedgerResult<Option<i64>> {
        match self.horizon.transaction_ledger(hash).await {
            Ok(found) => Ok(found),
            Err(HorizonError::Rejected { .. }) => Ok(None),
            Err(e) => Err(LedgerFault::Unavailable(e.to_string())),
        }
    }

    /// Every live organization pays from the one distribution account.
    async fn balance(
        &self,
        _tenant: &Tenant,
        asset_code: &str,
        asset_issuer: Option<&str>,
    ) -> LedgerResult<Option<i64>> {
        let held = self
            .horizon
            .account_balance(&self.distribution_account, asset_code, asset_issuer)
            .await
            .map_err(|e| LedgerFault::Unavailable(e.to_string()))?;
        let Some(text) = held else { return Ok(None) };
        // Seven decimal places on the network, cents here: a fraction of a cent is not counted.
        let stroops = lajan_domain::money::parse_scaled(&text, 7)
            .map_err(|_| LedgerFault::Unavailable(format!("Horizon's balance {text:?} does not parse")))?;
        Ok(Some(stroops / 100_000))
    }
}

/// The fee a new transaction offers: the previous one's (never below the base fee), doubled up
/// to `max_fee` when the network refused it as below the surge price.
fn next_fee(base_fee: u32, max_fee: u32, previous_fee: Option<u32>, refused_fee: bool) -> u32 {
    let fee = previous_fee.unwrap_or(base_fee).max(base_fee);
    if refused_fee { fee.saturating_mul(2).min(max_fee.max(base_fee)) } else { fee }
}

fn unix_now() -> u64 {
    u64::try_from(Timestamp::now().as_millis() / 1000).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::next_fee;

    #[test]
    fn the_fee_doubles_after_a_fee_refusal_up_to_the_maximum() {
        assert_eq!(next_fee(100, 1_000, None, false), 100);
        assert_eq!(next_fee(100, 1_000, Some(100), true), 200);
        assert_eq!(next_fee(100, 1_000, Some(800), true), 1_000);
        assert_eq!(next_fee(100, 1_000, Some(1_000), true), 1_000);
        assert_eq!(next_fee(100, 1_000, Some(400), false), 400, "kept after another refusal");
        assert_eq!(next_fee(300, 1_000, Some(100), false), 300, "never below the base fee");
    }
}
