// Payouts waiting for their client to register a wallet, for both backends: released onto the
// queue when the client's wallet arrives, in the transaction that records it (`clients/sql.rs`
// calls this from its update), or canceled when the registration window closes; included after
// `payouts/sql.rs`, which answers `PayoutStore` with these.

/// Takes every approved payout of `client_id` waiting for its registration back to pending
/// approval, recording `withdrawn` (`payout.approval_withdrawn`) for each: who may register the
/// wallet they go to changed (a contact, the question, an unlock), and that is an approver's
/// decision. The tenant's actor is kept as the one who withdrew them (under four eyes they may
/// not approve them again). Refused (`forbidden`) when one waits and no event is given.
async fn withdraw_waiting_approvals(
    tx: &mut Tx,
    tenant: &Tenant,
    client_id: &str,
    at: Timestamp,
    withdrawn: Option<EventFor<'_, PayoutDetail>>,
) -> StoreResult<()> {
    let ids: Vec<String> = query_scalar(concat!(
        "SELECT id FROM payouts
         WHERE client_id = $1 AND org_id = $2 AND env = $3 AND exec_status = 'awaiting_registration'
           AND approval_status = 'approved' ORDER BY id",
        for_update!()
    ))
    .bind(client_id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_all(&mut **tx)
    .await?;
    if ids.is_empty() {
        return Ok(());
    }
    let Some(withdrawn) = withdrawn else {
        return Err(StoreError::Rejected(Invalid::new("forbidden", lajan_domain::payout::RELEASE_NEEDS_APPROVER)));
    };
    for id in &ids {
        query(
            "UPDATE payouts SET approval_status = 'pending', approved_by_key = NULL, approved_at = NULL,
                    approval_withdrawn_by = $1, updated_at = $2
             WHERE id = $3",
        )
        .bind(tenant.actor.id())
        .bind(at.as_millis())
        .bind(id)
        .execute(&mut **tx)
        .await?;
        let detail = read_payout(tx, Some(tenant), id).await?.ok_or(StoreError::NotFound)?;
        let mut recorded = withdrawn(&detail);
        recorded.event_type = "payout.approval_withdrawn";
        insert_event(tx, tenant, at, &recorded).await?;
    }
    Ok(())
}

/// Gives every payout of `client_id` waiting for a wallet the client's `wallet` (its address and
/// the memo it needs, if any), and moves it on:
/// an approved one to `ready_to_send` (due now; the wait so far does not count as a delay), one
/// still pending approval back to `pending` (a rejected one stays as it is). Refused (`forbidden`) when an approved one waits and
/// the caller may not approve payouts. How many moved.
async fn release_waiting_payouts(
    tx: &mut Tx,
    tenant: &Tenant,
    client_id: &str,
    wallet: ClientWallet<'_>,
    may_release_approved: bool,
    at: Timestamp,
) -> StoreResult<u64> {
    if !may_release_approved {
        let approved: Option<String> = query_scalar(
            "SELECT id FROM payouts
             WHERE client_id = $1 AND exec_status = 'awaiting_registration' AND approval_status = 'approved'
               AND org_id = $2 AND env = $3 LIMIT 1",
        )
        .bind(client_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut **tx)
        .await?;
        if approved.is_some() {
            return Err(StoreError::Rejected(Invalid::new("forbidden", lajan_domain::payout::RELEASE_NEEDS_APPROVER)));
        }
    }
    let released = query(
        "UPDATE payouts SET wallet_account_id = $1, wallet_memo_type = $6, wallet_memo = $7,
                exec_status = CASE WHEN approval_status = 'approved' THEN 'ready_to_send' ELSE 'pending' END,
                next_attempt_at = $2, unsent_since = $2, updated_at = $2
         WHERE client_id = $3 AND exec_status = 'awaiting_registration' AND approval_status <> 'rejected'
           AND org_id = $4 AND env = $5",
    )
    .bind(wallet.address)
    .bind(at.as_millis())
    .bind(client_id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(wallet.memo.map(|m| m.kind().as_str()))
    .bind(wallet.memo.map(StellarMemo::value))
    .execute(&mut **tx)
    .await?;
    mark_invitation_registered(tx, tenant, client_id, at).await?;
    Ok(released.rows_affected())
}

/// Cancels (`receiver_not_registered`, with `event`'s payload as `payout.canceled`) up to `limit`
/// approved payouts whose client has not registered a wallet within their organization's
/// `registrationWindowDays` of the approval, oldest first; answers them.
async fn cancel_unregistered_payouts(
    store: &ThisStore,
    now: Timestamp,
    limit: i64,
    event: EventFor<'_, PayoutDetail>,
) -> StoreResult<Vec<PayoutDetail>> {
    let mut tx = store.begin_write().await?;
    // The default window when an organization never saved its settings.
    let default_days = i64::from(lajan_domain::receiver::ReceiverSettings::default().registration_window_days);
    let ids: Vec<String> = query_scalar(concat!(
        "SELECT p.id FROM payouts p
         WHERE p.exec_status = 'awaiting_registration' AND p.approval_status = 'approved'
           AND p.approved_at + COALESCE((SELECT s.registration_window_days FROM settings s
                                         WHERE s.org_id = p.org_id AND s.env = p.env), $1) * 86400000 <= $2
         ORDER BY p.approved_at, p.id LIMIT $3",
        skip_locked!()
    ))
    .bind(default_days)
    .bind(now.as_millis())
    .bind(limit)
    .fetch_all(&mut *tx)
    .await?;
    for chunk in ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new(
            "UPDATE payouts SET exec_status = 'canceled', cancel_reason = 'receiver_not_registered', updated_at = ",
        );
        qb.push_bind(now.as_millis()).push(" WHERE exec_status = 'awaiting_registration' AND id IN");
        push_bind_list(&mut qb, chunk.iter().cloned());
        qb.build().execute(&mut *tx).await?;
    }
    let canceled = announce_payouts(&mut tx, &ids, "payout.canceled", event, now).await?;
    let clients: Vec<String> = canceled.iter().filter_map(|d| d.payout.client_id.clone()).collect();
    expire_idle_invitations(&mut tx, &clients, now).await?;
    store.commit(tx).await?;
    Ok(canceled)
}

/// Holds the client of the tenant's payout `id` (if it names one) against changes until the
/// transaction ends: taken before the payout's lock, so a change to the payout waits behind a
/// change to its client (a wallet registered, which moves its payouts) rather than crossing it.
async fn share_payout_client(tx: &mut Tx, tenant: &Tenant, id: &str) -> StoreResult<()> {
    query(concat!(
        "SELECT id FROM clients
         WHERE id = (SELECT client_id FROM payouts WHERE org_id = $1 AND env = $2 AND id = $3)",
        for_share!()
    ))
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(())
}
