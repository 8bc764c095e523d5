//! What waits for an approver: the direct payouts and the disbursements pending approval, the
//! total waiting in each asset beside the ledger's balance of it, and the organization's
//! distinct-approver rule, for the console's approvals page. Approving and rejecting go through
//! the same methods as the API's (`act_on_payout`, `approve_disbursement`, ...).

use crate::views::money;
use crate::{ServiceResult, Services, assets};
use lajan_domain::Tenant;
use lajan_domain::disbursement::{Disbursement, DisbursementStatus};
use lajan_domain::pagination::{MAX_LIMIT, PageRequest};
use lajan_domain::payout::{PayoutDetail, PayoutFilter, PayoutType};
use lajan_store::disbursements::DisbursementQuery;
use lajan_store::payouts::PayoutQuery;
use std::collections::BTreeMap;

/// The total waiting in one asset, and whether the balance covers it.
#[derive(Debug, PartialEq, Eq)]
pub struct AssetCheck {
    pub asset_code: String,
    /// Exact, in the asset's units.
    pub waiting: String,
    /// `None` when the balance could not be read or the account holds no trustline.
    pub balance: Option<String>,
    /// Whether the balance covers everything waiting in this asset; `None` when unknown.
    pub covered: Option<bool>,
}

#[derive(Debug)]
pub struct Approvals {
    /// The oldest first, at most [`MAX_LIMIT`]; `payouts_waiting` counts them all.
    pub payouts: Vec<PayoutDetail>,
    pub payouts_waiting: u64,
    pub disbursements: Vec<Disbursement>,
    pub disbursements_waiting: u64,
    pub checks: Vec<AssetCheck>,
    /// Why the balances are unknown (the live network unreachable or not set up), if they are.
    pub balances_unavailable: Option<String>,
    /// Whether whoever created a payout, or created or submitted a disbursement, may not
    /// approve it.
    pub distinct_approver: bool,
}

impl Services {
    pub async fn approvals(&self, tenant: &Tenant) -> ServiceResult<Approvals> {
        let page = PageRequest::numbered(1, MAX_LIMIT);
        let payouts = PayoutQuery {
            filter: Some(PayoutFilter::PendingApproval),
            payout_type: Some(PayoutType::Direct),
            search: None,
            page: page.clone(),
        };
        let (payouts, _) = self.store.list_payouts(tenant, &payouts).await?;
        let batches = DisbursementQuery { status: Some(DisbursementStatus::PendingApproval), search: None, page };
        let disbursements = self.store.list_disbursements(tenant, &batches).await?;
        let settings = self.store.get_settings(tenant).await?;

        let mut waiting: BTreeMap<String, i64> = BTreeMap::new();
        for total in self.store.payouts_awaiting_approval(tenant).await? {
            *waiting.entry(total.asset_code).or_default() += total.cents;
        }
        for d in &disbursements.items {
            *waiting.entry(d.asset_code.as_str().to_owned()).or_default() += d.total_amount;
        }
        let (balances, balances_unavailable) = match self.ledger_balances(tenant, waiting.keys()).await {
            Ok(balances) => (balances, None),
            Err(why) => (BTreeMap::new(), Some(why)),
        };
        let checks = waiting
            .into_iter()
            .map(|(asset_code, cents)| {
                let held = balances.get(&asset_code).copied().flatten();
                AssetCheck {
                    waiting: money(cents),
                    balance: held.map(money),
                    covered: balances.get(&asset_code).map(|held| held.is_some_and(|held| held >= cents)),
                    asset_code,
                }
            })
            .collect();
        Ok(Approvals {
            payouts_waiting: payouts.total,
            payouts: payouts.items,
            disbursements_waiting: disbursements.total,
            disbursements: disbursements.items,
            checks,
            balances_unavailable,
            distinct_approver: settings.require_distinct_approver,
        })
    }

    /// The ledger's balance of each of `codes` (in its configured issuer), `None` for an asset
    /// without a trustline; the error says why nothing could be read.
    pub(crate) async fn ledger_balances(
        &self,
        tenant: &Tenant,
        codes: impl Iterator<Item = &String>,
    ) -> Result<BTreeMap<String, Option<i64>>, String> {
        let ledger = self.ledgers.of(tenant).ok_or("No live Stellar network is configured")?;
        let mut balances = BTreeMap::new();
        for code in codes {
            let issuer = assets::issuer(tenant.env, code, &self.config.live_asset_issuers);
            let held = ledger
                .balance(tenant, code, issuer.as_deref())
                .await
                .map_err(|e| format!("The balances could not be read from the ledger: {e}"))?;
            balances.insert(code.clone(), held);
        }
        Ok(balances)
    }
}
