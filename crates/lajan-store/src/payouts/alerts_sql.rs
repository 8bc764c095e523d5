// Payouts waiting longer than they should, for both backends: the held ones a network that
// answers again makes due at once, those held because their destination cannot take them
// (`payout.held`), and the late ones that raise `payout.delayed`; included after
// `payouts/batches_sql.rs`. `payouts/sql.rs` answers `PayoutStore` with these.

/// Holds a payout `lease` holds until `recheck_at` with `hold`'s reason, keeping the time it
/// was first held; the first hold records `payout.held` in the same transaction. `None` once
/// the lease was lost.
async fn hold_unreachable_payout(
    store: &ThisStore,
    tenant: &Tenant,
    payout_id: &str,
    lease: &str,
    hold: &Hold,
    recheck_at: Timestamp,
    event: EventFor<'_, PayoutDetail>,
) -> StoreResult<Option<PayoutDetail>> {
    let mut tx = store.begin_write().await?;
    if !lock_held(&mut tx, payout_id, lease).await? {
        return Ok(None);
    }
    let first: Option<i64> = query_scalar("SELECT held_since FROM payouts WHERE id = $1")
        .bind(payout_id)
        .fetch_one(&mut *tx)
        .await?;
    query(
        "UPDATE payouts SET hold_code = $1, hold_message = $2, held_since = COALESCE(held_since, $3),
                next_attempt_at = $4, lease_token = NULL
         WHERE id = $5",
    )
    .bind(&hold.code)
    .bind(&hold.message)
    .bind(hold.since.as_millis())
    .bind(recheck_at.as_millis())
    .bind(payout_id)
    .execute(&mut *tx)
    .await?;
    let detail = read_payout(&mut tx, Some(tenant), payout_id).await?.ok_or(StoreError::NotFound)?;
    if first.is_none() {
        insert_event(&mut tx, tenant, hold.since, &event(&detail)).await?;
    }
    store.commit(tx).await?;
    Ok(Some(detail))
}

/// Makes every payout of `env` held for later (no executor holds it) due at `now`; how many.
async fn wake_held_payouts(store: &ThisStore, env: Environment, now: Timestamp) -> StoreResult<u64> {
    let mut tx = store.begin_write().await?;
    let woken = query(
        "UPDATE payouts SET next_attempt_at = $1
         WHERE approval_status = 'approved' AND exec_status = 'ready_to_send' AND env = $2
           AND next_attempt_at > $1 AND lease_token IS NULL",
    )
    .bind(now.as_millis())
    .bind(env.as_str())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    store.commit(tx).await?;
    Ok(woken)
}

/// Marks up to `limit` approved payouts unsent since before `unsent_before` (their approval, or
/// their last manual retry) and not yet alerted as delayed, each with its `payout.delayed`
/// event, in one transaction; answers them.
async fn alert_delayed_payouts(
    store: &ThisStore,
    unsent_before: Timestamp,
    now: Timestamp,
    limit: i64,
    event: EventFor<'_, PayoutDetail>,
) -> StoreResult<Vec<PayoutDetail>> {
    let mut tx = store.begin_write().await?;
    let ids: Vec<String> = query_scalar(concat!(
        "SELECT id FROM payouts
         WHERE approval_status = 'approved' AND exec_status IN ('pending', 'ready_to_send') AND delayed_at IS NULL
           AND COALESCE(unsent_since, approved_at) < $1
         ORDER BY COALESCE(unsent_since, approved_at), id LIMIT $2",
        skip_locked!()
    ))
    .bind(unsent_before.as_millis())
    .bind(limit)
    .fetch_all(&mut *tx)
    .await?;
    if ids.is_empty() {
        store.commit(tx).await?;
        return Ok(Vec::new());
    }
    for chunk in ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new("UPDATE payouts SET delayed_at = ");
        qb.push_bind(now.as_millis()).push(" WHERE id IN");
        push_bind_list(&mut qb, chunk.iter().cloned());
        qb.build().execute(&mut *tx).await?;
    }
    let delayed = announce_payouts(&mut tx, &ids, "payout.delayed", event, now).await?;
    store.commit(tx).await?;
    Ok(delayed)
}

/// The payouts `ids` as the transaction now sees them, each announced by an `event_type` event
/// (with `event`'s payload) at `at`: what a job that moved them in bulk records.
async fn announce_payouts(
    tx: &mut Tx,
    ids: &[String],
    event_type: &'static str,
    event: EventFor<'_, PayoutDetail>,
    at: Timestamp,
) -> StoreResult<Vec<PayoutDetail>> {
    let payouts = read_payouts(tx, ids).await?;
    for d in &payouts {
        let mut recorded = event(d);
        recorded.event_type = event_type;
        insert_event(tx, &d.tenant, at, &recorded).await?;
    }
    Ok(payouts)
}

/// Alerted payouts still unsent, by environment: what `/metrics` shows.
async fn delayed_payouts(store: &ThisStore) -> StoreResult<Vec<(Environment, i64)>> {
    query(
        "SELECT env, COUNT(*) AS n FROM payouts
         WHERE delayed_at IS NOT NULL AND exec_status IN ('pending', 'ready_to_send') GROUP BY env ORDER BY env",
    )
    .fetch_all(store.reader())
    .await?
    .iter()
    .map(|row| Ok((env_of(row)?, row.try_get("n")?)))
    .collect()
}
