//! What the console's dashboard sums: payouts by asset waiting for approval, and paid out since
//! a time.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::{Tenant, Timestamp};

/// How many payouts of one asset, and their sum in cents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetTotal {
    pub asset_code: String,
    pub count: u64,
    pub cents: i64,
}

#[async_trait]
pub trait DashboardStore: Send + Sync {
    /// Direct payouts waiting for approval (a disbursement's wait with their batch), by asset.
    async fn payouts_awaiting_approval(&self, tenant: &Tenant) -> StoreResult<Vec<AssetTotal>>;

    /// Payouts that reached `sent` at or after `since`, by asset.
    async fn payouts_sent_since(&self, tenant: &Tenant, since: Timestamp) -> StoreResult<Vec<AssetTotal>>;
}
