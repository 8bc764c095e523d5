//! The console's dashboard: the balance of each asset on the ledger the environment pays from,
//! what waits for approval, what was paid out this month, and the latest events.

use crate::views::disbursements::DisbursementView;
use crate::views::money;
use crate::{ServiceResult, Services, assets};
use lajan_domain::asset::ASSETS;
use lajan_domain::disbursement::DisbursementStatus;
use lajan_domain::event::Event;
use lajan_domain::pagination::PageRequest;
use lajan_domain::{Tenant, Timestamp};
use lajan_store::disbursements::DisbursementQuery;
use lajan_store::{AssetTotal, EventQuery};
use serde::Serialize;

/// Events the dashboard lists.
const RECENT_EVENTS: u32 = 10;

#[derive(Debug, Serialize)]
pub struct Balance {
    pub asset_code: &'static str,
    /// Exact, in the asset's units; `None` when the account holds no trustline for it.
    pub balance: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Total {
    pub asset_code: String,
    pub count: u64,
    pub amount: String,
}

impl From<&AssetTotal> for Total {
    fn from(t: &AssetTotal) -> Self {
        Total { asset_code: t.asset_code.clone(), count: t.count, amount: money(t.cents) }
    }
}

#[derive(Debug)]
pub struct Dashboard {
    /// The balances, or why they could not be read (the live network unreachable or not set up).
    pub balances: Result<Vec<Balance>, String>,
    pub payouts_awaiting_approval: Vec<Total>,
    pub disbursements_awaiting_approval: Vec<DisbursementView>,
    /// Since the first day of this month, 00:00 UTC.
    pub paid_this_month: Vec<Total>,
    /// This month (UTC), which `paid_this_month` covers: its year, and its number (1 to 12).
    pub year: i16,
    pub month: i8,
    pub recent_events: Vec<Event>,
}

impl Services {
    pub async fn dashboard(&self, tenant: &Tenant) -> ServiceResult<Dashboard> {
        let today = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).date();
        let month_start = today
            .first_of_month()
            .to_zoned(jiff::tz::TimeZone::UTC)
            .map(|z| Timestamp::from_millis(z.timestamp().as_millisecond()))
            .unwrap_or_else(|_| Timestamp::from_millis(0));
        let waiting = DisbursementQuery {
            status: Some(DisbursementStatus::PendingApproval),
            search: None,
            page: PageRequest::numbered(1, 20),
        };
        let events = EventQuery { page: PageRequest::numbered(1, RECENT_EVENTS), ..Default::default() };
        Ok(Dashboard {
            balances: self.balances(tenant).await,
            payouts_awaiting_approval: self
                .store
                .payouts_awaiting_approval(tenant)
                .await?
                .iter()
                .map(Total::from)
                .collect(),
            disbursements_awaiting_approval: self
                .store
                .list_disbursements(tenant, &waiting)
                .await?
                .items
                .iter()
                .map(DisbursementView::from)
                .collect(),
            paid_this_month: self
                .store
                .payouts_sent_since(tenant, month_start)
                .await?
                .iter()
                .map(Total::from)
                .collect(),
            year: today.year(),
            month: today.month(),
            recent_events: self.store.list_events(tenant, &events).await?.items,
        })
    }

    /// Each asset the environment can pay in, as its ledger holds it.
    async fn balances(&self, tenant: &Tenant) -> Result<Vec<Balance>, String> {
        let payable: Vec<String> = ASSETS
            .iter()
            .filter(|asset| {
                asset.code == lajan_domain::asset::NATIVE
                    || assets::issuer(tenant.env, asset.code, &self.config.live_asset_issuers).is_some()
            })
            .map(|asset| asset.code.to_owned())
            .collect();
        let mut held = self.ledger_balances(tenant, payable.iter()).await?;
        let in_catalogue_order = ASSETS.iter().filter_map(|asset| {
            let balance = held.remove(asset.code)?;
            Some(Balance { asset_code: asset.code, balance: balance.map(money) })
        });
        Ok(in_catalogue_order.collect())
    }
}
