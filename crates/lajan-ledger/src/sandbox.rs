//! The sandbox network, persisted in the store, with its documented magic destinations and the
//! accounts it derives. The envelope is a canonical JSON document standing in for a signed
//! Stellar transaction; its SHA-256 is the transaction hash. Like Horizon, a submission answers
//! once its ledger closed.
//!
//! Accounts and issuers are derived from fixed labels, so they are valid StrKeys that stay the
//! same across restarts (they exist only on the simulated ledger).

use crate::ledger::{
    Fate, Ledger, LedgerFault, LedgerResult, OUTCOME_UNKNOWN, Previous, Reach, Submission, Transaction, Tries,
    destination, retry_delay,
};
use async_trait::async_trait;
use lajan_domain::client::WalletAddress;
use lajan_domain::payout::{AttemptResult, PayoutDetail};
use lajan_domain::retry::Doubling;
use lajan_domain::stellar_memo::StellarMemo;
use lajan_domain::{Tenant, Timestamp, asset};
use lajan_store::Store;
use lajan_store::sandbox::{SandboxPayment, SandboxSubmit};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// A valid account StrKey derived from `label`.
pub fn derived_account(label: &str) -> String {
    let key: [u8; 32] = Sha256::digest(label.as_bytes()).into();
    stellar_strkey::ed25519::PublicKey(key).to_string().to_string()
}

/// The organization's receiving (and paying) account on the sandbox ledger.
pub fn receiving_account(org_id: &str) -> String {
    derived_account(&format!("lajan-sandbox-receiving:{org_id}"))
}

/// The account simulated customer payments come from.
pub fn customer_account() -> String {
    derived_account("lajan-sandbox-customer")
}

/// The issuer of a registry asset on the sandbox ledger; `None` for XLM and unknown codes.
pub fn issuer(asset_code: &str) -> Option<String> {
    (asset_code != asset::NATIVE && asset::find(asset_code).is_some())
        .then(|| derived_account(&format!("lajan-sandbox-issuer:{asset_code}")))
}

/// Documented sandbox destinations that make the simulated network misbehave on purpose.
pub mod magic {
    use super::derived_account;

    /// What a magic destination does.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Behaviour {
        /// Final: the destination account does not exist.
        NoDestination,
        /// Final: the destination holds no trustline for the asset.
        NoTrust,
        /// Final: the source cannot cover the amount.
        Underfunded,
        /// The first submission times out (though the network applied it); resubmitting the
        /// identical transaction reports success with the original ledger.
        Timeout,
    }

    pub const LABELS: [(&str, Behaviour); 4] = [
        ("op_no_destination", Behaviour::NoDestination),
        ("op_no_trust", Behaviour::NoTrust),
        ("op_underfunded", Behaviour::Underfunded),
        ("timeout", Behaviour::Timeout),
    ];

    /// The magic address for a behaviour (a valid account StrKey).
    pub fn address(label: &str) -> String {
        derived_account(&format!("lajan-sandbox-magic:{label}"))
    }

    /// What `destination` does on the sandbox network, if it is magic.
    pub fn behaviour(destination: &str) -> Option<Behaviour> {
        LABELS.iter().find(|(label, _)| address(label) == destination).map(|(_, b)| *b)
    }
}

/// Payouts with attempts (resumed, retried) are paid one by one, this many at once within a
/// claim, sharing the open ledger and waiting for its close together (first transactions go in
/// bulk through `submit_many`).
const PARALLELISM: usize = 500;

/// The sandbox network: its ledgers close every `close_ms`.
pub struct SandboxLedger {
    store: Arc<dyn Store>,
    close_ms: i64,
}

impl SandboxLedger {
    pub fn new(store: Arc<dyn Store>, close_ms: i64) -> Self {
        SandboxLedger { store, close_ms }
    }

    pub fn close_ms(&self) -> i64 {
        self.close_ms
    }
}

#[async_trait]
impl Ledger for SandboxLedger {
    /// Every account exists and trusts every asset on the sandbox network, but the magic ones.
    async fn reach(&self, account: &str, assets: &[(String, Option<String>)]) -> LedgerResult<Reach> {
        Ok(match magic::behaviour(account) {
            Some(magic::Behaviour::NoDestination) => Reach::NoAccount,
            Some(magic::Behaviour::NoTrust) => match assets.iter().find(|(_, issuer)| issuer.is_some()) {
                Some((code, _)) => Reach::NoTrustline(code.clone()),
                None => Reach::Ready,
            },
            _ => Reach::Ready,
        })
    }

    fn parallelism(&self) -> usize {
        PARALLELISM
    }

    /// The nonce makes a retried payout a new transaction; resubmissions reuse the stored one.
    async fn build(
        &self,
        d: &PayoutDetail,
        _previous: Option<Previous<'_>>,
        _channel: Option<&str>,
    ) -> LedgerResult<Transaction> {
        let p = &d.payout;
        let memo = p.network_memo();
        let envelope = serde_json::json!({
            "network": "lajan-sandbox",
            "source": receiving_account(&d.tenant.org_id),
            "destination": destination(p)?,
            "asset": { "code": p.asset_code.as_str(), "issuer": p.asset_issuer.as_ref().map(WalletAddress::as_str) },
            "amount": p.asset_amount,
            "memo": memo.as_ref().map(StellarMemo::value),
            "memoType": memo.as_ref().map(|m| m.kind().as_str()),
            "payout": p.id,
            "nonce": uuid::Uuid::now_v7().to_string(),
        })
        .to_string();
        Ok(Transaction { hash: lajan_domain::hex::encode(&Sha256::digest(envelope.as_bytes())), envelope })
    }

    async fn submit(
        &self,
        d: &PayoutDetail,
        tx: &Transaction,
        resubmission: bool,
        tries: Tries,
        retry: &Doubling,
    ) -> LedgerResult<AttemptResult> {
        let submission = Submission { payout: d, tx, resubmission, tries };
        let mut results = self.submit_many(&[submission], retry).await?;
        results.pop().ok_or_else(|| LedgerFault::Unavailable("the sandbox ledger gave no answer".into()))
    }

    /// Every payment in one store transaction and one ledger: the submitter hears back once that
    /// ledger closed, as from Horizon, however many it sent.
    async fn submit_many(&self, submissions: &[Submission<'_>], retry: &Doubling) -> LedgerResult<Vec<AttemptResult>> {
        use magic::Behaviour;
        let fail = |code: &str, message: &str| AttemptResult::Failed { code: code.into(), message: message.into() };
        let behaviour = |s: &Submission<'_>| destination(&s.payout.payout).ok().and_then(magic::behaviour);
        // Magic destinations that refuse are answered without reaching the ledger.
        let refused = |s: &Submission<'_>| match behaviour(s) {
            Some(Behaviour::NoDestination) => Some(fail("op_no_destination", "the destination account does not exist")),
            // XLM needs no trustline: only an issued asset is refused there.
            Some(Behaviour::NoTrust) if s.payout.payout.asset_issuer.is_some() => {
                Some(fail("op_no_trust", "the destination has no trustline for this asset"))
            }
            Some(Behaviour::NoTrust) => None,
            Some(Behaviour::Underfunded) => Some(fail("op_underfunded", "the source account cannot cover the amount")),
            Some(Behaviour::Timeout) | None => None,
        };
        let payments: Vec<SandboxPayment<'_>> = submissions
            .iter()
            .filter(|s| refused(s).is_none())
            .map(|s| {
                let p = &s.payout.payout;
                SandboxPayment {
                    tenant: &s.payout.tenant,
                    tx_hash: &s.tx.hash,
                    destination: destination(p).unwrap_or_default(),
                    asset_code: p.asset_code.as_str(),
                    amount: p.asset_amount,
                    memo: p.network_memo().map(|m| m.value()),
                }
            })
            .collect();
        let now = Timestamp::now();
        let mut answers = if payments.is_empty() {
            Vec::new()
        } else {
            self.store.sandbox_submit(&payments, now, self.close_ms).await?
        }
        .into_iter();
        let closes_at = answers.as_slice().iter().filter_map(|a| match a {
            SandboxSubmit::Accepted { closes_at, .. } => Some(*closes_at),
            SandboxSubmit::Refused { .. } => None,
        });
        if let Some(last) = closes_at.max() {
            wait_until(last).await;
        }
        let mut results = Vec::with_capacity(submissions.len());
        for s in submissions {
            if let Some(refusal) = refused(s) {
                results.push(refusal);
                continue;
            }
            let answer =
                answers.next().ok_or_else(|| LedgerFault::Unavailable("the sandbox ledger gave no answer".into()))?;
            results.push(match answer {
                SandboxSubmit::Accepted { fresh: true, .. } if behaviour(s) == Some(Behaviour::Timeout) => {
                    AttemptResult::Retry {
                        code: OUTCOME_UNKNOWN.into(),
                        message: "the network did not answer in time; the same transaction will be resubmitted".into(),
                        retry_at: now.plus_millis(retry_delay(retry, s.tries.sends)),
                    }
                }
                SandboxSubmit::Accepted { ledger_seq, .. } => AttemptResult::Sent { ledger_seq },
                SandboxSubmit::Refused { code, message } => fail(code, &message),
            });
        }
        Ok(results)
    }

    async fn lookup(&self, hash: &str) -> LedgerResult<Option<i64>> {
        Ok(self.store.sandbox_transaction_seq(hash).await?)
    }

    /// The simulated network applies a transaction in the submission that records it, so one
    /// it does not hold never applied, and nothing resubmits it once its payout moved on.
    async fn fate(&self, tx: &Transaction, _stored_at: Timestamp) -> LedgerResult<Fate> {
        Ok(match self.lookup(&tx.hash).await? {
            Some(ledger_seq) => Fate::Applied { ledger_seq },
            None => Fate::Dead,
        })
    }

    /// Every sandbox account holds every registry asset from its own issuer.
    async fn balance(
        &self,
        tenant: &Tenant,
        asset_code: &str,
        asset_issuer: Option<&str>,
    ) -> LedgerResult<Option<i64>> {
        if asset_issuer.map(str::to_owned) != issuer(asset_code) {
            return Ok(None);
        }
        let balances = self.store.sandbox_balances(tenant).await?;
        Ok(balances.into_iter().find(|(code, _)| code == asset_code).map(|(_, cents)| cents))
    }
}

/// Sleeps until `at` (a ledger's close), as a Horizon submission waits for its ledger.
pub async fn wait_until(at: Timestamp) {
    let ms = at.as_millis() - Timestamp::now().as_millis();
    if let Ok(ms) = u64::try_from(ms) {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_accounts_are_valid_and_stable() {
        let a = receiving_account("org_1");
        assert!(lajan_domain::client::WalletAddress::parse(&a).is_ok());
        assert_eq!(a, receiving_account("org_1"));
        assert_ne!(a, receiving_account("org_2"));
        assert_ne!(issuer("HTG"), issuer("USD"));
        assert_eq!((issuer("XLM"), issuer("DOGE")), (None, None));
    }

    /// The addresses docs/payouts.md documents.
    #[test]
    fn magic_addresses_are_the_documented_ones() {
        for (label, documented) in [
            ("op_no_destination", "GC4Z55YEHQXLMZYCAK5YMZVRBDWKLFHM7NHU7WURXJ2ETUT3KZGKFFAN"),
            ("op_no_trust", "GCSUCUJIXTHLLAF5N4OI5ETKREOSB3HD4HWB3OUN5E66DYOHLPTITCYO"),
            ("op_underfunded", "GDBTUG54LQU7L2RPYD7BAPTOJNKY7BHBMPILSBKI45QBZOEDYXX7SZHG"),
            ("timeout", "GCUOIWDZ66PIWRZTAPALB23CEFOZI2AVU4UN4VI32N5W5HQJ4PPBW7LA"),
        ] {
            assert_eq!(magic::address(label), documented, "{label}");
            assert!(magic::behaviour(documented).is_some());
        }
        assert!(magic::behaviour(&customer_account()).is_none());
    }
}
