// The dashboard's sums, for both backends; included after `shared.rs`.

use crate::dashboard::{AssetTotal, DashboardStore};

fn asset_total_from_row(row: &DbRow) -> StoreResult<AssetTotal> {
    Ok(AssetTotal {
        asset_code: row.try_get("asset_code")?,
        count: u64::try_from(row.try_get::<i64, _>("n")?).map_err(corrupt)?,
        cents: row.try_get("cents")?,
    })
}

#[async_trait]
impl DashboardStore for ThisStore {
    async fn payouts_awaiting_approval(&self, tenant: &Tenant) -> StoreResult<Vec<AssetTotal>> {
        let rows = query(
            "SELECT asset_code, COUNT(*) AS n, CAST(SUM(asset_amount) AS BIGINT) AS cents FROM payouts
             WHERE org_id = $1 AND env = $2 AND approval_status = 'pending' AND disbursement_id IS NULL
             GROUP BY asset_code ORDER BY asset_code",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(asset_total_from_row).collect()
    }

    async fn payouts_sent_since(&self, tenant: &Tenant, since: Timestamp) -> StoreResult<Vec<AssetTotal>> {
        // A sent payout is final: its last change is the time it was sent.
        let rows = query(
            "SELECT asset_code, COUNT(*) AS n, CAST(SUM(asset_amount) AS BIGINT) AS cents FROM payouts
             WHERE org_id = $1 AND env = $2 AND exec_status = 'sent' AND updated_at >= $3
             GROUP BY asset_code ORDER BY asset_code",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(since.as_millis())
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(asset_total_from_row).collect()
    }
}
