//! Disbursements: batches of payouts of one asset, created as a draft from JSON or CSV, submitted
//! (one payout per item), approved or rejected once for all, executed, and rolled up into one
//! status. The statuses, what a person may do in each, and how the items' payouts add up.

use crate::client::WalletAddress;
use crate::payout::{ApprovalStatus, AssetCode, ExecStatus};
use crate::validation::{control_character, required_text};
use crate::{Invalid, Timestamp};

/// The most items one disbursement holds.
pub const MAX_ITEMS: usize = 10_000;

/// The longest `externalId`, in characters.
pub const MAX_EXTERNAL_ID_CHARS: usize = 100;

/// The longest disbursement name, in characters.
pub const MAX_NAME_CHARS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DisbursementStatus {
    Draft,
    PendingApproval,
    Approved,
    Processing,
    Completed,
    PartiallyFailed,
    Failed,
    Rejected,
}

str_enum!(DisbursementStatus {
    Draft => "draft",
    PendingApproval => "pending_approval",
    Approved => "approved",
    Processing => "processing",
    Completed => "completed",
    PartiallyFailed => "partially_failed",
    Failed => "failed",
    Rejected => "rejected",
});

/// Where the items came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DisbursementSource {
    Json,
    Csv,
}

str_enum!(DisbursementSource { Json => "json", Csv => "csv" });

/// Where an item stands, from its payout's two statuses: the `counts` keys and the items filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemStatus {
    /// Not yet on its way: in a draft, awaiting approval, or approved and not yet claimed.
    Pending,
    /// Approved, waiting for its client to register a wallet (`awaiting_registration`).
    AwaitingRegistration,
    /// Claimed by the executor (`ready_to_send`).
    Executing,
    Sent,
    Failed,
    /// Its client never registered a wallet, or the organization called it off.
    Canceled,
    Rejected,
}

str_enum!(ItemStatus {
    Pending => "pending",
    AwaitingRegistration => "awaiting_registration",
    Executing => "executing",
    Sent => "sent",
    Failed => "failed",
    Canceled => "canceled",
    Rejected => "rejected",
});

impl ItemStatus {
    /// The status of an item whose payout has these statuses.
    pub fn of(approval: ApprovalStatus, exec: ExecStatus) -> ItemStatus {
        match (approval, exec) {
            (ApprovalStatus::Rejected, _) => ItemStatus::Rejected,
            (ApprovalStatus::Pending, _) | (ApprovalStatus::Approved, ExecStatus::Pending) => ItemStatus::Pending,
            (ApprovalStatus::Approved, ExecStatus::AwaitingRegistration) => ItemStatus::AwaitingRegistration,
            (ApprovalStatus::Approved, ExecStatus::ReadyToSend) => ItemStatus::Executing,
            (ApprovalStatus::Approved, ExecStatus::Sent) => ItemStatus::Sent,
            (ApprovalStatus::Approved, ExecStatus::Failed) => ItemStatus::Failed,
            (ApprovalStatus::Approved, ExecStatus::Canceled) => ItemStatus::Canceled,
        }
    }
}

/// How many items are in each [`ItemStatus`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ItemCounts {
    pub pending: u64,
    pub awaiting_registration: u64,
    pub executing: u64,
    pub sent: u64,
    pub failed: u64,
    pub canceled: u64,
    pub rejected: u64,
}

impl ItemCounts {
    /// The counts of a batch of `item_count` items whose payouts number `by_status` (items
    /// without a payout yet, in a draft, are pending).
    pub fn of(item_count: u64, by_status: impl IntoIterator<Item = (ItemStatus, u64)>) -> ItemCounts {
        let mut counts = ItemCounts::default();
        for (status, n) in by_status {
            match status {
                ItemStatus::Pending => {}
                ItemStatus::AwaitingRegistration => counts.awaiting_registration += n,
                ItemStatus::Executing => counts.executing += n,
                ItemStatus::Sent => counts.sent += n,
                ItemStatus::Failed => counts.failed += n,
                ItemStatus::Canceled => counts.canceled += n,
                ItemStatus::Rejected => counts.rejected += n,
            }
        }
        let settled_or_on_the_way = counts.awaiting_registration
            + counts.executing
            + counts.sent
            + counts.failed
            + counts.canceled
            + counts.rejected;
        counts.pending = item_count.saturating_sub(settled_or_on_the_way);
        counts
    }

    /// Items the executor has yet to settle (those waiting for their client among them).
    pub fn left_to_run(&self) -> u64 {
        self.pending + self.awaiting_registration + self.executing
    }
}

/// A disbursement as stored, with its items' counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disbursement {
    pub id: String,
    pub name: String,
    pub asset_code: AssetCode,
    /// `None` for the native asset.
    pub asset_issuer: Option<WalletAddress>,
    pub status: DisbursementStatus,
    pub source: DisbursementSource,
    pub item_count: u64,
    /// Cents, the sum of every item.
    pub total_amount: i64,
    /// Cents, the sum of the items sent.
    pub amount_sent: i64,
    pub counts: ItemCounts,
    /// These three hold the id of an API key (`key_…`) or of a console user (`usr_…`): whoever
    /// created, submitted and approved the batch (the columns kept their first names).
    pub created_by_key: String,
    pub submitted_by_key: Option<String>,
    pub approved_by_key: Option<String>,
    pub reject_reason: Option<String>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub submitted_at: Option<Timestamp>,
    pub approved_at: Option<Timestamp>,
}

/// One row of a disbursement, validated at create: the wallet is resolved from the client then
/// and paid as it was approved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisbursementItem {
    pub id: String,
    /// The row as the caller counts it: the item's place in `items`, or the CSV's data row,
    /// from 1.
    pub row: u32,
    pub external_id: Option<String>,
    pub client_id: Option<String>,
    /// `None` for a client with no wallet yet: its payout waits for them to register one.
    pub wallet_account_id: Option<WalletAddress>,
    /// Cents.
    pub asset_amount: i64,
    pub memo: Option<String>,
}

/// The payout an item became on submit, as far as the item report shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemPayout {
    pub id: String,
    pub approval: ApprovalStatus,
    pub exec: ExecStatus,
    /// Of the latest attempt.
    pub tx_hash: Option<String>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
}

/// An item with its payout, once submitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemDetail {
    pub item: DisbursementItem,
    pub payout: Option<ItemPayout>,
}

impl ItemDetail {
    pub fn status(&self) -> ItemStatus {
        self.payout.as_ref().map_or(ItemStatus::Pending, |p| ItemStatus::of(p.approval, p.exec))
    }
}

/// What a person can do to a disbursement (execution is the worker's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisbursementAction {
    Submit,
    Approve,
    Reject,
    RetryFailed,
    Delete,
}

impl DisbursementAction {
    fn refusal(self, status: DisbursementStatus) -> Invalid {
        let (code, rule) = match self {
            DisbursementAction::Submit => ("cannot_submit", "Only a draft can be submitted"),
            DisbursementAction::Approve => ("cannot_approve", "Only a disbursement pending approval can be approved"),
            DisbursementAction::Reject => ("cannot_reject", "Only a disbursement pending approval can be rejected"),
            DisbursementAction::RetryFailed => {
                ("cannot_retry", "Only an approved disbursement with failed items can retry them")
            }
            DisbursementAction::Delete => ("cannot_delete", "Only a draft can be deleted"),
        };
        Invalid::new(code, format!("{rule}; this one is {status}"))
    }
}

/// Whether `action` may be done to `d` now: the wrong-state refusal when not.
pub fn check_action(d: &Disbursement, action: DisbursementAction) -> Result<(), Invalid> {
    use DisbursementStatus as S;
    let allowed = match action {
        DisbursementAction::Submit | DisbursementAction::Delete => d.status == S::Draft,
        DisbursementAction::Approve | DisbursementAction::Reject => d.status == S::PendingApproval,
        DisbursementAction::RetryFailed => {
            matches!(d.status, S::Processing | S::PartiallyFailed | S::Failed) && d.counts.failed > 0
        }
    };
    if allowed { Ok(()) } else { Err(action.refusal(d.status)) }
}

/// Four eyes, when the organization asks for a distinct approver: the approving key is neither
/// the one that created the batch nor the one that submitted it.
pub fn check_distinct_approver(d: &Disbursement, approver_key: &str) -> Result<(), Invalid> {
    let which = if d.created_by_key == approver_key {
        "created"
    } else if d.submitted_by_key.as_deref() == Some(approver_key) {
        "submitted"
    } else {
        return Ok(());
    };
    Err(Invalid::new(
        "cannot_approve",
        format!(
            "This organization requires a different API key to approve a disbursement than the ones that created \
             and submitted it; this key {which} it"
        ),
    ))
}

/// How a submitted disbursement starts: pending approval, or approved at once when the
/// organization does not ask for approvals. The events its submission records, in order.
pub fn submission(approval_required: bool) -> (DisbursementStatus, &'static [&'static str]) {
    if approval_required {
        (DisbursementStatus::PendingApproval, &["disbursement.submitted"])
    } else {
        (DisbursementStatus::Approved, &["disbursement.submitted", "disbursement.approved"])
    }
}

/// The status an approved disbursement moves to as its items settle, and the event that
/// announces the move (none on the way to `processing`). Before approval the status is the
/// people's to change, and stays.
///
/// `approved` lasts until the executor takes the first item; `processing` until none is left
/// to run; then `completed` (all sent), `failed` (none sent: all failed, canceled or rejected) or
/// `partially_failed` (some sent, some failed, canceled or rejected: such an item paid nobody, so
/// the batch did not do all it was approved for; an approved batch's item is rejected alone only
/// after its approval was withdrawn). Retrying failed items goes back to `processing`.
pub fn roll_up(status: DisbursementStatus, counts: &ItemCounts) -> (DisbursementStatus, Option<&'static str>) {
    use DisbursementStatus as S;
    if matches!(status, S::Draft | S::PendingApproval | S::Rejected) {
        return (status, None);
    }
    let next = if counts.left_to_run() > 0 {
        let untouched = counts.executing == 0 && counts.sent == 0 && counts.failed == 0 && counts.canceled == 0;
        if status == S::Approved && untouched { S::Approved } else { S::Processing }
    } else {
        match (counts.sent > 0, counts.failed + counts.canceled + counts.rejected > 0) {
            (true, false) => S::Completed,
            (false, true) => S::Failed,
            (true, true) => S::PartiallyFailed,
            // Nothing sent, failed, canceled or rejected, and nothing left: an empty batch.
            (false, false) => status,
        }
    };
    let event = match next {
        _ if next == status => None,
        S::Completed => Some("disbursement.completed"),
        S::PartiallyFailed => Some("disbursement.partially_failed"),
        S::Failed => Some("disbursement.failed"),
        _ => None,
    };
    (next, event)
}

/// A disbursement's name: required, trimmed, at most [`MAX_NAME_CHARS`] characters, one line.
pub fn parse_name(raw: Option<&str>) -> Result<String, String> {
    required_text(raw, MAX_NAME_CHARS, false)
}

/// An item's `externalId`, the caller's own reference (unique within the batch): taken as
/// written (a leading space is the caller's, and may be what keeps a spreadsheet from reading
/// the value as a formula), empty meaning none, not blank, at most [`MAX_EXTERNAL_ID_CHARS`]
/// characters, no control characters.
pub fn parse_external_id(raw: &str) -> Result<Option<String>, Invalid> {
    let invalid = |rule: String| Invalid::new("invalid_external_id", format!("externalId {rule}"));
    if raw.is_empty() {
        return Ok(None);
    }
    if raw.trim().is_empty() {
        return Err(invalid("must not be only spaces".into()));
    }
    if raw.chars().count() > MAX_EXTERNAL_ID_CHARS {
        return Err(invalid(format!("must be at most {MAX_EXTERNAL_ID_CHARS} characters")));
    }
    match control_character(raw, false) {
        Some(problem) => Err(invalid(problem)),
        None => Ok(Some(raw.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pending: u64, executing: u64, sent: u64, failed: u64) -> ItemCounts {
        ItemCounts { pending, executing, sent, failed, ..ItemCounts::default() }
    }

    #[test]
    fn item_statuses_partition_every_payout_status_pair() {
        let mut seen = std::collections::HashSet::new();
        for a in ApprovalStatus::ALL {
            for e in ExecStatus::ALL {
                seen.insert(ItemStatus::of(*a, *e));
            }
        }
        assert_eq!(seen.len(), ItemStatus::ALL.len());
    }

    #[test]
    fn counts_leave_items_without_payouts_pending() {
        let c = ItemCounts::of(10, [(ItemStatus::Sent, 3), (ItemStatus::Executing, 2), (ItemStatus::Pending, 1)]);
        assert_eq!(c, counts(5, 2, 3, 0));
        assert_eq!(ItemCounts::of(4, []), counts(4, 0, 0, 0));
    }

    #[test]
    fn the_status_rolls_up_from_the_items() {
        use DisbursementStatus as S;
        let cases = [
            (S::Approved, counts(5, 0, 0, 0), S::Approved, None),
            (S::Approved, counts(3, 2, 0, 0), S::Processing, None),
            (S::Processing, counts(0, 0, 5, 0), S::Completed, Some("disbursement.completed")),
            (S::Processing, counts(0, 0, 0, 5), S::Failed, Some("disbursement.failed")),
            (S::Processing, counts(0, 0, 4, 1), S::PartiallyFailed, Some("disbursement.partially_failed")),
            (S::Processing, counts(0, 1, 4, 0), S::Processing, None),
            // Retried failures run again.
            (S::PartiallyFailed, counts(1, 0, 4, 0), S::Processing, None),
            (S::Failed, counts(5, 0, 0, 0), S::Processing, None),
            (S::Completed, counts(0, 0, 5, 0), S::Completed, None),
            (S::PendingApproval, counts(0, 0, 5, 0), S::PendingApproval, None),
            (S::Draft, counts(0, 0, 0, 0), S::Draft, None),
            // Waiting items keep the batch running; canceled ones paid nobody.
            (
                S::Processing,
                ItemCounts { sent: 4, awaiting_registration: 1, ..ItemCounts::default() },
                S::Processing,
                None,
            ),
            (
                S::Processing,
                ItemCounts { sent: 4, canceled: 1, ..ItemCounts::default() },
                S::PartiallyFailed,
                Some("disbursement.partially_failed"),
            ),
            (
                S::Processing,
                ItemCounts { canceled: 5, ..ItemCounts::default() },
                S::Failed,
                Some("disbursement.failed"),
            ),
            // An item rejected alone after its approval was withdrawn paid nobody either.
            (
                S::Processing,
                ItemCounts { sent: 2, rejected: 1, ..ItemCounts::default() },
                S::PartiallyFailed,
                Some("disbursement.partially_failed"),
            ),
        ];
        for (from, c, to, event) in cases {
            assert_eq!(roll_up(from, &c), (to, event), "{from} with {c:?}");
        }
    }

    #[test]
    fn each_action_has_its_states() {
        let mut d = Disbursement {
            id: "dsb_1".into(),
            name: "June stipends".into(),
            asset_code: AssetCode::parse("USDC").unwrap(),
            asset_issuer: None,
            status: DisbursementStatus::Draft,
            source: DisbursementSource::Json,
            item_count: 1,
            total_amount: 100,
            amount_sent: 0,
            counts: counts(1, 0, 0, 0),
            created_by_key: "key_1".into(),
            submitted_by_key: None,
            approved_by_key: None,
            reject_reason: None,
            created_at: Timestamp::from_millis(0),
            updated_at: Timestamp::from_millis(0),
            submitted_at: None,
            approved_at: None,
        };
        use DisbursementAction as A;
        for status in DisbursementStatus::ALL {
            d.status = *status;
            for (action, code) in [
                (A::Submit, "cannot_submit"),
                (A::Approve, "cannot_approve"),
                (A::Reject, "cannot_reject"),
                (A::RetryFailed, "cannot_retry"),
                (A::Delete, "cannot_delete"),
            ] {
                if let Err(e) = check_action(&d, action) {
                    assert_eq!(e.code, code);
                    assert!(e.message.contains(status.as_str()), "{}", e.message);
                }
            }
        }
        d.status = DisbursementStatus::PartiallyFailed;
        assert_eq!(check_action(&d, A::RetryFailed).unwrap_err().code, "cannot_retry", "no failed item");
        d.counts = counts(0, 0, 0, 1);
        assert!(check_action(&d, A::RetryFailed).is_ok());
        assert_eq!(submission(false).1, &["disbursement.submitted", "disbursement.approved"][..]);
    }

    #[test]
    fn external_ids_and_names_validate() {
        assert_eq!(parse_external_id(" =1+1 ").unwrap().as_deref(), Some(" =1+1 "), "as written");
        assert_eq!(parse_external_id("  ").unwrap_err().code, "invalid_external_id");
        assert_eq!(parse_external_id("").unwrap(), None);
        assert_eq!(parse_external_id(&"x".repeat(101)).unwrap_err().code, "invalid_external_id");
        assert_eq!(parse_external_id("a\u{0}").unwrap_err().code, "invalid_external_id");
        assert_eq!(parse_name(Some(" June ")).unwrap(), "June");
        assert!(parse_name(Some("  ")).is_err() && parse_name(None).is_err());
    }
}
