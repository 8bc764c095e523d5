// The operator's view of the queues, for both backends; included after `shared.rs`.

use crate::operations::{Backlog, OperationsStore, PayoutStateCount};

#[async_trait]
impl OperationsStore for ThisStore {
    async fn backlog(&self) -> StoreResult<Backlog> {
        // Kept per tenant, type and state by triggers (migration 0006): no scan of payouts.
        let payouts = query(
            "SELECT env, approval_status, exec_status, CAST(SUM(n) AS BIGINT) AS n FROM payout_counts
             GROUP BY env, approval_status, exec_status ORDER BY env, approval_status, exec_status",
        )
        .fetch_all(self.reader())
        .await?
        .iter()
        .map(|row| {
            Ok(PayoutStateCount {
                env: env_of(row)?,
                approval_status: row.try_get("approval_status")?,
                exec_status: row.try_get("exec_status")?,
                count: row.try_get("n")?,
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
        let queue = |sql: &'static str| async move {
            let row = query(sql).fetch_one(self.reader()).await?;
            let oldest: Option<i64> = row.try_get("oldest")?;
            StoreResult::Ok((row.try_get::<i64, _>("n")?, oldest.map(ts)))
        };
        let (deliveries_pending, oldest_pending_delivery) = queue(
            "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
        )
        .await?;
        let (messages_queued, oldest_queued_message) =
            queue("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM messages WHERE status = 'queued'").await?;
        let payouts_delayed = delayed_payouts(self).await?;
        Ok(Backlog {
            payouts,
            payouts_delayed,
            deliveries_pending,
            oldest_pending_delivery,
            messages_queued,
            oldest_queued_message,
        })
    }

    fn pool_use(&self) -> Vec<PoolUse> {
        self.pools_in_use()
    }
}
