// Payouts and their attempts, for both backends; included after `shared.rs`.

use crate::payouts::{ApprovalRule, Claimed, PayoutCounts, PayoutQuery, PayoutStore};
use lajan_domain::client::WalletAddress;
use lajan_domain::payout::{
    ApprovalStatus, AssetCode, Attempt, AttemptResult, ExecStatus, Hold, OUTCOME_UNKNOWN, Payout, PayoutAction,
    PayoutDetail, PayoutFilter, PayoutType, check_retry_safe, payout_transition,
};

macro_rules! payout_select {
    () => {
        concat!(payout_columns!(), " FROM payouts p LEFT JOIN clients c ON c.id = p.client_id")
    };
    // A search's candidates looked up by primary key on SQLite (see the clients list).
    (by_key) => {
        concat!(payout_columns!(), " FROM payouts p INDEXED BY sqlite_autoindex_payouts_1 LEFT JOIN clients c ON c.id = p.client_id")
    };
}

macro_rules! payout_columns {
    () => {
        concat!(
            "SELECT p.id, p.org_id, p.env, p.type, p.client_id, p.wallet_account_id, p.asset_amount, p.asset_code,
                    p.asset_issuer, p.memo, p.wallet_memo_type AS p_wallet_memo_type, p.wallet_memo AS p_wallet_memo,
                    p.disbursement_id, p.approval_status, p.exec_status, p.created_by_key, p.approval_withdrawn_by,
                    p.created_at, p.updated_at, p.attempts_before_retry, p.approved_at, p.cancel_reason,
                    p.hold_code, p.hold_message, p.held_since, c.id AS c_id, ",
            prefixed_client_columns!()
        )
    };
}

fn payout_from_row(row: &DbRow) -> StoreResult<PayoutDetail> {
    let payout = Payout {
        id: row.try_get("id")?,
        payout_type: row.try_get::<String, _>("type")?.parse().map_err(corrupt)?,
        client_id: row.try_get("client_id")?,
        wallet_account_id: wallet_of(row.try_get("wallet_account_id")?)?,
        asset_amount: row.try_get("asset_amount")?,
        asset_code: AssetCode::parse(&row.try_get::<String, _>("asset_code")?).map_err(corrupt)?,
        asset_issuer: row
            .try_get::<Option<String>, _>("asset_issuer")?
            .map(|issuer| WalletAddress::parse(&issuer))
            .transpose()
            .map_err(corrupt)?,
        memo: row.try_get("memo")?,
        wallet_memo: memo_of(row.try_get("p_wallet_memo_type")?, row.try_get("p_wallet_memo")?)?,
        disbursement_id: row.try_get("disbursement_id")?,
        approval: row.try_get::<String, _>("approval_status")?.parse().map_err(corrupt)?,
        exec: row.try_get::<String, _>("exec_status")?.parse().map_err(corrupt)?,
        created_by_key: row.try_get("created_by_key")?,
        approval_withdrawn_by: row.try_get("approval_withdrawn_by")?,
        created_at: ts(row.try_get("created_at")?),
        updated_at: ts(row.try_get("updated_at")?),
    };
    let client = row.try_get::<Option<String>, _>("c_id")?.map(|id| prefixed_client(row, id)).transpose()?;
    let tenant = Tenant::new(row.try_get::<String, _>("org_id")?, env_of(row)?);
    let attempts_before_retry = row.try_get("attempts_before_retry")?;
    let approved_at = row.try_get::<Option<i64>, _>("approved_at")?.map(ts);
    let cancel_reason = row.try_get::<Option<String>, _>("cancel_reason")?.map(|r| r.parse()).transpose();
    let cancel_reason = cancel_reason.map_err(corrupt)?;
    let hold = match (row.try_get("hold_code")?, row.try_get("held_since")?) {
        (Some(code), Some(since)) => Some(Hold { code, message: row.try_get("hold_message")?, since: ts(since) }),
        _ => None,
    };
    let attempts = Vec::new();
    Ok(PayoutDetail { tenant, payout, client, attempts, attempts_before_retry, approved_at, cancel_reason, hold })
}

fn attempt_from_row(row: &DbRow) -> StoreResult<Attempt> {
    Ok(Attempt {
        id: row.try_get("id")?,
        attempt_number: row.try_get("attempt_number")?,
        tx_hash: row.try_get("tx_hash")?,
        ledger_seq: row.try_get("ledger_seq")?,
        error_code: row.try_get("error_code")?,
        error_message: row.try_get("error_message")?,
        created_at: ts(row.try_get("created_at")?),
        submissions: row.try_get("submissions")?,
        channel_account: row.try_get("channel_account")?,
    })
}

/// The payout `id` of `tenant` (any tenant when `None`) with its attempts.
async fn read_payout(
    conn: &mut Conn,
    tenant: Option<&Tenant>,
    id: &str,
) -> StoreResult<Option<PayoutDetail>> {
    let row = query(concat!(
        payout_select!(),
        " WHERE p.id = $1 AND ($2 IS NULL OR p.org_id = $2) AND ($3 IS NULL OR p.env = $3)"
    ))
    .bind(id)
    .bind(tenant.map(|t| t.org_id.as_str()))
    .bind(tenant.map(|t| t.env.as_str()))
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let mut detail = payout_from_row(&row)?;
    let attempts = query(
        "SELECT id, attempt_number, tx_hash, ledger_seq, error_code, error_message, created_at, submissions,
                channel_account
         FROM payout_attempts WHERE payout_id = $1 ORDER BY attempt_number",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    detail.attempts = attempts.iter().map(attempt_from_row).collect::<StoreResult<_>>()?;
    Ok(Some(detail))
}

async fn lock_payout(tx: &mut Tx, tenant: &Tenant, id: &str) -> StoreResult<PayoutDetail> {
    lock_tenant_row(tx, "payouts", tenant, id).await?;
    read_payout(tx, Some(tenant), id).await?.ok_or(StoreError::NotFound)
}

#[async_trait]
impl PayoutStore for ThisStore {
    async fn create_payout(
        &self,
        tenant: &Tenant,
        p: &Payout,
        approval: ApprovalRule<'_>,
        event: EventFor<'_, PayoutDetail>,
        idempotency: Option<IdempotentResponse<'_, PayoutDetail>>,
    ) -> StoreResult<PayoutDetail> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let (approval, events) = approval(&settings_in(&mut tx, tenant).await?);
        // Read in the transaction, the client locked, so a client archived since the request was
        // checked gets no payout, a wallet set meanwhile is the one it takes (or, set after, it
        // finds this payout waiting and releases it), and the answer shows the client as stored.
        let mut p = p.clone();
        let client = match &p.client_id {
            Some(id) => {
                query(concat!("SELECT id FROM clients WHERE id = $1", for_share!())).bind(id).fetch_optional(&mut *tx).await?;
                let client = live_client(&mut tx, tenant, id).await?.ok_or_else(|| invalid_client(id))?;
                p.take_wallet_of(&client).map_err(corrupt)?;
                Some(client)
            }
            None => None,
        };
        let p = &p;
        query(
            "INSERT INTO payouts (id, org_id, env, type, client_id, wallet_account_id, asset_amount, asset_code,
                                  asset_issuer, memo, approval_status, exec_status, created_by_key, approved_by_key,
                                  next_attempt_at, created_at, updated_at, approved_at, wallet_memo_type, wallet_memo)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, $15,
                     CASE WHEN $11 = 'approved' THEN $15 END, $16, $17)",
        )
        .bind(&p.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(p.payout_type.as_str())
        .bind(&p.client_id)
        .bind(p.wallet_account_id.as_ref().map(WalletAddress::as_str))
        .bind(p.asset_amount)
        .bind(p.asset_code.as_str())
        .bind(p.asset_issuer.as_ref().map(WalletAddress::as_str))
        .bind(&p.memo)
        .bind(approval.as_str())
        .bind(p.exec.as_str())
        .bind(&p.created_by_key)
        .bind((approval == ApprovalStatus::Approved).then_some(p.created_by_key.as_str()))
        .bind(p.created_at.as_millis())
        .bind(p.wallet_memo.as_ref().map(|m| m.kind().as_str()))
        .bind(p.wallet_memo.as_ref().map(StellarMemo::value))
        .execute(&mut *tx)
        .await?;
        if approval == ApprovalStatus::Approved {
            queue_invitations(&mut tx, tenant, Approved::Payout(&p.id), p.created_at).await?;
        }
        // What was just written, as a read of it would give it back: a new payout has no attempts.
        let approved_at = (approval == ApprovalStatus::Approved).then_some(p.created_at);
        let payout = Payout { approval, updated_at: p.created_at, ..p.clone() };
        let detail = PayoutDetail {
            tenant: Tenant::new(tenant.org_id.clone(), tenant.env),
            payout,
            client,
            attempts: Vec::new(),
            attempts_before_retry: 0,
            approved_at,
            cancel_reason: None,
            hold: None,
        };
        for event_type in events {
            let mut recorded = event(&detail);
            recorded.event_type = event_type;
            insert_event(&mut tx, tenant, p.created_at, &recorded).await?;
        }
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &detail).await?;
        Ok(detail)
    }

    async fn get_payout(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PayoutDetail>> {
        let mut conn = self.reader().acquire().await?;
        read_payout(&mut conn, Some(tenant), id).await
    }

    async fn list_payouts(&self, tenant: &Tenant, q: &PayoutQuery) -> StoreResult<(Page<PayoutDetail>, PayoutCounts)> {
        list_payouts(self, tenant, q).await
    }

    async fn payout_action(
        &self,
        id: &str,
        action: PayoutAction,
        key_id: &str,
        reason: Option<&str>,
        change: crate::ChangeOf<'_, PayoutDetail>,
    ) -> StoreResult<PayoutDetail> {
        let crate::Change { tenant, at, events: event, idempotency } = change;
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        // Its client first (a payout's client never changes): the order of docs/design.md,
        // client, invitation, payouts, that a wallet registered takes too.
        share_payout_client(&mut tx, tenant, id).await?;
        let current = lock_payout(&mut tx, tenant, id).await?;
        if let Some(refused) =
            current.payout.disbursement_id.as_deref().and_then(|batch| action.refused_in_batch(batch, &current.payout))
        {
            return Err(StoreError::Rejected(refused));
        }
        let (approval, exec, event_type) =
            payout_transition(current.payout.approval, current.payout.exec, action).map_err(StoreError::Rejected)?;
        if action == PayoutAction::Retry {
            check_retry_safe(&current.attempts).map_err(StoreError::Rejected)?;
        }
        if action == PayoutAction::Approve {
            let withdrawn_by = &current.payout.approval_withdrawn_by;
            let own = if current.payout.created_by_key == key_id {
                Some("This organization requires a different API key to approve a payout than the one that created it")
            } else if withdrawn_by.as_deref() == Some(key_id) {
                Some("This organization requires someone other than who changed where a payout may go to approve it")
            } else {
                None
            };
            if let Some(why) = own
                && settings_in(&mut tx, tenant).await?.require_distinct_approver
            {
                return Err(StoreError::Rejected(lajan_domain::Invalid::new("cannot_approve", why)));
            }
        }
        query(
            "UPDATE payouts SET approval_status = $1, exec_status = $2, updated_at = $3, next_attempt_at = $3, lease_token = NULL,
                    attempts_before_retry = CASE WHEN $7 THEN (SELECT COALESCE(MAX(attempt_number), 0)
                        FROM payout_attempts WHERE payout_id = payouts.id) ELSE attempts_before_retry END,
                    unsent_since = CASE WHEN $7 THEN $3 ELSE unsent_since END,
                    delayed_at = CASE WHEN $7 THEN NULL ELSE delayed_at END,
                    approved_by_key = CASE WHEN $1 = 'approved' THEN COALESCE(approved_by_key, $4) ELSE approved_by_key END,
                    approved_at = CASE WHEN $1 = 'approved' THEN COALESCE(approved_at, $3) ELSE approved_at END,
                    reject_reason = CASE WHEN $1 = 'rejected' THEN $5 ELSE reject_reason END,
                    cancel_reason = CASE WHEN $2 = 'canceled' THEN 'requested' ELSE cancel_reason END
             WHERE id = $6",
        )
        .bind(approval.as_str())
        .bind(exec.as_str())
        .bind(at.as_millis())
        .bind(key_id)
        .bind(reason)
        .bind(id)
        .bind(action == PayoutAction::Retry)
        .execute(&mut *tx)
        .await?;
        match (action, &current.payout.client_id) {
            (PayoutAction::Approve, _) => queue_invitations(&mut tx, tenant, Approved::Payout(id), at).await?,
            (PayoutAction::Cancel, Some(client)) => expire_idle_invitations(&mut tx, std::slice::from_ref(client), at).await?,
            _ => {}
        }
        let detail = read_payout(&mut tx, Some(tenant), id).await?.ok_or(StoreError::NotFound)?;
        let mut recorded = event(&detail);
        recorded.event_type = event_type;
        insert_event(&mut tx, tenant, at, &recorded).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &detail).await?;
        Ok(detail)
    }

    async fn claim_payouts(&self, now: Timestamp, lease_ms: i64, limit: i64, env: Environment) -> StoreResult<Claimed> {
        let mut tx = self.begin_write().await?;
        // Direct payouts and disbursement payouts are claimed side by side, so a batch of
        // thousands never makes a direct payout approved after it wait for the whole batch:
        // each kind gets half the step when the other has work, and any room the other leaves.
        let due = |kind: PayoutType, n: i64| {
            query_scalar(concat!(
                "SELECT id FROM payouts
                 WHERE approval_status = 'approved' AND exec_status IN ('pending', 'ready_to_send') AND type = $1
                   AND env = $2 AND next_attempt_at <= $3
                 ORDER BY next_attempt_at, id LIMIT $4",
                skip_locked!()
            ))
            .bind(kind.as_str())
            .bind(env.as_str())
            .bind(now.as_millis())
            .bind(n)
        };
        let direct = due(PayoutType::Direct, limit).fetch_all(&mut *tx).await?;
        let half = limit / 2;
        let batch_room = limit - i64::try_from(direct.len()).unwrap_or(limit).min(half);
        let batch = if batch_room > 0 { due(PayoutType::Disbursement, batch_room).fetch_all(&mut *tx).await? } else { Vec::new() };
        let direct_room = usize::try_from(limit).unwrap_or(0).saturating_sub(batch.len());
        let ids: Vec<String> = direct.into_iter().take(direct_room).chain(batch).collect();
        let lease = lajan_domain::id::IdKind::Lease.generate();
        for chunk in ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new("UPDATE payouts SET exec_status = 'ready_to_send', next_attempt_at = ");
            qb.push_bind(now.as_millis() + lease_ms).push(", updated_at = ").push_bind(now.as_millis());
            qb.push(", lease_token = ").push_bind(lease.clone());
            qb.push(" WHERE id IN");
            push_bind_list(&mut qb, chunk.iter().cloned());
            qb.build().execute(&mut *tx).await?;
        }
        let payouts = read_payouts(&mut tx, &ids).await?;
        tx.commit().await?;
        Ok(Claimed { lease, payouts })
    }

    async fn held_payout(&self, tenant: &Tenant, payout_id: &str, lease: &str) -> StoreResult<Option<PayoutDetail>> {
        let mut tx = self.begin_write().await?;
        let held = if lock_held(&mut tx, payout_id, lease).await? {
            read_payout(&mut tx, Some(tenant), payout_id).await?
        } else {
            None
        };
        self.commit(tx).await?;
        Ok(held)
    }

    async fn renew_lease(&self, lease: &str, until: Timestamp) -> StoreResult<u64> {
        let mut tx = self.begin_write().await?;
        let renewed = query(
            "UPDATE payouts SET next_attempt_at = $1 WHERE lease_token = $2 AND exec_status = 'ready_to_send'
               AND next_attempt_at < $1",
        )
        .bind(until.as_millis())
        .bind(lease)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        self.commit(tx).await?;
        Ok(renewed)
    }

    async fn start_attempt(
        &self,
        payout_id: &str,
        lease: &str,
        attempt: crate::payouts::NewAttempt<'_>,
        at: Timestamp,
    ) -> StoreResult<Option<Attempt>> {
        let crate::payouts::NewAttempt { tx_hash, envelope, channel_account } = attempt;
        let mut tx = self.begin_write().await?;
        if !lock_held(&mut tx, payout_id, lease).await? {
            return Ok(None);
        }
        let number: i64 =
            query_scalar("SELECT COALESCE(MAX(attempt_number), 0) + 1 FROM payout_attempts WHERE payout_id = $1")
                .bind(payout_id)
                .fetch_one(&mut *tx)
                .await?;
        let attempt = Attempt {
            id: lajan_domain::id::IdKind::Attempt.generate(),
            attempt_number: number,
            tx_hash: tx_hash.to_owned(),
            ledger_seq: None,
            error_code: None,
            error_message: None,
            created_at: at,
            submissions: 1,
            channel_account: channel_account.map(str::to_owned),
        };
        query(
            "INSERT INTO payout_attempts (id, payout_id, attempt_number, tx_hash, envelope, created_at, channel_account)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&attempt.id)
        .bind(payout_id)
        .bind(number)
        .bind(tx_hash)
        .bind(envelope)
        .bind(at.as_millis())
        .bind(channel_account)
        .execute(&mut *tx)
        .await?;
        // A transaction is built (or the payout failed): nothing holds it back any more.
        query("UPDATE payouts SET hold_code = NULL, hold_message = NULL, held_since = NULL WHERE id = $1 AND held_since IS NOT NULL")
            .bind(payout_id)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await?;
        Ok(Some(attempt))
    }

    async fn resend_attempt(&self, payout_id: &str, lease: &str, attempt_id: &str) -> StoreResult<Option<Attempt>> {
        let mut tx = self.begin_write().await?;
        if !lock_held(&mut tx, payout_id, lease).await? {
            return Ok(None);
        }
        let row = query(
            "UPDATE payout_attempts SET submissions = submissions + 1, error_code = NULL, error_message = NULL,
                    finished_at = NULL
             WHERE id = $1 AND payout_id = $2 AND ledger_seq IS NULL
             RETURNING id, attempt_number, tx_hash, ledger_seq, error_code, error_message, created_at, submissions,
                       channel_account",
        )
        .bind(attempt_id)
        .bind(payout_id)
        .fetch_optional(&mut *tx)
        .await?;
        let attempt = row.as_ref().map(attempt_from_row).transpose()?;
        self.commit(tx).await?;
        Ok(attempt)
    }

    async fn attempt_envelope(&self, attempt_id: &str) -> StoreResult<String> {
        query_scalar("SELECT envelope FROM payout_attempts WHERE id = $1")
            .bind(attempt_id)
            .fetch_optional(self.reader())
            .await?
            .ok_or(StoreError::NotFound)
    }

    async fn finish_attempt(
        &self,
        payout_id: &str,
        attempt_id: &str,
        lease: &str,
        result: &AttemptResult,
        change: crate::Change<'_, EventFor<'_, PayoutDetail>>,
    ) -> StoreResult<PayoutDetail> {
        let crate::Change { tenant, at, events: event, .. } = change;
        let mut tx = self.begin_write().await?;
        let current = lock_payout(&mut tx, tenant, payout_id).await?;
        let holder: Option<String> = query_scalar("SELECT lease_token FROM payouts WHERE id = $1")
            .bind(payout_id)
            .fetch_one(&mut *tx)
            .await?;
        let holds = current.payout.exec == ExecStatus::ReadyToSend && holder.as_deref() == Some(lease);
        let settlement = result.settlement(at);
        let (code, message) = result.error().unzip();
        // The holder's answer is the attempt's latest word. A late executor's is a fact only
        // when it says something: an applied transaction, or a settled outcome for an attempt
        // still unsettled. "Unknown" from it says nothing and never hides a settled outcome.
        let applied = result.ledger_seq().is_some();
        let unknown = !applied && code == Some(OUTCOME_UNKNOWN);
        query(
            "UPDATE payout_attempts SET ledger_seq = $1, error_code = $2, error_message = $3, finished_at = $4
             WHERE id = $5 AND payout_id = $6 AND ledger_seq IS NULL
               AND ($7 OR ($8 AND (error_code IS NULL OR error_code = $9)))",
        )
        .bind(result.ledger_seq())
        .bind(code)
        .bind(message)
        .bind(at.as_millis())
        .bind(attempt_id)
        .bind(payout_id)
        .bind(holds || applied)
        .bind(!unknown)
        .bind(OUTCOME_UNKNOWN)
        .execute(&mut *tx)
        .await?;
        // An applied transaction is a fact whoever reports it: a payout marked failed, or held
        // by another executor, whose transaction turns out to have landed was paid, and says so.
        let paid_after_all = !holds && current.payout.exec != ExecStatus::Sent && result.ledger_seq().is_some();
        if paid_after_all {
            tracing::warn!(
                payout = payout_id,
                attempt = attempt_id,
                status = current.payout.exec.as_str(),
                "a transaction of this payout was applied after it was given up or leased again: now sent"
            );
        }
        let settles = holds || paid_after_all;
        if settles {
            query(
                "UPDATE payouts SET exec_status = $1, next_attempt_at = $2, updated_at = $3, lease_token = NULL
                 WHERE id = $4",
            )
            .bind(settlement.exec.as_str())
            .bind(settlement.next_attempt_at.as_millis())
            .bind(at.as_millis())
            .bind(payout_id)
            .execute(&mut *tx)
            .await?;
        }
        let detail = read_payout(&mut tx, Some(tenant), payout_id).await?.ok_or(StoreError::NotFound)?;
        if let Some(event_type) = settlement.event.filter(|_| settles) {
            let mut recorded = event(&detail);
            recorded.event_type = event_type;
            insert_event(&mut tx, tenant, at, &recorded).await?;
        }
        self.commit(tx).await?;
        Ok(detail)
    }

    async fn hold_payout(&self, payout_id: &str, lease: &str, retry_at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query(
            "UPDATE payouts SET next_attempt_at = $1, lease_token = NULL
             WHERE id = $2 AND lease_token = $3 AND exec_status = 'ready_to_send'",
        )
        .bind(retry_at.as_millis())
        .bind(payout_id)
        .bind(lease)
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await
    }

    async fn hold_unreachable_payout(
        &self,
        tenant: &Tenant,
        payout_id: &str,
        lease: &str,
        hold: &Hold,
        recheck_at: Timestamp,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Option<PayoutDetail>> {
        hold_unreachable_payout(self, tenant, payout_id, lease, hold, recheck_at, event).await
    }

    async fn wake_held_payouts(&self, env: Environment, now: Timestamp) -> StoreResult<u64> {
        wake_held_payouts(self, env, now).await
    }

    async fn alert_delayed_payouts(
        &self,
        unsent_before: Timestamp,
        now: Timestamp,
        limit: i64,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Vec<PayoutDetail>> {
        alert_delayed_payouts(self, unsent_before, now, limit, event).await
    }

    async fn cancel_unregistered_payouts(
        &self,
        now: Timestamp,
        limit: i64,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Vec<PayoutDetail>> {
        cancel_unregistered_payouts(self, now, limit, event).await
    }

    async fn channels_held(&self) -> StoreResult<Vec<String>> {
        channels_held(self).await
    }

    async fn reserve_source(&self, account: &str, holder: &str, now: Timestamp, until: Timestamp) -> StoreResult<bool> {
        reserve_source(self, account, holder, (now, until)).await
    }

    async fn release_source(&self, account: &str, holder: &str) -> StoreResult<()> {
        release_source(self, account, holder).await
    }

    async fn reserved_sources(&self, now: Timestamp) -> StoreResult<Vec<String>> {
        reserved_sources(self, now).await
    }

    async fn start_first_attempts(
        &self,
        lease: &str,
        first: &[FirstAttempt],
        at: Timestamp,
    ) -> StoreResult<Vec<(String, Attempt)>> {
        self.start_first_attempts_in_one(lease, first, at).await
    }

    async fn finish_attempts(
        &self,
        lease: &str,
        outcomes: &[Outcome],
        at: Timestamp,
        event: EventFor<'_, PayoutDetail>,
    ) -> StoreResult<Vec<String>> {
        self.finish_attempts_in_one(lease, outcomes, at, event).await
    }
}

/// Locks the payout for the executor holding `lease`: false once another claim took it, or it
/// settled or was held back.
async fn lock_held(tx: &mut Tx, payout_id: &str, lease: &str) -> StoreResult<bool> {
    let held = query(concat!(
        "SELECT id FROM payouts WHERE id = $1 AND lease_token = $2 AND exec_status = 'ready_to_send'",
        for_update!()
    ))
    .bind(payout_id)
    .bind(lease)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(held.is_some())
}
