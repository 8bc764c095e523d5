//! How a wallet deposit looks to the wallet: SEP-24's transaction object.

use super::money;
use lajan_domain::Timestamp;
use lajan_domain::wallet_deposit::{DepositStatus, WalletDeposit};
use lajan_i18n::{Lang, text};
use serde::Serialize;

/// A SEP-24 transaction (`kind` deposit): the fields a registration's deposit has; amounts once
/// a payout is waiting for the receiver, the Stellar transaction once it is paid.
#[derive(Debug, Serialize)]
pub struct Sep24TransactionView {
    pub id: String,
    pub kind: &'static str,
    pub status: &'static str,
    pub amount_in: Option<String>,
    pub amount_out: Option<String>,
    pub amount_fee: Option<String>,
    pub started_at: Timestamp,
    pub updated_at: Timestamp,
    pub completed_at: Option<Timestamp>,
    pub stellar_transaction_id: Option<String>,
    /// The Lajan payout the deposit follows.
    pub external_transaction_id: Option<String>,
    /// The account paid.
    pub to: String,
    /// In the language the wallet asked for (English when it asked for none Lajan speaks).
    pub message: Option<String>,
    pub refunded: bool,
}

impl Sep24TransactionView {
    pub fn new(d: &WalletDeposit, now: Timestamp) -> Self {
        let status = d.status(now);
        let amount = d.payout.as_ref().map(|p| money(p.payout.asset_amount));
        let completed = status == DepositStatus::Completed;
        let updated_at = d.payout.as_ref().map_or(d.updated_at, |p| p.payout.updated_at.max(d.updated_at));
        Sep24TransactionView {
            id: d.id.clone(),
            kind: "deposit",
            status: status.as_str(),
            amount_in: amount.clone(),
            amount_out: amount,
            amount_fee: d.payout.as_ref().map(|_| "0.00".to_owned()),
            started_at: d.started_at,
            updated_at,
            completed_at: completed.then_some(updated_at),
            stellar_transaction_id: d.stellar_transaction_id().map(str::to_owned),
            external_transaction_id: d.payout.as_ref().map(|p| p.payout.id.clone()),
            to: d.account.clone(),
            message: message(status, Lang::parse(&d.lang).unwrap_or(Lang::En)),
            refunded: false,
        }
    }
}

/// What the wallet can show its user beside the status.
fn message(status: DepositStatus, lang: Lang) -> Option<String> {
    (status != DepositStatus::Completed)
        .then(|| text(lang, &format!("sep24-{}", status.as_str().replace('_', "-")), &[]))
}
