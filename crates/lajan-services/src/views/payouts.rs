//! How a payout and its attempts look from outside.

use super::clients::{PayoutClient, PayoutClientSummary};
use super::money;
use lajan_domain::Timestamp;
use lajan_domain::payout::{Attempt, PayoutDetail};
use lajan_domain::stellar_memo::StellarMemo;
use serde::Serialize;
use utoipa::ToSchema;

/// A row of the payouts list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutSummary {
    #[schema(example = "pyt_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    /// direct or disbursement.
    #[serde(rename = "type")]
    pub payout_type: String,
    pub client_id: Option<String>,
    pub client: Option<PayoutClientSummary>,
    /// null while the client has no wallet (`awaiting_registration`).
    pub wallet_account_id: Option<String>,
    #[schema(example = "100.00")]
    pub asset_amount: String,
    #[schema(example = "USDC")]
    pub asset_code: String,
    pub memo: Option<String>,
    /// pending, approved or rejected.
    pub approval_status: String,
    /// pending, awaiting_registration, ready_to_send, sent, failed or canceled.
    pub exec_status: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttemptView {
    #[schema(example = "att_01a1fc8be56c7228a813c8461b65a699")]
    pub id: String,
    pub attempt_number: i64,
    /// The transaction's hash, stored before it was submitted.
    pub tx_hash: String,
    /// The ledger that included it; null while unknown or when it failed.
    pub ledger_seq: Option<i64>,
    /// A Horizon result code such as `op_no_destination`, or `tx_timeout`.
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

impl From<&Attempt> for AttemptView {
    fn from(a: &Attempt) -> Self {
        AttemptView {
            id: a.id.clone(),
            attempt_number: a.attempt_number,
            tx_hash: a.tx_hash.clone(),
            ledger_seq: a.ledger_seq,
            error_code: a.error_code.clone(),
            error_message: a.error_message.clone(),
            created_at: a.created_at,
        }
    }
}

/// A payout in full, with every attempt.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayoutView {
    pub id: String,
    #[serde(rename = "type")]
    pub payout_type: String,
    pub client_id: Option<String>,
    pub client: Option<PayoutClient>,
    /// The wallet paid; null while the client has none: the payout waits in
    /// `awaiting_registration` and takes the client's wallet when they register one.
    pub wallet_account_id: Option<String>,
    pub asset_amount: String,
    pub asset_code: String,
    /// null for the native asset (XLM).
    pub asset_issuer: Option<String>,
    /// The organization's text memo. It is the one on the network unless `walletMemo` is set.
    pub memo: Option<String>,
    /// The memo the receiving wallet needs (a custodial wallet or an exchange), taken from the
    /// client with its wallet when the payout was created or released; the transaction carries
    /// it instead of `memo`. null when the wallet needs none.
    #[schema(example = "1234567")]
    pub wallet_memo: Option<String>,
    /// text, id or hash (null with `walletMemo`).
    #[schema(value_type = Option<String>, example = "id")]
    pub wallet_memo_type: Option<&'static str>,
    pub approval_status: String,
    /// pending, awaiting_registration, ready_to_send, sent, failed or canceled.
    pub exec_status: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
    /// Why it was canceled: receiver_not_registered (its client did not register a wallet within
    /// the settings' registrationWindowDays) or requested (POST /v1/payouts/{id}/cancel); null
    /// unless execStatus is canceled.
    #[schema(value_type = Option<String>, example = "receiver_not_registered")]
    pub cancel_reason: Option<&'static str>,
    /// Why it is not being sent while execStatus is ready_to_send: its destination cannot take
    /// the payment yet. null when nothing holds it back.
    pub hold: Option<HoldView>,
    pub attempts: Vec<AttemptView>,
}

/// A payout held back, nothing signed or paid for, because its destination cannot take it. It
/// is checked again every few minutes and sent once the receiver fixes it (creates the account,
/// adds the trustline); held for the settings' registrationWindowDays, it fails with `code`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HoldView {
    /// op_no_destination (the account does not exist) or op_no_trust (no trustline for the asset).
    #[schema(example = "op_no_trust")]
    pub code: String,
    #[schema(example = "The destination account does not trust USDC yet: the receiver must add USDC to their wallet")]
    pub message: String,
    /// When it was first held.
    #[schema(value_type = String, format = DateTime)]
    pub since: Timestamp,
}

impl PayoutSummary {
    pub fn from_detail(d: &PayoutDetail) -> Self {
        let p = &d.payout;
        PayoutSummary {
            id: p.id.clone(),
            payout_type: p.payout_type.as_str().to_owned(),
            client_id: p.client_id.clone(),
            client: d.client.as_ref().map(PayoutClientSummary::from),
            wallet_account_id: p.wallet_account_id.as_ref().map(ToString::to_string),
            asset_amount: money(p.asset_amount),
            asset_code: p.asset_code.to_string(),
            memo: p.memo.clone(),
            approval_status: p.approval.as_str().to_owned(),
            exec_status: p.exec.as_str().to_owned(),
            created_at: p.created_at,
        }
    }
}

impl PayoutView {
    pub fn from_detail(d: &PayoutDetail) -> Self {
        let p = &d.payout;
        PayoutView {
            id: p.id.clone(),
            payout_type: p.payout_type.as_str().to_owned(),
            client_id: p.client_id.clone(),
            client: d.client.as_ref().map(PayoutClient::from),
            wallet_account_id: p.wallet_account_id.as_ref().map(ToString::to_string),
            asset_amount: money(p.asset_amount),
            asset_code: p.asset_code.to_string(),
            asset_issuer: p.asset_issuer.as_ref().map(ToString::to_string),
            memo: p.memo.clone(),
            wallet_memo: p.wallet_memo.as_ref().map(StellarMemo::value),
            wallet_memo_type: p.wallet_memo.as_ref().map(|m| m.kind().as_str()),
            approval_status: p.approval.as_str().to_owned(),
            exec_status: p.exec.as_str().to_owned(),
            created_at: p.created_at,
            updated_at: p.updated_at,
            cancel_reason: d.cancel_reason.map(|r| r.as_str()),
            hold: d.hold.as_ref().map(|h| HoldView {
                code: h.code.clone(),
                message: h.message.clone(),
                since: h.since,
            }),
            attempts: d.attempts.iter().map(AttemptView::from).collect(),
        }
    }
}
