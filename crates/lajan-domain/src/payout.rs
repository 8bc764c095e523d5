//! Payouts: sending an amount of a Stellar asset to a wallet. Their validated fields (asset
//! code, memo, amount), the two status fields and the moves between them, the list filter, and
//! what a ledger's answer to an attempt does to a payout.

use crate::client::{Client, WalletAddress};
use crate::stellar_memo::StellarMemo;
use crate::validation::control_character;
use crate::{Invalid, Tenant, Timestamp};
use std::fmt;

/// A Stellar asset code: 1 to 12 ASCII letters or digits. `XLM` is the native asset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AssetCode(String);

impl AssetCode {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        if raw.is_empty() || raw.len() > 12 || !raw.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Invalid::new("invalid_asset_code", "assetCode must be 1 to 12 letters or digits"));
        }
        Ok(AssetCode(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_native(&self) -> bool {
        self.0 == crate::asset::NATIVE
    }
}

impl fmt::Display for AssetCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub use crate::stellar_memo::MEMO_BYTES;

/// A Stellar text memo. The network counts bytes, not characters, so the limit is
/// [`MEMO_BYTES`] bytes of UTF-8 (the spec's "28 characters" holds for ASCII); control
/// characters are refused because the memo is shown to the recipient by their wallet.
pub fn parse_memo(raw: &str) -> Result<String, Invalid> {
    if raw.len() > MEMO_BYTES {
        return Err(Invalid::new(
            "invalid_memo",
            format!(
                "memo must be at most {MEMO_BYTES} bytes of UTF-8, the most a Stellar text memo carries \
                 (letters such as é take 2 bytes); this one is {} bytes in {} characters",
                raw.len(),
                raw.chars().count()
            ),
        ));
    }
    if let Some(problem) = control_character(raw, false) {
        return Err(Invalid::new("invalid_memo", format!("memo {problem}")));
    }
    Ok(raw.to_owned())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ApprovalStatus {
    Pending,
    Approved,
    Rejected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExecStatus {
    Pending,
    /// Its client has no wallet yet: it waits for them to register one, then is queued.
    AwaitingRegistration,
    ReadyToSend,
    Sent,
    Failed,
    /// Final: it waited for a registration that never came, or the organization called it off.
    Canceled,
}

/// Why a payout was canceled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CancelReason {
    /// Its client did not register a wallet within the settings' `registrationWindowDays`.
    ReceiverNotRegistered,
    /// The organization canceled it (`POST /v1/payouts/{id}/cancel`).
    Requested,
}

str_enum!(CancelReason { ReceiverNotRegistered => "receiver_not_registered", Requested => "requested" });

str_enum!(ApprovalStatus { Pending => "pending", Approved => "approved", Rejected => "rejected" });
str_enum!(ExecStatus {
    Pending => "pending",
    AwaitingRegistration => "awaiting_registration",
    ReadyToSend => "ready_to_send",
    Sent => "sent",
    Failed => "failed",
    Canceled => "canceled",
});
str_enum!(PayoutType { Direct => "direct", Disbursement => "disbursement" });
str_enum!(PayoutFilter {
    PendingApproval => "pending_approval",
    Approved => "approved",
    AwaitingRegistration => "awaiting_registration",
    Rejected => "rejected",
    Executing => "executing",
    Completed => "completed",
    Failed => "failed",
    Canceled => "canceled",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PayoutType {
    Direct,
    Disbursement,
}

/// The list filter `status` and the `counts` keys, each one a region of the two status fields.
/// Together they partition every payout (DECISIONS.md's mapping).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PayoutFilter {
    PendingApproval,
    Approved,
    AwaitingRegistration,
    Rejected,
    Executing,
    Completed,
    Failed,
    Canceled,
}

impl PayoutFilter {
    /// Which filter a payout falls under.
    pub fn of(approval: ApprovalStatus, exec: ExecStatus) -> PayoutFilter {
        match (approval, exec) {
            (ApprovalStatus::Pending, _) => PayoutFilter::PendingApproval,
            (ApprovalStatus::Rejected, _) => PayoutFilter::Rejected,
            (ApprovalStatus::Approved, ExecStatus::Pending) => PayoutFilter::Approved,
            (ApprovalStatus::Approved, ExecStatus::AwaitingRegistration) => PayoutFilter::AwaitingRegistration,
            (ApprovalStatus::Approved, ExecStatus::ReadyToSend) => PayoutFilter::Executing,
            (ApprovalStatus::Approved, ExecStatus::Sent) => PayoutFilter::Completed,
            (ApprovalStatus::Approved, ExecStatus::Failed) => PayoutFilter::Failed,
            (ApprovalStatus::Approved, ExecStatus::Canceled) => PayoutFilter::Canceled,
        }
    }

    /// The statuses this filter selects (`None`: any).
    pub fn statuses(self) -> (Option<ApprovalStatus>, Option<ExecStatus>) {
        let approved = |exec| (Some(ApprovalStatus::Approved), Some(exec));
        match self {
            PayoutFilter::PendingApproval => (Some(ApprovalStatus::Pending), None),
            PayoutFilter::Rejected => (Some(ApprovalStatus::Rejected), None),
            PayoutFilter::Approved => approved(ExecStatus::Pending),
            PayoutFilter::AwaitingRegistration => approved(ExecStatus::AwaitingRegistration),
            PayoutFilter::Executing => approved(ExecStatus::ReadyToSend),
            PayoutFilter::Completed => approved(ExecStatus::Sent),
            PayoutFilter::Failed => approved(ExecStatus::Failed),
            PayoutFilter::Canceled => approved(ExecStatus::Canceled),
        }
    }
}

/// What can be done to a payout by a person (execution moves are the worker's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayoutAction {
    Approve,
    Reject,
    Retry,
    /// Calls off an approved payout still waiting for its client's registration.
    Cancel,
}

impl PayoutAction {
    /// The refusal of this action on `payout`, which pays an item of disbursement `batch`: its
    /// payouts move with the disbursement, never one by one; except a cancel, which is about
    /// one receiver, and the decision on a payout whose approval was withdrawn when its
    /// receiver's contact changed, which the disbursement's approval no longer covers (`None`).
    pub fn refused_in_batch(self, batch: &str, payout: &Payout) -> Option<Invalid> {
        let (code, verb, batch_verb) = match self {
            PayoutAction::Approve | PayoutAction::Reject if payout.decided_alone() => return None,
            PayoutAction::Approve => ("cannot_approve", "approved", "approve"),
            PayoutAction::Reject => ("cannot_reject", "rejected", "reject"),
            PayoutAction::Retry => ("cannot_retry", "retried", "retry-failed"),
            PayoutAction::Cancel => return None,
        };
        Some(Invalid::new(
            code,
            format!(
                "This payout pays an item of disbursement {batch} and is {verb} with it: \
                 POST /v1/disbursements/{batch}/{batch_verb}"
            ),
        ))
    }
}

/// The statuses after `action`, and its event; or the refusal.
pub fn payout_transition(
    approval: ApprovalStatus,
    exec: ExecStatus,
    action: PayoutAction,
) -> Result<(ApprovalStatus, ExecStatus, &'static str), Invalid> {
    match (action, approval, exec) {
        (PayoutAction::Approve, ApprovalStatus::Pending, _) => Ok((ApprovalStatus::Approved, exec, "payout.approved")),
        (PayoutAction::Approve, _, _) => Err(Invalid::new(
            "cannot_approve",
            format!("Only payouts pending approval can be approved; this one is {approval}"),
        )),
        (PayoutAction::Reject, ApprovalStatus::Pending, _) => Ok((ApprovalStatus::Rejected, exec, "payout.rejected")),
        (PayoutAction::Reject, _, _) => Err(Invalid::new(
            "cannot_reject",
            format!("Only payouts pending approval can be rejected; this one is {approval}"),
        )),
        (PayoutAction::Retry, ApprovalStatus::Approved, ExecStatus::Failed) => {
            Ok((ApprovalStatus::Approved, ExecStatus::Pending, "payout.retried"))
        }
        (PayoutAction::Retry, _, _) => Err(Invalid::new("cannot_retry", "Only failed payouts can be retried")),
        (PayoutAction::Cancel, ApprovalStatus::Approved, ExecStatus::AwaitingRegistration) => {
            Ok((ApprovalStatus::Approved, ExecStatus::Canceled, "payout.canceled"))
        }
        (PayoutAction::Cancel, _, _) => Err(Invalid::new(
            "cannot_cancel",
            format!(
                "Only approved payouts waiting for their client to register a wallet can be canceled; this one is \
                 {approval} and {exec} (reject a payout pending approval instead)"
            ),
        )),
    }
}

/// The error code of an attempt whose outcome is unknown (a timeout): the payout resumes by
/// resubmitting the same stored transaction, never by building a new one.
pub const OUTCOME_UNKNOWN: &str = "tx_timeout";

/// Each transaction's latest attempt, oldest transaction first: a resubmission of a transaction
/// is a later attempt with its hash (before resends stayed within one attempt), and the latest
/// says where the transaction stands.
pub fn latest_per_transaction(attempts: &[Attempt]) -> impl Iterator<Item = &Attempt> {
    attempts
        .iter()
        .enumerate()
        .filter(|&(i, a)| !attempts.iter().skip(i + 1).any(|later| later.tx_hash == a.tx_hash))
        .map(|(_, a)| a)
}

/// A retry builds a new transaction, so it is refused while an earlier one applied (the payout
/// was paid) or may still apply (an attempt that never finished, or whose outcome is unknown):
/// both could land and pay twice.
pub fn check_retry_safe(attempts: &[Attempt]) -> Result<(), Invalid> {
    if let Some(a) = attempts.iter().find(|a| a.applied()) {
        return Err(Invalid::new(
            "cannot_retry",
            format!(
                "Attempt {} applied on the ledger (transaction {}): this payout was paid",
                a.attempt_number, a.tx_hash
            ),
        ));
    }
    if let Some(a) = latest_per_transaction(attempts).find(|a| a.unsettled()) {
        return Err(Invalid::new(
            "cannot_retry",
            format!(
                "Attempt {} (transaction {}) may still apply on the ledger; retry once its outcome is settled",
                a.attempt_number, a.tx_hash
            ),
        ));
    }
    Ok(())
}

/// One submission of a payout to a ledger. The hash is stored before the submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub id: String,
    pub attempt_number: i64,
    pub tx_hash: String,
    pub ledger_seq: Option<i64>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub created_at: Timestamp,
    /// How many times its envelope was sent: an unknown outcome is resolved by sending the same
    /// envelope again, within the same attempt.
    pub submissions: i64,
    /// The channel account whose sequence its transaction takes (the transaction's source)
    /// when it is not the paying account: held by this attempt while it is unsettled.
    pub channel_account: Option<String>,
}

impl Attempt {
    /// Its transaction applied on the ledger.
    pub fn applied(&self) -> bool {
        self.ledger_seq.is_some()
    }

    /// Its transaction may still apply: it never finished (a crash) or its outcome is unknown.
    pub fn unsettled(&self) -> bool {
        !self.applied() && self.error_code.as_deref().is_none_or(|code| code == OUTCOME_UNKNOWN)
    }
}

/// A payout as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payout {
    pub id: String,
    pub payout_type: PayoutType,
    pub client_id: Option<String>,
    /// `None` while its client has no wallet (`awaiting_registration`): the client's wallet is
    /// copied here when they register one, before the payout is queued.
    pub wallet_account_id: Option<WalletAddress>,
    /// Cents.
    pub asset_amount: i64,
    pub asset_code: AssetCode,
    /// The asset's issuing account; `None` for the native asset.
    pub asset_issuer: Option<WalletAddress>,
    /// The organization's text memo: on the network unless the receiving wallet needs its own.
    pub memo: Option<String>,
    /// The memo the receiving wallet needs (its client's, copied with the wallet): carried on the
    /// network instead of `memo`, since without it a custodial wallet cannot credit the receiver.
    pub wallet_memo: Option<StellarMemo>,
    /// The disbursement this payout pays an item of; approved, rejected and retried with it.
    pub disbursement_id: Option<String>,
    pub approval: ApprovalStatus,
    pub exec: ExecStatus,
    /// The id of whoever created it: an API key (`key_…`) or a console user (`usr_…`); the
    /// distinct-approver rule compares it with the approver's (the column kept its first name).
    pub created_by_key: String,
    /// Who took its approval back when where it may go changed (`payout.approval_withdrawn`):
    /// under four eyes they may not approve it again, and a batch's payout is then decided alone.
    pub approval_withdrawn_by: Option<String>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// Why a wallet set by the organization cannot release payouts already approved: an approved
/// payout is paid to the wallet its client gets, so whoever sets it decides where approved money
/// goes, which only an approver may.
pub const RELEASE_NEEDS_APPROVER: &str = "This client has approved payouts waiting for a wallet: setting \
     walletAccountId sends them to it, which needs the payouts:approve scope";

impl Payout {
    /// A payout that names only its client takes the wallet the client has as it is stored (read
    /// in its transaction, the client locked), with the memo that wallet needs: it never waits
    /// for a registration that already happened.
    pub fn take_wallet_of(&mut self, client: &crate::client::Client) -> Result<(), String> {
        let Some(wallet) = client.wallet_account_id.as_deref().filter(|_| self.wallet_account_id.is_none()) else {
            return Ok(());
        };
        self.wallet_account_id = Some(WalletAddress::parse(wallet)?);
        self.wallet_memo = client.wallet_memo.clone();
        self.exec = ExecStatus::Pending;
        Ok(())
    }

    /// Whether a person approves or rejects it by itself: one not in a batch, or a batch's whose
    /// approval was withdrawn (the disbursement's decision no longer covers it).
    pub fn decided_alone(&self) -> bool {
        self.disbursement_id.is_none() || self.approval_withdrawn_by.is_some()
    }

    /// The memo its transaction carries: the wallet's when it needs one, else the organization's.
    pub fn network_memo(&self) -> Option<StellarMemo> {
        self.wallet_memo.clone().or_else(|| self.memo.clone().map(StellarMemo::Text))
    }

    /// Where a new payout to `wallet` starts executing: queued once approved, or waiting for
    /// its client to register a wallet.
    pub fn first_exec(wallet: Option<&WalletAddress>) -> ExecStatus {
        if wallet.is_some() { ExecStatus::Pending } else { ExecStatus::AwaitingRegistration }
    }
}

/// A payout with its tenant, its client (if any, even archived) and every attempt, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoutDetail {
    pub tenant: Tenant,
    pub payout: Payout,
    pub client: Option<Client>,
    pub attempts: Vec<Attempt>,
    /// How many attempts came before the last manual retry: the attempt budget counts those after.
    pub attempts_before_retry: i64,
    /// When it was approved; `None` while it waits, and for payouts approved before this was kept.
    pub approved_at: Option<Timestamp>,
    /// Why it was canceled, when it was.
    pub cancel_reason: Option<CancelReason>,
    /// Why it is not being sent, while its destination cannot take it.
    pub hold: Option<Hold>,
}

/// A payout held back because its destination cannot take the payment (the account does not
/// exist, or holds no trustline for the asset): nothing is signed or paid for while it is; it
/// is checked again until the receiver fixes it, and fails with its code once it has been held
/// for the organization's registration window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hold {
    /// The network's code for the same refusal: `op_no_destination` or `op_no_trust`.
    pub code: String,
    pub message: String,
    /// When it was first held.
    pub since: Timestamp,
}

impl Hold {
    /// The hold for a destination the ledger says cannot take `asset_code`.
    pub fn unreachable(no_account: bool, asset_code: &str, since: Timestamp) -> Hold {
        let (code, message) = if no_account {
            (
                "op_no_destination",
                "The destination account does not exist on the network yet: the receiver must create (fund) it"
                    .to_owned(),
            )
        } else {
            (
                "op_no_trust",
                format!(
                    "The destination account does not trust {asset_code} yet: the receiver must add {asset_code} to their wallet"
                ),
            )
        };
        Hold { code: code.to_owned(), message, since }
    }

    /// Whether a payout held since `self.since` has waited its organization's registration window
    /// (in days) by `now`, and fails rather than waits longer.
    pub fn expired(&self, window_days: u32, now: Timestamp) -> bool {
        now.as_millis() >= self.since.as_millis().saturating_add(i64::from(window_days) * 86_400_000)
    }
}

/// How a new payout starts: pending approval, or approved at once when the organization does
/// not ask for approvals. The events its creation records, in order.
pub fn initial_approval(approval_required: bool) -> (ApprovalStatus, &'static [&'static str]) {
    if approval_required {
        (ApprovalStatus::Pending, &["payout.created"])
    } else {
        (ApprovalStatus::Approved, &["payout.created", "payout.approved"])
    }
}

/// How one submission to a ledger ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptResult {
    Sent {
        ledger_seq: i64,
    },
    /// Final: the payout fails with this code.
    Failed {
        code: String,
        message: String,
    },
    /// Transient: the payout stays queued and is tried again at `retry_at`.
    Retry {
        code: String,
        message: String,
        retry_at: Timestamp,
    },
}

/// What an attempt's result does to its payout: the execution status it moves to, when it is
/// next looked at, and the event that announces it (none while it is retried).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settlement {
    pub exec: ExecStatus,
    pub next_attempt_at: Timestamp,
    pub event: Option<&'static str>,
}

impl AttemptResult {
    pub fn settlement(&self, at: Timestamp) -> Settlement {
        match self {
            AttemptResult::Sent { .. } => {
                Settlement { exec: ExecStatus::Sent, next_attempt_at: at, event: Some("payout.completed") }
            }
            AttemptResult::Failed { .. } => {
                Settlement { exec: ExecStatus::Failed, next_attempt_at: at, event: Some("payout.failed") }
            }
            AttemptResult::Retry { retry_at, .. } => {
                Settlement { exec: ExecStatus::ReadyToSend, next_attempt_at: *retry_at, event: None }
            }
        }
    }

    /// The ledger that holds the transaction, when it was sent.
    pub fn ledger_seq(&self) -> Option<i64> {
        match self {
            AttemptResult::Sent { ledger_seq } => Some(*ledger_seq),
            _ => None,
        }
    }

    /// The error code and message of a failure or retry.
    pub fn error(&self) -> Option<(&str, &str)> {
        match self {
            AttemptResult::Sent { .. } => None,
            AttemptResult::Failed { code, message } | AttemptResult::Retry { code, message, .. } => {
                Some((code, message))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_waits_until_no_attempt_applied_or_may_apply() {
        let attempt = |ledger_seq: Option<i64>, code: Option<&str>| Attempt {
            id: "att_1".into(),
            attempt_number: 1,
            tx_hash: "ab".into(),
            ledger_seq,
            error_code: code.map(str::to_owned),
            error_message: None,
            created_at: Timestamp::now(),
            submissions: 1,
            channel_account: None,
        };
        let dead = attempt(None, Some("tx_bad_seq"));
        assert!(check_retry_safe(std::slice::from_ref(&dead)).is_ok());
        for blocking in [attempt(Some(9), None), attempt(None, None), attempt(None, Some(OUTCOME_UNKNOWN))] {
            let refused = check_retry_safe(&[dead.clone(), blocking.clone()]).unwrap_err();
            assert_eq!(refused.code, "cannot_retry", "{blocking:?}");
        }
        // An unknown outcome that a later resubmission of the same transaction settled.
        let resumed = attempt(None, Some(OUTCOME_UNKNOWN));
        assert!(check_retry_safe(&[resumed.clone(), dead.clone()]).is_ok());
        let other = Attempt { tx_hash: "cd".into(), ..dead };
        assert!(check_retry_safe(&[resumed, other]).is_err(), "a different transaction settles nothing");
    }

    #[test]
    fn fields_validate() {
        assert!(AssetCode::parse("USDC").is_ok() && AssetCode::parse("ABCDEFGHIJKL").is_ok());
        for bad in ["", "ABCDEFGHIJKLM", "US-D", "HTÉ"] {
            assert_eq!(AssetCode::parse(bad).unwrap_err().code, "invalid_asset_code", "{bad}");
        }
        assert!(parse_memo(&"a".repeat(28)).is_ok());
        assert_eq!(parse_memo(&"a".repeat(29)).unwrap_err().code, "invalid_memo");
        assert_eq!(parse_memo(&"é".repeat(15)).unwrap_err().code, "invalid_memo", "30 bytes");
        // 14 two-byte letters are 28 bytes: the most the chain carries; one more ASCII is 29.
        assert!(parse_memo(&"é".repeat(14)).is_ok());
        let over = parse_memo(&format!("{}a", "é".repeat(14))).unwrap_err();
        assert!(over.message.contains("this one is 29 bytes in 15 characters"), "{}", over.message);
        for bad in ["loan\u{0}", "a\nb", "\u{1b}[31m", "x\u{7f}", "\u{85}"] {
            assert_eq!(parse_memo(bad).unwrap_err().code, "invalid_memo", "{bad:?}");
        }
    }

    #[test]
    fn filters_partition_every_status_pair() {
        let mut seen = std::collections::HashSet::new();
        for a in ApprovalStatus::ALL {
            for e in ExecStatus::ALL {
                let filter = PayoutFilter::of(*a, *e);
                let (approval, exec) = filter.statuses();
                assert!(approval.is_none_or(|s| s == *a) && exec.is_none_or(|s| s == *e), "{filter} selects {a}/{e}");
                seen.insert(filter);
            }
        }
        assert_eq!(seen.len(), PayoutFilter::ALL.len());
    }

    #[test]
    fn every_status_by_every_action() {
        for a in ApprovalStatus::ALL {
            for e in ExecStatus::ALL {
                let approve = payout_transition(*a, *e, PayoutAction::Approve);
                assert_eq!(approve.is_ok(), *a == ApprovalStatus::Pending);
                let reject = payout_transition(*a, *e, PayoutAction::Reject);
                assert_eq!(
                    reject.map(|t| t.0).ok(),
                    (*a == ApprovalStatus::Pending).then_some(ApprovalStatus::Rejected)
                );
                let cancel = payout_transition(*a, *e, PayoutAction::Cancel);
                let waiting = *a == ApprovalStatus::Approved && *e == ExecStatus::AwaitingRegistration;
                assert_eq!(cancel.map(|t| t.1).ok(), waiting.then_some(ExecStatus::Canceled));
                let retry = payout_transition(*a, *e, PayoutAction::Retry);
                assert_eq!(retry.is_ok(), *a == ApprovalStatus::Approved && *e == ExecStatus::Failed);
            }
        }
    }

    #[test]
    fn an_attempt_settles_its_payout() {
        let at = Timestamp::from_millis(1_000);
        let later = Timestamp::from_millis(9_000);
        let sent = AttemptResult::Sent { ledger_seq: 7 }.settlement(at);
        assert_eq!((sent.exec, sent.event), (ExecStatus::Sent, Some("payout.completed")));
        let failed = AttemptResult::Failed { code: "op_no_trust".into(), message: String::new() }.settlement(at);
        assert_eq!((failed.exec, failed.event), (ExecStatus::Failed, Some("payout.failed")));
        let retry = AttemptResult::Retry { code: "tx_timeout".into(), message: String::new(), retry_at: later };
        assert_eq!(
            retry.settlement(at),
            Settlement { exec: ExecStatus::ReadyToSend, next_attempt_at: later, event: None }
        );
        assert_eq!(initial_approval(true).0, ApprovalStatus::Pending);
        assert_eq!(initial_approval(false), (ApprovalStatus::Approved, &["payout.created", "payout.approved"][..]));
    }
}
