// Idempotency keys, rate-limit windows and their upkeep, for both backends: the claim every
// change makes inside its own transaction (`begin_keyed`, `commit_keyed`), and the
// `IdempotencyStore` methods for requests without a change. Included after `shared.rs`. See
// docs/design.md, Idempotency.

use crate::{IdempotencyClaim, IdempotencyState, IdempotencyStore};

/// Claims an `Idempotency-Key` as the first write of the transaction that makes the request's
/// change. A key holding a committed, unexpired response means this request must change nothing
/// (`IdempotencyKeyTaken`: the caller replays what the key holds). On PostgreSQL a concurrent
/// claimer of the same key waits here, on the key's unique index, until the first transaction
/// commits or rolls back; on SQLite the single writer has already put them in line. Nothing is
/// claimed outside a change's transaction, so a request that dies leaves the key free.
async fn claim_idempotency_in(tx: &mut Tx, tenant: &Tenant, claim: &IdempotencyClaim) -> StoreResult<()> {
    if !take_idempotency_key(&mut **tx, tenant, claim, None).await? {
        return Err(StoreError::IdempotencyKeyTaken);
    }
    Ok(())
}

/// Writes `claim`'s row, with `answer` (status, body) or without one yet, unless the key already
/// holds an unexpired row; says whether it wrote. The one statement both ways of taking a key
/// share: inside a change's transaction, or on its own for an answer that changed nothing.
async fn take_idempotency_key<'e, E: Exec<'e>>(
    ex: E,
    tenant: &Tenant,
    claim: &IdempotencyClaim,
    answer: Option<(u16, &[u8])>,
) -> StoreResult<bool> {
    let taken = query(
        "INSERT INTO idempotency_keys (org_id, env, key, request_hash, status_code, response_body, created_at,
                                       expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (org_id, env, key) DO UPDATE SET
            request_hash = excluded.request_hash, status_code = excluded.status_code,
            response_body = excluded.response_body, created_at = excluded.created_at,
            expires_at = excluded.expires_at
         WHERE idempotency_keys.expires_at <= $7",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(&claim.key)
    .bind(&claim.request_hash)
    .bind(answer.map(|(status, _)| i64::from(status)))
    .bind(answer.map(|(_, body)| body))
    .bind(claim.at.as_millis())
    .bind(claim.at.as_millis() + claim.ttl_ms)
    .execute(ex)
    .await?
    .rows_affected();
    Ok(taken > 0)
}

/// Stores the response under a key this transaction claimed, just before it commits.
async fn respond_idempotency_in(
    tx: &mut Tx,
    tenant: &Tenant,
    claim: &IdempotencyClaim,
    status: u16,
    body: &[u8],
) -> StoreResult<()> {
    query(
        "UPDATE idempotency_keys SET status_code = $1, response_body = $2
         WHERE org_id = $3 AND env = $4 AND key = $5",
    )
    .bind(i64::from(status))
    .bind(body)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(&claim.key)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl ThisStore {
    /// Begins the write transaction of a change, first claiming the request's
    /// `Idempotency-Key` when it has one (see [`claim_idempotency_in`]).
    async fn begin_keyed<T>(
        &self,
        tenant: &Tenant,
        idempotency: Option<&IdempotentResponse<'_, T>>,
    ) -> StoreResult<Tx> {
        let mut tx = self.begin_write().await?;
        if let Some(idem) = idempotency {
            claim_idempotency_in(&mut tx, tenant, idem.claim).await?;
        }
        Ok(tx)
    }

    /// Records the response rendered from `result` under the claimed key, then commits: a retry
    /// after this commit replays the response, a retry after a crash before it runs afresh.
    async fn commit_keyed<T>(
        &self,
        mut tx: Tx,
        tenant: &Tenant,
        idempotency: Option<&IdempotentResponse<'_, T>>,
        result: &T,
    ) -> StoreResult<()> {
        if let Some(idem) = idempotency {
            respond_idempotency_in(&mut tx, tenant, idem.claim, idem.status, &(idem.body)(result)).await?;
        }
        self.commit(tx).await
    }
}

#[async_trait]
impl IdempotencyStore for ThisStore {
    async fn idempotency_lookup(
        &self,
        tenant: &Tenant,
        key: &str,
        request_hash: &str,
        now: Timestamp,
    ) -> StoreResult<IdempotencyState> {
        let row = query(
            "SELECT request_hash, status_code, response_body FROM idempotency_keys
             WHERE org_id = $1 AND env = $2 AND key = $3 AND expires_at > $4",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(key)
        .bind(now.as_millis())
        .fetch_optional(self.reader())
        .await?;
        let Some(row) = row else { return Ok(IdempotencyState::Free) };
        if row.try_get::<String, _>("request_hash")? != request_hash {
            return Ok(IdempotencyState::Mismatch);
        }
        // A key is claimed only by the transaction that fills it, so every committed row has one.
        let status: i64 = row.try_get("status_code")?;
        let body: Option<Vec<u8>> = row.try_get("response_body")?;
        Ok(IdempotencyState::Replay { status: u16::try_from(status).map_err(corrupt)?, body: body.unwrap_or_default() })
    }

    async fn idempotency_record(
        &self,
        tenant: &Tenant,
        claim: &IdempotencyClaim,
        status: u16,
        body: &[u8],
    ) -> StoreResult<bool> {
        let mut conn = self.begin_single().await?;
        let taken = take_idempotency_key(&mut *conn, tenant, claim, Some((status, body))).await?;
        self.end_single(conn).await?;
        Ok(taken)
    }

    async fn rate_limit_hit(&self, bucket: &str, window_start: i64, expires_at: i64, hits: u64) -> StoreResult<u64> {
        let hits = i64::try_from(hits.max(1)).map_err(|_| corrupt("rate-limit hits out of range"))?;
        // One statement, committed on its own: the row lock lasts no longer than the upsert.
        let mut conn = self.begin_counters().await?;
        let total: i64 = query_scalar(
            "INSERT INTO rate_limit_windows (bucket, window_start, hits, expires_at) VALUES ($1, $2, $4, $3)
             ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + $4
             RETURNING hits",
        )
        .bind(bucket)
        .bind(window_start)
        .bind(expires_at)
        .bind(hits)
        .fetch_one(&mut *conn)
        .await?;
        self.end_single(conn).await?;
        Ok(count_of(total))
    }

    async fn purge_expired(&self, now: Timestamp) -> StoreResult<u64> {
        let mut tx = self.begin_write().await?;
        let keys = query("DELETE FROM idempotency_keys WHERE expires_at <= $1")
            .bind(now.as_millis())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let windows = query("DELETE FROM rate_limit_windows WHERE expires_at <= $1")
            .bind(now.as_millis())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        // By age through `sign_ins_by_at`, a bounded batch each run.
        let sign_ins = query(
            "DELETE FROM sign_ins WHERE id IN (SELECT id FROM sign_ins WHERE at < $1 ORDER BY at LIMIT 10000)",
        )
        .bind(now.as_millis() - lajan_domain::console::SIGN_IN_RETENTION_MS)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(keys + windows + sign_ins)
    }

    async fn compact_counts(&self) -> StoreResult<u64> {
        self.compact_count_deltas().await
    }
}
