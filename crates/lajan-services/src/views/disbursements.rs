//! How a disbursement and its items look from outside, in JSON and in the CSV report.

use super::money;
use lajan_domain::Timestamp;
use lajan_domain::disbursement::{Disbursement, ItemCounts, ItemDetail};
use serde::Serialize;
use utoipa::ToSchema;

/// How many items are in each state; they add up to `itemCount`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemCountsView {
    /// In a draft, awaiting approval, or approved and not yet taken by the executor.
    pub pending: u64,
    /// Approved, waiting for the client to register a wallet.
    pub awaiting_registration: u64,
    /// Being sent (the payout is `ready_to_send`).
    pub executing: u64,
    pub sent: u64,
    pub failed: u64,
    /// Its client never registered a wallet, or the organization canceled it.
    pub canceled: u64,
    pub rejected: u64,
}

impl From<&ItemCounts> for ItemCountsView {
    fn from(c: &ItemCounts) -> Self {
        ItemCountsView {
            pending: c.pending,
            awaiting_registration: c.awaiting_registration,
            executing: c.executing,
            sent: c.sent,
            failed: c.failed,
            canceled: c.canceled,
            rejected: c.rejected,
        }
    }
}

/// A batch of payouts of one asset.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisbursementView {
    #[schema(example = "dsb_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    #[schema(example = "June stipends")]
    pub name: String,
    #[schema(example = "USDC")]
    pub asset_code: String,
    /// null for the native asset (XLM).
    pub asset_issuer: Option<String>,
    /// draft, pending_approval, approved, processing, completed, partially_failed, failed or
    /// rejected.
    #[schema(example = "draft")]
    pub status: String,
    /// json or csv: how the items were given.
    pub source: String,
    pub item_count: u64,
    /// The sum of every item.
    #[schema(example = "1500.00")]
    pub total_amount: String,
    /// The sum of the items sent.
    #[schema(example = "0.00")]
    pub amount_sent: String,
    pub counts: ItemCountsView,
    /// Why it was rejected, when it was and a reason was given.
    pub reject_reason: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub submitted_at: Option<Timestamp>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub approved_at: Option<Timestamp>,
}

impl From<&Disbursement> for DisbursementView {
    fn from(d: &Disbursement) -> Self {
        DisbursementView {
            id: d.id.clone(),
            name: d.name.clone(),
            asset_code: d.asset_code.to_string(),
            asset_issuer: d.asset_issuer.as_ref().map(ToString::to_string),
            status: d.status.as_str().to_owned(),
            source: d.source.as_str().to_owned(),
            item_count: d.item_count,
            total_amount: money(d.total_amount),
            amount_sent: money(d.amount_sent),
            counts: ItemCountsView::from(&d.counts),
            reject_reason: d.reject_reason.clone(),
            created_at: d.created_at,
            updated_at: d.updated_at,
            submitted_at: d.submitted_at,
            approved_at: d.approved_at,
        }
    }
}

/// One item of a disbursement and, once submitted, its payout. A row of the CSV report too,
/// with the same columns in this order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisbursementItemView {
    #[schema(example = "dsi_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    /// The item's row as given: its place in `items`, or the CSV data row, from 1.
    pub row: u32,
    pub external_id: Option<String>,
    pub client_id: Option<String>,
    /// The wallet paid: the one given, or the client's when the batch was submitted, or the one
    /// the client registered later for a payout that waited for them; null while the client has
    /// none.
    pub wallet_account_id: Option<String>,
    #[schema(example = "125.50")]
    pub asset_amount: String,
    pub memo: Option<String>,
    /// The payout paying this item; null in a draft.
    pub payout_id: Option<String>,
    /// The payout's pending, approved or rejected; null in a draft.
    pub approval_status: Option<String>,
    /// The payout's pending, awaiting_registration, ready_to_send, sent, failed or canceled; null in
    /// a draft.
    pub exec_status: Option<String>,
    /// The hash of the payout's latest transaction.
    pub tx_hash: Option<String>,
    /// Why the latest attempt failed, e.g. `op_no_trust`.
    pub error_code: Option<String>,
    pub error_message: Option<String>,
}

/// The CSV report's header: the item view's fields, in order.
pub const REPORT_COLUMNS: [&str; 13] = [
    "id",
    "row",
    "externalId",
    "clientId",
    "walletAccountId",
    "assetAmount",
    "memo",
    "payoutId",
    "approvalStatus",
    "execStatus",
    "txHash",
    "errorCode",
    "errorMessage",
];

impl From<&ItemDetail> for DisbursementItemView {
    fn from(d: &ItemDetail) -> Self {
        let i = &d.item;
        let p = d.payout.as_ref();
        DisbursementItemView {
            id: i.id.clone(),
            row: i.row,
            external_id: i.external_id.clone(),
            client_id: i.client_id.clone(),
            wallet_account_id: i.wallet_account_id.as_ref().map(ToString::to_string),
            asset_amount: money(i.asset_amount),
            memo: i.memo.clone(),
            payout_id: p.map(|p| p.id.clone()),
            approval_status: p.map(|p| p.approval.as_str().to_owned()),
            exec_status: p.map(|p| p.exec.as_str().to_owned()),
            tx_hash: p.and_then(|p| p.tx_hash.clone()),
            error_code: p.and_then(|p| p.error_code.clone()),
            error_message: p.and_then(|p| p.error_message.clone()),
        }
    }
}

impl DisbursementItemView {
    /// The row of the CSV report, in [`REPORT_COLUMNS`] order; empty cells for nulls.
    pub fn report_row(&self) -> [String; 13] {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        [
            self.id.clone(),
            self.row.to_string(),
            text(&self.external_id),
            text(&self.client_id),
            text(&self.wallet_account_id),
            self.asset_amount.clone(),
            text(&self.memo),
            text(&self.payout_id),
            text(&self.approval_status),
            text(&self.exec_status),
            text(&self.tx_hash),
            text(&self.error_code),
            text(&self.error_message),
        ]
    }
}
