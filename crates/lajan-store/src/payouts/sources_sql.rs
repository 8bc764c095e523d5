// Source accounts of live transactions reserved by one executor at a time, in any process, for
// both backends; included after `shared.rs`. `payouts/sql.rs` answers `PayoutStore` with these.

/// The source accounts unsettled attempts hold (their transactions may still take the next
/// sequence), whichever process made them.
async fn channels_held(store: &ThisStore) -> StoreResult<Vec<String>> {
    Ok(query_scalar(
        "SELECT channel_account FROM payout_attempts
         WHERE channel_account IS NOT NULL AND ledger_seq IS NULL AND (error_code IS NULL OR error_code = $1)",
    )
    .bind(OUTCOME_UNKNOWN)
    .fetch_all(store.reader())
    .await?)
}

/// Reserves `account` for `holder` until `until`, unless another holder's reservation runs past
/// `now`; whether `holder` has it now.
async fn reserve_source(
    store: &ThisStore,
    account: &str,
    holder: &str,
    (now, until): (Timestamp, Timestamp),
) -> StoreResult<bool> {
    let mut tx = store.begin_write().await?;
    let taken = query(
        "INSERT INTO source_reservations (account, holder, until) VALUES ($1, $2, $4)
         ON CONFLICT (account) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE source_reservations.until <= $3 OR source_reservations.holder = excluded.holder",
    )
    .bind(account)
    .bind(holder)
    .bind(now.as_millis())
    .bind(until.as_millis())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    store.commit(tx).await?;
    Ok(taken == 1)
}

/// Ends `holder`'s reservation of `account`, if it has one.
async fn release_source(store: &ThisStore, account: &str, holder: &str) -> StoreResult<()> {
    let mut tx = store.begin_write().await?;
    query("DELETE FROM source_reservations WHERE account = $1 AND holder = $2")
        .bind(account)
        .bind(holder)
        .execute(&mut *tx)
        .await?;
    store.commit(tx).await
}

/// The source accounts an executor holds a reservation of at `now`.
async fn reserved_sources(store: &ThisStore, now: Timestamp) -> StoreResult<Vec<String>> {
    Ok(query_scalar("SELECT account FROM source_reservations WHERE until > $1")
        .bind(now.as_millis())
        .fetch_all(store.reader())
        .await?)
}
