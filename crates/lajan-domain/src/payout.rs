//! Payouts: sending an amount of a Stellar asset to a wallet. Their validated fields (asset
//! code, memo, amount), the two status fields and the moves between them, and the list filter.

use crate::Invalid;
use crate::Timestamp;
use crate::validation::control_character;
use std::fmt;
use std::str::FromStr;

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
        self.0 == "XLM"
    }
}

impl fmt::Display for AssetCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The most a Stellar text memo carries, in bytes of UTF-8.
pub const MEMO_BYTES: usize = 28;

/// A Stellar text memo. The network counts bytes, not characters, so the limit is
/// [`MEMO_BYTES`] bytes of UTF-8 (the spec's "28 characters" holds for ASCII); control
/// characters are refused because the memo is shown to the recipient by their wallet.
pub fn parse_memo(raw: &str) -> Result<String, Invalid> {
    if raw.len() > MEMO_BYTES {
        let chars = raw.chars().count();
        let note = if chars == raw.len() { String::new() } else { format!(" in {chars} characters") };
        return Err(Invalid::new(
            "invalid_memo",
            format!(
                "memo must be at most {MEMO_BYTES} bytes of UTF-8, the most a Stellar text memo carries \
                 (letters such as é take 2 bytes); this one is {} bytes{note}",
                raw.len()
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
    ReadyToSend,
    Sent,
    Failed,
}

macro_rules! str_enum {
    ($ty:ident { $($variant:ident => $text:literal),* $(,)? }) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];
            pub const fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $text),* }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $ty::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| {
                    let names: Vec<&str> = $ty::ALL.iter().map(|v| v.as_str()).collect();
                    format!("unknown value {s:?}: expected one of {}", names.join(", "))
                })
            }
        }
    };
}

str_enum!(ApprovalStatus { Pending => "pending", Approved => "approved", Rejected => "rejected" });
str_enum!(ExecStatus { Pending => "pending", ReadyToSend => "ready_to_send", Sent => "sent", Failed => "failed" });
str_enum!(PayoutType { Direct => "direct", Disbursement => "disbursement" });
str_enum!(PayoutFilter {
    PendingApproval => "pending_approval",
    Approved => "approved",
    Rejected => "rejected",
    Executing => "executing",
    Completed => "completed",
    Failed => "failed",
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
    Rejected,
    Executing,
    Completed,
    Failed,
}

impl PayoutFilter {
    /// Which filter a payout falls under.
    pub fn of(approval: ApprovalStatus, exec: ExecStatus) -> PayoutFilter {
        match (approval, exec) {
            (ApprovalStatus::Pending, _) => PayoutFilter::PendingApproval,
            (ApprovalStatus::Rejected, _) => PayoutFilter::Rejected,
            (ApprovalStatus::Approved, ExecStatus::Pending) => PayoutFilter::Approved,
            (ApprovalStatus::Approved, ExecStatus::ReadyToSend) => PayoutFilter::Executing,
            (ApprovalStatus::Approved, ExecStatus::Sent) => PayoutFilter::Completed,
            (ApprovalStatus::Approved, ExecStatus::Failed) => PayoutFilter::Failed,
        }
    }
}

/// What can be done to a payout by a person (execution moves are the worker's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayoutAction {
    Approve,
    Reject,
    Retry,
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
    }
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
                seen.insert(PayoutFilter::of(*a, *e));
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
                let retry = payout_transition(*a, *e, PayoutAction::Retry);
                assert_eq!(retry.is_ok(), *a == ApprovalStatus::Approved && *e == ExecStatus::Failed);
            }
        }
    }
}
