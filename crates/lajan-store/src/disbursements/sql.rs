// Disbursements and the payouts they become, for both backends; included after
// `disbursements/items_sql.rs` (their rows in bulk) and `sandbox/sql.rs` (the sandbox balance).

use crate::disbursements::{DisbursementChange, DisbursementEvents, DisbursementQuery, DisbursementStore, Funds, SubmissionRule};
use lajan_domain::disbursement::{
    Disbursement, DisbursementAction, DisbursementStatus, ItemCounts, check_action, check_distinct_approver, roll_up,
};
use lajan_domain::money::format_scaled;
use lajan_domain::FieldError;
use std::collections::HashSet;

macro_rules! disbursement_columns {
    () => {
        "id, org_id, env, name, asset_code, asset_issuer, status, source, item_count, total_amount, created_by_key,
         submitted_by_key, approved_by_key, reject_reason, created_at, updated_at, submitted_at, approved_at"
    };
}

/// A disbursement without its counts (see `attach_counts`).
fn disbursement_from_row(row: &DbRow) -> StoreResult<Disbursement> {
    Ok(Disbursement {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        asset_code: AssetCode::parse(&row.try_get::<String, _>("asset_code")?).map_err(corrupt)?,
        asset_issuer: row
            .try_get::<Option<String>, _>("asset_issuer")?
            .map(|issuer| WalletAddress::parse(&issuer))
            .transpose()
            .map_err(corrupt)?,
        status: row.try_get::<String, _>("status")?.parse().map_err(corrupt)?,
        source: row.try_get::<String, _>("source")?.parse().map_err(corrupt)?,
        item_count: count_of(row.try_get("item_count")?),
        total_amount: row.try_get("total_amount")?,
        amount_sent: 0,
        counts: ItemCounts::default(),
        created_by_key: row.try_get("created_by_key")?,
        submitted_by_key: row.try_get("submitted_by_key")?,
        approved_by_key: row.try_get("approved_by_key")?,
        reject_reason: row.try_get("reject_reason")?,
        created_at: ts(row.try_get("created_at")?),
        updated_at: ts(row.try_get("updated_at")?),
        submitted_at: opt_ts(row.try_get("submitted_at")?),
        approved_at: opt_ts(row.try_get("approved_at")?),
    })
}

/// Fills in each disbursement's item counts and amount sent from the counts the triggers keep.
async fn attach_counts(conn: &mut Conn, list: &mut [Disbursement]) -> StoreResult<()> {
    if list.is_empty() {
        return Ok(());
    }
    let mut qb = QueryBuilder::new(
        "SELECT disbursement_id, approval_status, exec_status, CAST(SUM(n) AS BIGINT) AS n,
                CAST(SUM(amount) AS BIGINT) AS amount
         FROM disbursement_counts WHERE disbursement_id IN",
    );
    push_bind_list(&mut qb, list.iter().map(|d| d.id.clone()));
    qb.push(" GROUP BY disbursement_id, approval_status, exec_status");
    let rows = qb.build().fetch_all(&mut *conn).await?;
    let mut by_id: HashMap<String, Vec<(ItemStatus, u64)>> = HashMap::new();
    let mut sent: HashMap<String, i64> = HashMap::new();
    for row in &rows {
        let id: String = row.try_get("disbursement_id")?;
        let approval: ApprovalStatus = row.try_get::<String, _>("approval_status")?.parse().map_err(corrupt)?;
        let exec: ExecStatus = row.try_get::<String, _>("exec_status")?.parse().map_err(corrupt)?;
        let status = ItemStatus::of(approval, exec);
        if status == ItemStatus::Sent {
            *sent.entry(id.clone()).or_default() += row.try_get::<i64, _>("amount")?;
        }
        by_id.entry(id).or_default().push((status, count_of(row.try_get("n")?)));
    }
    for d in list.iter_mut() {
        d.counts = ItemCounts::of(d.item_count, by_id.remove(&d.id).unwrap_or_default());
        d.amount_sent = sent.get(&d.id).copied().unwrap_or(0);
    }
    Ok(())
}

async fn read_disbursement(
    conn: &mut Conn,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<Disbursement>> {
    let row = query(concat!(
        "SELECT ",
        disbursement_columns!(),
        " FROM disbursements WHERE org_id = $1 AND env = $2 AND id = $3"
    ))
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let mut list = [disbursement_from_row(&row)?];
    attach_counts(conn, &mut list).await?;
    let [d] = list;
    Ok(Some(d))
}

/// The disbursement, locked for a change, if `action` may be done to it now.
async fn lock_disbursement(
    tx: &mut Tx,
    tenant: &Tenant,
    id: &str,
    action: DisbursementAction,
) -> StoreResult<Disbursement> {
    lock_tenant_row(tx, "disbursements", tenant, id).await?;
    let d = read_disbursement(tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
    check_action(&d, action).map_err(StoreError::Rejected)?;
    Ok(d)
}

/// Records a disbursement event with the disbursement as it is now in the transaction.
async fn record_disbursement_event(
    tx: &mut Tx,
    tenant: &Tenant,
    id: &str,
    event_type: &'static str,
    at: Timestamp,
    event: EventFor<'_, Disbursement>,
) -> StoreResult<Disbursement> {
    let d = read_disbursement(tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
    let mut recorded = event(&d);
    recorded.event_type = event_type;
    insert_event(tx, tenant, at, &recorded).await?;
    Ok(d)
}

/// Refuses an approval the ledger balance cannot cover: the batch plus every approved payout
/// of the asset not yet settled. Approvals of one asset go one at a time (the `funds_checks`
/// row), so two never count on the same balance.
async fn check_funds(tx: &mut Tx, tenant: &Tenant, d: &Disbursement, funds: Funds, at: Timestamp) -> StoreResult<()> {
    query(
        "INSERT INTO funds_checks (org_id, env, asset_code, checked_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (org_id, env, asset_code) DO UPDATE SET checked_at = excluded.checked_at",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(d.asset_code.as_str())
    .bind(at.as_millis())
    .execute(&mut **tx)
    .await?;
    let of_asset = |sql: &'static str| {
        query_scalar(sql)
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(d.asset_code.as_str())
            .bind(d.asset_issuer.as_ref().map(WalletAddress::as_str))
    };
    let (balance, sent_since) = match funds {
        Funds::SandboxAccount => (lock_sandbox_balance(tx, tenant, d.asset_code.as_str()).await?, 0),
        Funds::Observed { balance, at } => {
            // `env = 'live'` and `exec_status = 'sent'` as literals, so that both planners use
            // the partial index payouts_sent_live.
            let sent = of_asset(
                "SELECT CAST(COALESCE(SUM(asset_amount), 0) AS BIGINT) FROM payouts
                 WHERE org_id = $1 AND env = 'live' AND env = $2 AND exec_status = 'sent' AND updated_at >= $5
                   AND approval_status = 'approved' AND asset_code = $3 AND COALESCE(asset_issuer, '') = COALESCE($4, '')",
            )
            .bind(at.as_millis())
            .fetch_one(&mut **tx)
            .await?;
            (balance.unwrap_or(0), sent)
        }
    };
    let unsettled: i64 = of_asset(
        "SELECT CAST(COALESCE(SUM(asset_amount), 0) AS BIGINT) FROM payouts
         WHERE org_id = $1 AND env = $2 AND approval_status = 'approved' AND exec_status IN ('pending', 'ready_to_send')
           AND asset_code = $3 AND COALESCE(asset_issuer, '') = COALESCE($4, '')",
    )
    .fetch_one(&mut **tx)
    .await?;
    let committed = unsettled.saturating_add(sent_since);
    let needed = committed.saturating_add(d.total_amount);
    if balance >= needed {
        return Ok(());
    }
    let code = d.asset_code.as_str();
    let amount = |cents: i64| format_scaled(cents, 2);
    let shortfall = needed - balance;
    let mut invalid = Invalid::new(
        "insufficient_balance",
        format!(
            "The balance of {code} ({} {code}) does not cover this disbursement ({} {code}) and the approved payouts \
             not yet sent ({} {code}): {} {code} more is needed",
            amount(balance),
            amount(d.total_amount),
            amount(committed),
            amount(shortfall),
        ),
    );
    invalid.details = vec![
        FieldError::new("balance", amount(balance)),
        FieldError::new("committed", amount(committed)),
        FieldError::new("totalAmount", amount(d.total_amount)),
        FieldError::new("shortfall", amount(shortfall)),
    ];
    Err(StoreError::Rejected(invalid))
}

/// Approves disbursement `d` (locked, pending approval, funds checked) and its payouts.
async fn approve_locked(
    tx: &mut Tx,
    tenant: &Tenant,
    d: &Disbursement,
    key_id: &str,
    at: Timestamp,
    events: &DisbursementEvents<'_>,
) -> StoreResult<Disbursement> {
    query(
        "UPDATE payouts SET approval_status = 'approved', approved_by_key = $1, updated_at = $2, next_attempt_at = $2,
                approved_at = $2
         WHERE disbursement_id = $3 AND approval_status = 'pending'",
    )
    .bind(key_id)
    .bind(at.as_millis())
    .bind(&d.id)
    .execute(&mut **tx)
    .await?;
    query(
        "UPDATE disbursements SET status = 'approved', approved_by_key = $1, approved_at = $2, updated_at = $2
         WHERE id = $3",
    )
    .bind(key_id)
    .bind(at.as_millis())
    .bind(&d.id)
    .execute(&mut **tx)
    .await?;
    queue_invitations(tx, tenant, Approved::Disbursement(&d.id), at).await?;
    record_payout_events(tx, tenant, &d.id, None, "payout.approved", at, events.payout).await?;
    record_disbursement_event(tx, tenant, &d.id, "disbursement.approved", at, events.disbursement).await
}

/// Moves payouts of the disbursement pending approval to `rejected`, with their events.
async fn reject_locked(
    tx: &mut Tx,
    tenant: &Tenant,
    d: &Disbursement,
    reason: Option<&str>,
    at: Timestamp,
    events: &DisbursementEvents<'_>,
) -> StoreResult<Disbursement> {
    query(
        "UPDATE payouts SET approval_status = 'rejected', reject_reason = $1, updated_at = $2
         WHERE disbursement_id = $3 AND approval_status = 'pending'",
    )
    .bind(reason)
    .bind(at.as_millis())
    .bind(&d.id)
    .execute(&mut **tx)
    .await?;
    query("UPDATE disbursements SET status = 'rejected', reject_reason = $1, updated_at = $2 WHERE id = $3")
        .bind(reason)
        .bind(at.as_millis())
        .bind(&d.id)
        .execute(&mut **tx)
        .await?;
    record_payout_events(tx, tenant, &d.id, None, "payout.rejected", at, events.payout).await?;
    record_disbursement_event(tx, tenant, &d.id, "disbursement.rejected", at, events.disbursement).await
}

/// Moves the locked disbursement to the status its counts add up to, with that move's event.
async fn roll_up_locked(
    tx: &mut Tx,
    tenant: &Tenant,
    d: Disbursement,
    at: Timestamp,
    event: EventFor<'_, Disbursement>,
) -> StoreResult<Disbursement> {
    let (status, event_type) = roll_up(d.status, &d.counts);
    if status == d.status {
        return Ok(d);
    }
    query("UPDATE disbursements SET status = $1, updated_at = $2 WHERE id = $3")
        .bind(status.as_str())
        .bind(at.as_millis())
        .bind(&d.id)
        .execute(&mut **tx)
        .await?;
    match event_type {
        Some(event_type) => record_disbursement_event(tx, tenant, &d.id, event_type, at, event).await,
        None => read_disbursement(tx, tenant, &d.id).await?.ok_or(StoreError::NotFound),
    }
}

#[async_trait]
impl DisbursementStore for ThisStore {
    async fn create_disbursement(
        &self,
        tenant: &Tenant,
        d: &Disbursement,
        items: &[DisbursementItem],
        new_clients: &[(Client, NewEvent)],
        event: EventFor<'_, Disbursement>,
        idempotency: Option<IdempotentResponse<'_, Disbursement>>,
    ) -> StoreResult<Disbursement> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        for (client, created) in new_clients {
            insert_client(&mut tx, tenant, client, created).await?;
        }
        query(
            "INSERT INTO disbursements (id, org_id, env, name, asset_code, asset_issuer, status, source, item_count,
                                        total_amount, created_by_key, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'draft', $7, $8, $9, $10, $11, $11)",
        )
        .bind(&d.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(&d.name)
        .bind(d.asset_code.as_str())
        .bind(d.asset_issuer.as_ref().map(WalletAddress::as_str))
        .bind(d.source.as_str())
        .bind(i64::try_from(items.len()).map_err(corrupt)?)
        .bind(d.total_amount)
        .bind(&d.created_by_key)
        .bind(d.created_at.as_millis())
        .execute(&mut *tx)
        .await?;
        insert_items(&mut tx, &d.id, items).await?;
        let created = record_disbursement_event(&mut tx, tenant, &d.id, "disbursement.created", d.created_at, event).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &created).await?;
        Ok(created)
    }

    async fn get_disbursement(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Disbursement>> {
        let mut conn = self.reader().acquire().await?;
        read_disbursement(&mut conn, tenant, id).await
    }

    async fn list_disbursements(&self, tenant: &Tenant, q: &DisbursementQuery) -> StoreResult<Page<Disbursement>> {
        fn scope<'a>(
            qb: &mut QueryBuilder<'a>,
            tenant: &'a Tenant,
            status: Option<&'a str>,
            pattern: Option<&'a str>,
        ) {
            push_tenant_filters(qb, "d", tenant, &[("status", status)]);
            if let Some(pattern) = pattern {
                qb.push(" AND LOWER(d.name) LIKE ").push_bind(pattern).push(" ESCAPE '\\'");
            }
        }
        let search = search_pattern(q.search.as_deref());
        let search = search.as_deref();
        let status = q.status.map(DisbursementStatus::as_str);
        let total = match search {
            None => self.list_count(tenant, "disbursements", "", status).await?,
            Some(_) => Total::Matching("disbursements d"),
        };
        let select = concat!("SELECT ", disbursement_columns!(), " FROM disbursements d");
        let mut page = self
            .list_page(
                tenant,
                &q.page,
                Listing { table: "disbursements", alias: "d", select, total },
                move |qb| scope(qb, tenant, status, search),
                disbursement_from_row,
            )
            .await?;
        let mut conn = self.reader().acquire().await?;
        attach_counts(&mut conn, &mut page.items).await?;
        Ok(page)
    }

    async fn list_disbursement_items(
        &self,
        tenant: &Tenant,
        id: &str,
        status: Option<ItemStatus>,
        page: PageRequest,
    ) -> StoreResult<Page<ItemDetail>> {
        let (d, mut items) = self.read_items(tenant, id, status, Some(&page)).await?;
        let has_more = items.len() > page.limit as usize;
        items.truncate(page.limit as usize);
        let c = &d.counts;
        let total = match status {
            None => d.item_count,
            Some(ItemStatus::Pending) => c.pending,
            Some(ItemStatus::AwaitingRegistration) => c.awaiting_registration,
            Some(ItemStatus::Executing) => c.executing,
            Some(ItemStatus::Sent) => c.sent,
            Some(ItemStatus::Failed) => c.failed,
            Some(ItemStatus::Canceled) => c.canceled,
            Some(ItemStatus::Rejected) => c.rejected,
        };
        Ok(Page { items, total, total_is_estimate: false, has_more, request: page })
    }

    async fn disbursement_report(
        &self,
        tenant: &Tenant,
        id: &str,
        status: Option<ItemStatus>,
    ) -> StoreResult<Vec<ItemDetail>> {
        Ok(self.read_items(tenant, id, status, None).await?.1)
    }

    async fn submit_disbursement(
        &self,
        id: &str,
        key_id: &str,
        rule: SubmissionRule<'_>,
        funds: Option<Funds>,
        change: DisbursementChange<'_>,
    ) -> StoreResult<Disbursement> {
        let crate::Change { tenant, at, events, idempotency } = change;
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let d = lock_disbursement(&mut tx, tenant, id, DisbursementAction::Submit).await?;
        let (status, event_types) = rule(&settings_in(&mut tx, tenant).await?);
        let approve_now = status == DisbursementStatus::Approved;
        if approve_now {
            // The settings changed since the caller looked: it read no balance to check.
            let funds = funds.ok_or_else(|| StoreError::Conflict("payout approval settings".into()))?;
            check_funds(&mut tx, tenant, &d, funds, at).await?;
        }
        // Its clients locked first (as a wallet's change locks the client, then its payouts): a
        // wallet set meanwhile is read below, or, set after, finds these payouts and releases them.
        query(concat!(
            "SELECT c.id FROM clients c
             WHERE c.id IN (SELECT client_id FROM disbursement_items WHERE disbursement_id = $1) ORDER BY c.id",
            for_share!()
        ))
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        // One payout per item, its id the item's with the payout prefix, in row order. An item
        // naming only its client pays the wallet the client has now (drafted before the client
        // registered, it does not wait for a registration that happened); one that pays its
        // client's wallet takes the memo that wallet needs, as it stands now.
        query(
            "INSERT INTO payouts (id, org_id, env, type, client_id, wallet_account_id, asset_amount, asset_code,
                                  asset_issuer, memo, approval_status, exec_status, created_by_key, next_attempt_at,
                                  created_at, updated_at, disbursement_id, disbursement_item_id,
                                  wallet_memo_type, wallet_memo)
             SELECT 'pyt_' || SUBSTR(i.id, 5), $1, $2, 'disbursement', i.client_id,
                    COALESCE(i.wallet_account_id, c.wallet_account_id), i.asset_amount, $3, $4, i.memo, 'pending',
                    CASE WHEN COALESCE(i.wallet_account_id, c.wallet_account_id) IS NULL
                         THEN 'awaiting_registration' ELSE 'pending' END,
                    $5, $6, $6, $6, i.disbursement_id, i.id,
                    CASE WHEN c.wallet_account_id = COALESCE(i.wallet_account_id, c.wallet_account_id)
                         THEN c.wallet_memo_type END,
                    CASE WHEN c.wallet_account_id = COALESCE(i.wallet_account_id, c.wallet_account_id)
                         THEN c.wallet_memo END
             FROM disbursement_items i
             LEFT JOIN clients c ON c.id = i.client_id
             WHERE i.disbursement_id = $7 ORDER BY i.row_number",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(d.asset_code.as_str())
        .bind(d.asset_issuer.as_ref().map(WalletAddress::as_str))
        .bind(key_id)
        .bind(at.as_millis())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        query(
            "UPDATE disbursements SET status = 'pending_approval', submitted_by_key = $1, submitted_at = $2,
                    updated_at = $2
             WHERE id = $3",
        )
        .bind(key_id)
        .bind(at.as_millis())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        record_payout_events(&mut tx, tenant, id, None, "payout.created", at, events.payout).await?;
        let mut submitted = None;
        for event_type in event_types.iter().filter(|t| **t != "disbursement.approved") {
            submitted = Some(record_disbursement_event(&mut tx, tenant, id, event_type, at, events.disbursement).await?);
        }
        let mut result = submitted.ok_or(StoreError::NotFound)?;
        if approve_now {
            result = approve_locked(&mut tx, tenant, &result, key_id, at, events).await?;
        }
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &result).await?;
        Ok(result)
    }

    async fn approve_disbursement(
        &self,
        id: &str,
        key_id: &str,
        funds: Funds,
        change: DisbursementChange<'_>,
    ) -> StoreResult<Disbursement> {
        let crate::Change { tenant, at, events, idempotency } = change;
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let d = lock_disbursement(&mut tx, tenant, id, DisbursementAction::Approve).await?;
        if let Err(refusal) = check_distinct_approver(&d, key_id)
            && settings_in(&mut tx, tenant).await?.require_distinct_approver
        {
            return Err(StoreError::Rejected(refusal));
        }
        check_funds(&mut tx, tenant, &d, funds, at).await?;
        let approved = approve_locked(&mut tx, tenant, &d, key_id, at, events).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &approved).await?;
        Ok(approved)
    }

    async fn reject_disbursement(
        &self,
        id: &str,
        reason: Option<&str>,
        change: DisbursementChange<'_>,
    ) -> StoreResult<Disbursement> {
        let crate::Change { tenant, at, events, idempotency } = change;
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let d = lock_disbursement(&mut tx, tenant, id, DisbursementAction::Reject).await?;
        let rejected = reject_locked(&mut tx, tenant, &d, reason, at, events).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &rejected).await?;
        Ok(rejected)
    }

    async fn retry_failed_disbursement(
        &self,
        id: &str,
        change: DisbursementChange<'_>,
    ) -> StoreResult<Disbursement> {
        let crate::Change { tenant, at, events, idempotency } = change;
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        lock_disbursement(&mut tx, tenant, id, DisbursementAction::RetryFailed).await?;
        // Only approved payouts run, so a failed one is approved; not naming the approval keeps
        // SQLite (which has no statistics) on the batch's index rather than the claim's. A failed
        // payout with an attempt that applied or may still apply stays failed (check_retry_safe).
        let retried: Vec<String> = query_scalar(
            "UPDATE payouts SET exec_status = 'pending', next_attempt_at = $1, updated_at = $1,
                    unsent_since = $1, delayed_at = NULL,
                    attempts_before_retry = (SELECT COALESCE(MAX(attempt_number), 0) FROM payout_attempts
                                             WHERE payout_id = payouts.id)
             WHERE disbursement_id = $2 AND exec_status = 'failed'
               AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.payout_id = payouts.id
                                 AND (a.ledger_seq IS NOT NULL OR a.error_code IS NULL OR a.error_code = $3))
             RETURNING id",
        )
        .bind(at.as_millis())
        .bind(id)
        .bind(OUTCOME_UNKNOWN)
        .fetch_all(&mut *tx)
        .await?;
        let retried: HashSet<String> = retried.into_iter().collect();
        record_payout_events(&mut tx, tenant, id, Some(&retried), "payout.retried", at, events.payout).await?;
        let d = read_disbursement(&mut tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        let d = roll_up_locked(&mut tx, tenant, d, at, events.disbursement).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &d).await?;
        Ok(d)
    }

    async fn delete_disbursement(&self, tenant: &Tenant, id: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        lock_disbursement(&mut tx, tenant, id, DisbursementAction::Delete).await?;
        for sql in ["DELETE FROM disbursement_items WHERE disbursement_id = $1", "DELETE FROM disbursements WHERE id = $1"]
        {
            query(sql).bind(id).execute(&mut *tx).await?;
        }
        self.commit(tx).await
    }

    async fn running_disbursements(&self) -> StoreResult<Vec<(Tenant, String)>> {
        let rows = query("SELECT id, org_id, env FROM disbursements WHERE status IN ('approved', 'processing')")
            .fetch_all(self.reader())
            .await?;
        rows.iter().map(|r| Ok((Tenant::new(r.try_get::<String, _>("org_id")?, env_of(r)?), r.try_get("id")?))).collect()
    }

    async fn roll_up_disbursement(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, Disbursement>,
    ) -> StoreResult<Disbursement> {
        let mut tx = self.begin_write().await?;
        lock_tenant_row(&mut tx, "disbursements", tenant, id).await?;
        let d = read_disbursement(&mut tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        let d = roll_up_locked(&mut tx, tenant, d, at, event).await?;
        self.commit(tx).await?;
        Ok(d)
    }
}
