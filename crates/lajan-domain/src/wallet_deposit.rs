//! SEP-24 deposits as Lajan serves them: a wallet's user registers the wallet's account with the
//! organization that invited them, on Lajan's interactive page, and the wallet follows the
//! payout waiting for them until it is paid. The SEP's status is read from where the
//! registration and that payout stand, never stored beside them.

use crate::payout::{ApprovalStatus, ExecStatus, PayoutDetail};
use crate::{Environment, Timestamp};

/// How long the interactive page's link works: the SEP asks for short-lived, single-purpose
/// URLs; a wallet asks for a new one when it expires.
pub const LINK_TTL_MS: i64 = 30 * 60 * 1000;
/// Deposits one SEP-10 account may hold unfinished with a working link, whatever its memos: an
/// exchange registering many users from one account registers twenty at a time; one token
/// cannot fill the deployment's cap.
pub const OPEN_DEPOSITS_PER_ACCOUNT: i64 = 20;

/// A wallet's deposit, as stored, with the payout it follows (joined when read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalletDeposit {
    pub id: String,
    /// The deployment's wallet network's environment.
    pub env: Environment,
    /// The SEP-10 account the deposit is for.
    pub account: String,
    /// The SEP-10 id memo naming one user of a shared account.
    pub memo: Option<u64>,
    pub asset_code: String,
    /// The language the wallet asked for (`en`, `fr`, `ht`).
    pub lang: String,
    pub started_at: Timestamp,
    pub updated_at: Timestamp,
    /// Until when the interactive page's link works.
    pub link_expires_at: Timestamp,
    /// When the page registered the account with its receiver.
    pub registered_at: Option<Timestamp>,
    /// The payout the wallet follows: the receiver's oldest one released by the registration.
    pub payout: Option<PayoutDetail>,
}

/// SEP-24's transaction statuses that a registration's deposit passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepositStatus {
    /// The user has not finished the interactive page.
    Incomplete,
    /// The page's link expired before the user finished it.
    Expired,
    /// Registered; Lajan is approving or preparing the payment (or none waits yet).
    PendingAnchor,
    /// The payment waits for the account to trust the asset.
    PendingTrust,
    /// The payment is on its way through the network.
    PendingStellar,
    Completed,
    /// The payout failed, or was rejected or canceled.
    Error,
}

str_enum!(DepositStatus {
    Incomplete => "incomplete",
    Expired => "expired",
    PendingAnchor => "pending_anchor",
    PendingTrust => "pending_trust",
    PendingStellar => "pending_stellar",
    Completed => "completed",
    Error => "error",
});

impl WalletDeposit {
    /// Where the deposit stands at `now`.
    pub fn status(&self, now: Timestamp) -> DepositStatus {
        if self.registered_at.is_none() {
            return if now.as_millis() > self.link_expires_at.as_millis() {
                DepositStatus::Expired
            } else {
                DepositStatus::Incomplete
            };
        }
        let Some(d) = &self.payout else { return DepositStatus::PendingAnchor };
        match (d.payout.approval, d.payout.exec) {
            (ApprovalStatus::Rejected, _) | (_, ExecStatus::Failed | ExecStatus::Canceled) => DepositStatus::Error,
            (_, ExecStatus::Sent) => DepositStatus::Completed,
            (ApprovalStatus::Approved, ExecStatus::ReadyToSend) => {
                if d.hold.as_ref().is_some_and(|h| h.code == "op_no_trust") {
                    DepositStatus::PendingTrust
                } else if d.attempts.last().is_some_and(|a| a.unsettled()) {
                    DepositStatus::PendingStellar
                } else {
                    DepositStatus::PendingAnchor
                }
            }
            _ => DepositStatus::PendingAnchor,
        }
    }

    /// The hash of the transaction that paid it, once paid.
    pub fn stellar_transaction_id(&self) -> Option<&str> {
        let d = self.payout.as_ref().filter(|d| d.payout.exec == ExecStatus::Sent)?;
        d.attempts.iter().rev().find(|a| a.applied()).map(|a| a.tx_hash.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payout::{AssetCode, Attempt, Hold, Payout, PayoutType};
    use crate::{Tenant, Timestamp};

    fn payout(approval: ApprovalStatus, exec: ExecStatus) -> PayoutDetail {
        let at = Timestamp::from_millis(1_000);
        PayoutDetail {
            tenant: Tenant::new(String::from("org_1"), Environment::Test),
            payout: Payout {
                id: "pyt_1".into(),
                payout_type: PayoutType::Direct,
                client_id: Some("cli_1".into()),
                wallet_account_id: None,
                asset_amount: 1_200,
                asset_code: AssetCode::parse("USDC").unwrap(),
                asset_issuer: None,
                memo: None,
                wallet_memo: None,
                disbursement_id: None,
                approval,
                exec,
                created_by_key: "key_1".into(),
                approval_withdrawn_by: None,
                created_at: at,
                updated_at: at,
            },
            client: None,
            attempts: Vec::new(),
            attempts_before_retry: 0,
            approved_at: None,
            cancel_reason: None,
            hold: None,
        }
    }

    fn attempt(ledger_seq: Option<i64>, error_code: Option<&str>) -> Attempt {
        Attempt {
            id: "att_1".into(),
            attempt_number: 1,
            tx_hash: "ab".repeat(32),
            ledger_seq,
            error_code: error_code.map(Into::into),
            error_message: None,
            created_at: Timestamp::from_millis(2_000),
            submissions: 1,
            channel_account: None,
        }
    }

    fn deposit(registered: bool, payout: Option<PayoutDetail>) -> WalletDeposit {
        WalletDeposit {
            id: "wdp_1".into(),
            env: Environment::Test,
            account: "GA".into(),
            memo: None,
            asset_code: "USDC".into(),
            lang: "ht".into(),
            started_at: Timestamp::from_millis(0),
            updated_at: Timestamp::from_millis(0),
            link_expires_at: Timestamp::from_millis(LINK_TTL_MS),
            registered_at: registered.then(|| Timestamp::from_millis(10)),
            payout,
        }
    }

    #[test]
    fn the_status_follows_the_registration_then_its_payout() {
        let during = Timestamp::from_millis(LINK_TTL_MS);
        let after = Timestamp::from_millis(LINK_TTL_MS + 1);
        assert_eq!(deposit(false, None).status(during), DepositStatus::Incomplete);
        assert_eq!(deposit(false, None).status(after), DepositStatus::Expired);
        assert_eq!(deposit(true, None).status(after), DepositStatus::PendingAnchor, "registered, nothing to pay yet");
        let (approved, pending) = (ApprovalStatus::Approved, ApprovalStatus::Pending);
        let status = |d: PayoutDetail| deposit(true, Some(d)).status(after);
        assert_eq!(status(payout(pending, ExecStatus::Pending)), DepositStatus::PendingAnchor);
        assert_eq!(status(payout(approved, ExecStatus::ReadyToSend)), DepositStatus::PendingAnchor);
        let mut held = payout(approved, ExecStatus::ReadyToSend);
        held.hold = Some(Hold::unreachable(false, "USDC", after));
        assert_eq!(status(held), DepositStatus::PendingTrust);
        let mut in_flight = payout(approved, ExecStatus::ReadyToSend);
        in_flight.attempts.push(attempt(None, Some("tx_timeout")));
        assert_eq!(status(in_flight), DepositStatus::PendingStellar);
        let mut paid = payout(approved, ExecStatus::Sent);
        paid.attempts.push(attempt(Some(7), None));
        let paid = deposit(true, Some(paid));
        assert_eq!(
            (paid.status(after), paid.stellar_transaction_id()),
            (DepositStatus::Completed, Some("ab".repeat(32).as_str()))
        );
        for (approval, exec) in [
            (approved, ExecStatus::Failed),
            (approved, ExecStatus::Canceled),
            (ApprovalStatus::Rejected, ExecStatus::Pending),
        ] {
            assert_eq!(status(payout(approval, exec)), DepositStatus::Error, "{approval:?} {exec:?}");
        }
        assert_eq!(deposit(true, Some(payout(approved, ExecStatus::Failed))).stellar_transaction_id(), None);
    }
}
