// A disbursement's rows in bulk, for both backends: its items (written at create, read with
// their payouts for the list and the report) and the events of its payouts; included before
// `disbursements/sql.rs`, after `payouts/sql.rs` (its `payout_select!`).

use lajan_domain::disbursement::{DisbursementItem, ItemDetail, ItemPayout, ItemStatus};
use std::collections::HashMap;

/// Writes a draft's items, a few statements for thousands of rows.
async fn insert_items(tx: &mut Tx, disbursement_id: &str, items: &[DisbursementItem]) -> StoreResult<()> {
    for chunk in items.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new(
            "INSERT INTO disbursement_items (id, disbursement_id, row_number, external_id, client_id,
                                             wallet_account_id, asset_amount, memo) ",
        );
        qb.push_values(chunk, |mut row, item| {
            row.push_bind(item.id.clone())
                .push_bind(disbursement_id.to_owned())
                .push_bind(i64::from(item.row))
                .push_bind(item.external_id.clone())
                .push_bind(item.client_id.clone())
                .push_bind(item.wallet_account_id.as_ref().map(|w| w.as_str().to_owned()))
                .push_bind(item.asset_amount)
                .push_bind(item.memo.clone());
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// Writes many events of one tenant at once, a few statements for thousands of payouts.
async fn insert_events(tx: &mut Tx, tenant: &Tenant, at: Timestamp, events: &[NewEvent]) -> StoreResult<()> {
    let ids: Vec<(String, &str)> = events.iter().map(|e| (IdKind::Event.generate(), e.event_type)).collect();
    for (chunk, ids) in events.chunks(ROWS_PER_STATEMENT).zip(ids.chunks(ROWS_PER_STATEMENT)) {
        let mut qb = QueryBuilder::new("INSERT INTO events (id, org_id, env, type, created_at, data, object_id, actor_type, actor_id) ",
        );
        qb.push_values(chunk.iter().zip(ids), |mut row, (event, (id, _))| {
            row.push_bind(id.clone())
                .push_bind(tenant.org_id.clone())
                .push_bind(tenant.env.as_str())
                .push_bind(event.event_type)
                .push_bind(at.as_millis())
                .push_bind(serde_json::json!({ "object": event.object }).to_string())
                .push_bind(event.object_id())
                .push_bind(tenant.actor.kind())
                .push_bind(tenant.actor.id().to_owned());
        });
        qb.build().execute(&mut **tx).await?;
    }
    fan_out(tx, tenant, at, &ids).await
}

/// Records `event_type` for each payout of disbursement `id` in `only` (every payout when
/// `None`), as of now, with its attempts.
async fn record_payout_events(
    tx: &mut Tx,
    tenant: &Tenant,
    id: &str,
    only: Option<&HashSet<String>>,
    event_type: &'static str,
    at: Timestamp,
    event: EventFor<'_, PayoutDetail>,
) -> StoreResult<()> {
    let rows = query(concat!(payout_select!(), " WHERE p.disbursement_id = $1 ORDER BY p.id"))
        .bind(id)
        .fetch_all(&mut **tx)
        .await?;
    let attempts = query(
        "SELECT a.payout_id, a.id, a.attempt_number, a.tx_hash, a.ledger_seq, a.error_code, a.error_message, a.created_at,
                a.submissions, a.channel_account
         FROM payout_attempts a JOIN payouts p ON p.id = a.payout_id
         WHERE p.disbursement_id = $1 ORDER BY a.payout_id, a.attempt_number",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let mut attempts_of: HashMap<String, Vec<_>> = HashMap::new();
    for row in &attempts {
        attempts_of.entry(row.try_get("payout_id")?).or_default().push(attempt_from_row(row)?);
    }
    let mut events = Vec::with_capacity(rows.len());
    for row in &rows {
        let mut detail = payout_from_row(row)?;
        if only.is_some_and(|ids| !ids.contains(&detail.payout.id)) {
            continue;
        }
        detail.attempts = attempts_of.remove(&detail.payout.id).unwrap_or_default();
        let mut recorded = event(&detail);
        recorded.event_type = event_type;
        events.push(recorded);
    }
    insert_events(tx, tenant, at, &events).await
}

/// The SQL condition selecting items (`i`, with their payout `p`) in `status`.
fn item_status_sql(status: ItemStatus) -> &'static str {
    match status {
        ItemStatus::Pending => {
            " AND (p.id IS NULL OR p.approval_status = 'pending'
                   OR (p.approval_status = 'approved' AND p.exec_status = 'pending'))"
        }
        ItemStatus::AwaitingRegistration => {
            " AND p.approval_status = 'approved' AND p.exec_status = 'awaiting_registration'"
        }
        ItemStatus::Executing => " AND p.approval_status = 'approved' AND p.exec_status = 'ready_to_send'",
        ItemStatus::Sent => " AND p.approval_status = 'approved' AND p.exec_status = 'sent'",
        ItemStatus::Failed => " AND p.approval_status = 'approved' AND p.exec_status = 'failed'",
        ItemStatus::Canceled => " AND p.approval_status = 'approved' AND p.exec_status = 'canceled'",
        ItemStatus::Rejected => " AND p.approval_status = 'rejected'",
    }
}

/// The row number of disbursement `disbursement`'s item `item`, which a cursor (`field`) names;
/// `invalid_pagination` when it has none.
async fn row_number_of(conn: &mut Conn, disbursement: &str, item: &str, field: &str) -> StoreResult<i64> {
    let row: Option<i64> = query_scalar("SELECT row_number FROM disbursement_items WHERE disbursement_id = $1 AND id = $2")
        .bind(disbursement)
        .bind(item)
        .fetch_optional(&mut *conn)
        .await?;
    row.ok_or_else(|| not_in_list(field))
}

fn item_from_row(row: &DbRow) -> StoreResult<ItemDetail> {
    let item = DisbursementItem {
        id: row.try_get("id")?,
        row: u32::try_from(row.try_get::<i64, _>("row_number")?).map_err(corrupt)?,
        external_id: row.try_get("external_id")?,
        client_id: row.try_get("client_id")?,
        wallet_account_id: wallet_of(row.try_get("wallet_account_id")?)?,
        asset_amount: row.try_get("asset_amount")?,
        memo: row.try_get("memo")?,
    };
    let payout = match row.try_get::<Option<String>, _>("p_id")? {
        None => None,
        Some(id) => Some(ItemPayout {
            id,
            approval: row.try_get::<String, _>("approval_status")?.parse().map_err(corrupt)?,
            exec: row.try_get::<String, _>("exec_status")?.parse().map_err(corrupt)?,
            tx_hash: row.try_get("tx_hash")?,
            error_code: row.try_get("error_code")?,
            error_message: row.try_get("error_message")?,
        }),
    };
    Ok(ItemDetail { item, payout })
}

impl ThisStore {
    /// Items of disbursement `id` in row order, with their payouts and latest attempts; a page
    /// of them (with one row more, which says whether another follows), or all (the report). A
    /// cursor page keys on the row number of the item it names.
    async fn read_items(
        &self,
        tenant: &Tenant,
        id: &str,
        status: Option<ItemStatus>,
        page: Option<&PageRequest>,
    ) -> StoreResult<(Disbursement, Vec<ItemDetail>)> {
        let mut conn = self.reader().acquire().await?;
        let d = read_disbursement(&mut conn, tenant, id).await?.ok_or(StoreError::NotFound)?;
        // The wallet is the payout's once there is one: a receiver who registered after the draft
        // was paid to the wallet they registered, which the item itself never learns.
        let mut qb = QueryBuilder::new(
            "SELECT i.id, i.row_number, i.external_id, i.client_id,
                    COALESCE(p.wallet_account_id, i.wallet_account_id) AS wallet_account_id, i.asset_amount, i.memo,
                    p.id AS p_id, p.approval_status, p.exec_status, a.tx_hash, a.error_code, a.error_message
             FROM disbursement_items i
             LEFT JOIN payouts p ON p.disbursement_item_id = i.id
             LEFT JOIN payout_attempts a ON a.payout_id = p.id
                  AND a.attempt_number = (SELECT MAX(attempt_number) FROM payout_attempts WHERE payout_id = p.id)
             WHERE i.disbursement_id = ",
        );
        qb.push_bind(id);
        if let Some(status) = status {
            qb.push(item_status_sql(status));
        }
        let cursor = match page.and_then(|p| p.cursor.as_ref()) {
            None => None,
            Some(Cursor::After(item)) => Some((row_number_of(&mut conn, id, item, "startingAfter").await?, true)),
            Some(Cursor::Before(item)) => Some((row_number_of(&mut conn, id, item, "endingBefore").await?, false)),
        };
        match (page, cursor) {
            (None, _) => {
                qb.push(" ORDER BY i.row_number");
            }
            (Some(page), None) => {
                qb.push(" ORDER BY i.row_number");
                push_page(&mut qb, page, 1)?;
            }
            (Some(page), Some((row, after))) => {
                let (past, order) = if after { (">", "ASC") } else { ("<", "DESC") };
                qb.push(format_args!(" AND i.row_number {past} ")).push_bind(row);
                qb.push(format_args!(" ORDER BY i.row_number {order} LIMIT {}", page.limit + 1));
            }
        }
        let rows = qb.build().fetch_all(&mut *conn).await?;
        let mut items = rows.iter().map(item_from_row).collect::<StoreResult<Vec<_>>>()?;
        if cursor.is_some_and(|(_, after)| !after) {
            // Read nearest first; the page shows them in row order, the extra row last.
            let extra = if page.is_some_and(|p| items.len() > p.limit as usize) { items.pop() } else { None };
            items.reverse();
            items.extend(extra);
        }
        Ok((d, items))
    }
}

