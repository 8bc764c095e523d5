// The invoicing SQL both backends share; included by `sqlite.rs` and `postgres.rs` after
// `shared.rs` (it uses that file's helpers and the backend's `Db`, `ThisStore`, `for_update!()`).

use crate::invoices::{
    IntentTarget, InvoiceChanges, InvoiceDetail, InvoiceQuery, InvoiceStore, MessagesFor, PaidEvents, PaymentApplied,
    PaymentLink,
};
use lajan_domain::Invalid;
use lajan_domain::invoice::{DueDate, Invoice, InvoiceAction, LineItem, Totals, transition};
use lajan_domain::payment::{IncomingPayment, IntentStatus, PaymentIntent};

/// A line item as stored in the `line_items` JSON column.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredLine {
    description: String,
    quantity: i64,
    unit_price: i64,
    tax_rate: i64,
    amount: i64,
    tax: i64,
}

fn lines_to_json(lines: &[LineItem]) -> StoreResult<String> {
    let stored: Vec<StoredLine> = lines
        .iter()
        .map(|l| StoredLine {
            description: l.description.clone(),
            quantity: l.quantity,
            unit_price: l.unit_price,
            tax_rate: l.tax_rate.thousandths(),
            amount: l.amount,
            tax: l.tax,
        })
        .collect();
    serde_json::to_string(&stored).map_err(corrupt)
}

fn lines_from_json(text: &str) -> StoreResult<Vec<LineItem>> {
    let stored: Vec<StoredLine> = serde_json::from_str(text).map_err(corrupt)?;
    Ok(stored
        .into_iter()
        .map(|l| LineItem {
            description: l.description,
            quantity: l.quantity,
            unit_price: l.unit_price,
            tax_rate: TaxRate::from_thousandths(l.tax_rate),
            amount: l.amount,
            tax: l.tax,
        })
        .collect())
}

macro_rules! intent_columns {
    ($p:literal) => {
        concat!(
            $p, ".id AS p_id, ", $p, ".org_id AS p_org_id, ", $p, ".env AS p_env, ", $p, ".amount AS p_amount, ",
            $p, ".currency AS p_currency, ", $p, ".reference AS p_reference, ", $p, ".status AS p_status, ",
            $p, ".amount_received AS p_amount_received, ", $p, ".invoice_id AS p_invoice_id, ",
            $p, ".payment_link_id AS p_payment_link_id, ", $p, ".created_at AS p_created_at, ",
            $p, ".paid_at AS p_paid_at, ", $p, ".expires_at AS p_expires_at"
        )
    };
}

fn intent_from_row(row: &DbRow) -> StoreResult<PaymentIntent> {
    Ok(PaymentIntent {
        id: row.try_get("p_id")?,
        org_id: row.try_get("p_org_id")?,
        env: row.try_get::<String, _>("p_env")?.parse().map_err(corrupt)?,
        amount: row.try_get("p_amount")?,
        currency: row.try_get::<String, _>("p_currency")?.parse().map_err(corrupt)?,
        reference: row.try_get("p_reference")?,
        status: row.try_get::<String, _>("p_status")?.parse().map_err(corrupt)?,
        amount_received: row.try_get("p_amount_received")?,
        invoice_id: row.try_get("p_invoice_id")?,
        payment_link_id: row.try_get("p_payment_link_id")?,
        created_at: ts(row.try_get("p_created_at")?),
        paid_at: opt_ts(row.try_get("p_paid_at")?),
        expires_at: opt_ts(row.try_get("p_expires_at")?),
    })
}

macro_rules! invoice_select {
    () => {
        concat!(
            "SELECT i.id, i.number, i.client_id, i.currency, i.status, i.due_date, i.memo, i.line_items, i.subtotal,
                    i.tax, i.total, i.payment_intent_id, i.created_at, i.updated_at, i.sent_at, i.paid_at,
                    i.voided_at, i.void_reason,
                    c.first_name AS c_first_name, c.last_name AS c_last_name, c.email AS c_email,
                    c.phone_number AS c_phone_number, c.wallet_account_id AS c_wallet_account_id,
                    c.created_at AS c_created_at, c.updated_at AS c_updated_at, c.archived_at AS c_archived_at, ",
            intent_columns!("p"),
            " FROM invoices i JOIN clients c ON c.id = i.client_id JOIN payment_intents p ON p.id = i.payment_intent_id"
        )
    };
}

fn invoice_from_row(row: &DbRow) -> StoreResult<InvoiceDetail> {
    let intent = intent_from_row(row)?;
    let due: String = row.try_get("due_date")?;
    let invoice = Invoice {
        id: row.try_get("id")?,
        number: row.try_get("number")?,
        client_id: row.try_get("client_id")?,
        currency: row.try_get::<String, _>("currency")?.parse().map_err(corrupt)?,
        status: row.try_get::<String, _>("status")?.parse().map_err(corrupt)?,
        due_date: DueDate::from_stored(&due).map_err(corrupt)?,
        memo: row.try_get("memo")?,
        line_items: lines_from_json(&row.try_get::<String, _>("line_items")?)?,
        totals: Totals { subtotal: row.try_get("subtotal")?, tax: row.try_get("tax")?, total: row.try_get("total")? },
        amount_paid: intent.amount_received,
        payment_intent_id: row.try_get("payment_intent_id")?,
        created_at: ts(row.try_get("created_at")?),
        updated_at: ts(row.try_get("updated_at")?),
        sent_at: opt_ts(row.try_get("sent_at")?),
        paid_at: opt_ts(row.try_get("paid_at")?),
        voided_at: opt_ts(row.try_get("voided_at")?),
        void_reason: row.try_get("void_reason")?,
    };
    let client = prefixed_client(row, invoice.client_id.clone())?;
    Ok(InvoiceDetail { invoice, client, intent })
}

/// The invoice `id` of `tenant`, read through a pool or inside a transaction.
async fn read_invoice<'e, E: sqlx::Executor<'e, Database = Db>>(
    ex: E,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<InvoiceDetail>> {
    let row = sqlx::query(concat!(invoice_select!(), " WHERE i.org_id = $1 AND i.env = $2 AND i.id = $3"))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(invoice_from_row).transpose()
}

/// Takes the invoice's row lock (where the backend has row locks) before reading it whole.
async fn lock_invoice(tx: &mut Tx, tenant: &Tenant, id: &str) -> StoreResult<InvoiceDetail> {
    lock_tenant_row(tx, "invoices", tenant, id).await?;
    read_invoice(&mut **tx, tenant, id).await?.ok_or(StoreError::NotFound)
}

async fn client_is_live(tx: &mut Tx, tenant: &Tenant, id: &str) -> StoreResult<bool> {
    let found = sqlx::query("SELECT id FROM clients WHERE org_id = $1 AND env = $2 AND id = $3 AND archived_at IS NULL")
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(found.is_some())
}

fn invalid_client(id: &str) -> StoreError {
    StoreError::Rejected(Invalid::new("invalid_client", format!("No client with id {id:?}")))
}

async fn insert_intent(tx: &mut Tx, p: &PaymentIntent) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO payment_intents (id, org_id, env, amount, currency, reference, status, amount_received,
                                      invoice_id, payment_link_id, created_at, updated_at, paid_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13)",
    )
    .bind(&p.id)
    .bind(&p.org_id)
    .bind(p.env.as_str())
    .bind(p.amount)
    .bind(p.currency.code())
    .bind(&p.reference)
    .bind(p.status.as_str())
    .bind(p.amount_received)
    .bind(&p.invoice_id)
    .bind(&p.payment_link_id)
    .bind(p.created_at.as_millis())
    .bind(p.paid_at.map(Timestamp::as_millis))
    .bind(p.expires_at.map(Timestamp::as_millis))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn set_intent_status(tx: &mut Tx, id: &str, status: IntentStatus, at: Timestamp) -> StoreResult<()> {
    sqlx::query(
        "UPDATE payment_intents SET status = $1, updated_at = $2,
                paid_at = CASE WHEN $1 = 'paid' THEN $2 ELSE paid_at END
         WHERE id = $3",
    )
    .bind(status.as_str())
    .bind(at.as_millis())
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

macro_rules! link_select {
    () => {
        concat!(
            "SELECT l.id, l.amount, l.currency, l.description, l.created_at, l.expires_at, ",
            intent_columns!("p"),
            " FROM payment_links l JOIN payment_intents p ON p.id = l.payment_intent_id"
        )
    };
}

fn link_from_row(row: &DbRow) -> StoreResult<PaymentLink> {
    Ok(PaymentLink {
        id: row.try_get("id")?,
        amount: row.try_get("amount")?,
        currency: row.try_get::<String, _>("currency")?.parse().map_err(corrupt)?,
        description: row.try_get("description")?,
        created_at: ts(row.try_get("created_at")?),
        expires_at: opt_ts(row.try_get("expires_at")?),
        intent: intent_from_row(row)?,
    })
}

/// The payment link `id` of `tenant`, read through a pool or inside a transaction.
async fn read_link<'e, E: sqlx::Executor<'e, Database = Db>>(
    ex: E,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<PaymentLink>> {
    let row = sqlx::query(concat!(link_select!(), " WHERE l.org_id = $1 AND l.env = $2 AND l.id = $3"))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(link_from_row).transpose()
}

macro_rules! payment_columns {
    () => {
        "id, org_id, env, ledger_seq, tx_hash, source_account, destination_account, asset_code, amount, memo,
         created_at, payment_intent_id, processed_at"
    };
}

fn payment_from_row(row: &DbRow) -> StoreResult<IncomingPayment> {
    Ok(IncomingPayment {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        env: env_of(row)?,
        ledger_seq: row.try_get("ledger_seq")?,
        tx_hash: row.try_get("tx_hash")?,
        source_account: row.try_get("source_account")?,
        destination_account: row.try_get("destination_account")?,
        asset_code: row.try_get("asset_code")?,
        amount: row.try_get("amount")?,
        memo: row.try_get("memo")?,
        created_at: ts(row.try_get("created_at")?),
        payment_intent_id: row.try_get("payment_intent_id")?,
        processed_at: opt_ts(row.try_get("processed_at")?),
    })
}

async fn insert_payment(tx: &mut Tx, p: &IncomingPayment) -> StoreResult<u64> {
    Ok(sqlx::query(
        "INSERT INTO incoming_payments (id, org_id, env, ledger_seq, tx_hash, source_account, destination_account,
                                        asset_code, amount, memo, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (tx_hash) DO NOTHING",
    )
    .bind(&p.id)
    .bind(&p.org_id)
    .bind(p.env.as_str())
    .bind(p.ledger_seq)
    .bind(&p.tx_hash)
    .bind(&p.source_account)
    .bind(&p.destination_account)
    .bind(&p.asset_code)
    .bind(p.amount)
    .bind(&p.memo)
    .bind(p.created_at.as_millis())
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

#[async_trait]
impl InvoiceStore for ThisStore {
    async fn create_invoice(
        &self,
        tenant: &Tenant,
        inv: &Invoice,
        intent: &PaymentIntent,
        event: EventFor<'_, InvoiceDetail>,
        send: Option<MessagesFor<'_>>,
        idempotency: Option<IdempotentResponse<'_, InvoiceDetail>>,
    ) -> StoreResult<InvoiceDetail> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        if !client_is_live(&mut tx, tenant, &inv.client_id).await? {
            return Err(invalid_client(&inv.client_id));
        }
        let sequence: i64 = sqlx::query_scalar(
            "INSERT INTO invoice_counters (org_id, env, last_number) VALUES ($1, $2, 1)
             ON CONFLICT (org_id, env) DO UPDATE SET last_number = invoice_counters.last_number + 1
             RETURNING last_number",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO invoices (id, org_id, env, number, client_id, currency, status, due_date, memo, line_items,
                                   subtotal, tax, total, payment_intent_id, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)",
        )
        .bind(&inv.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(lajan_domain::invoice::invoice_number(sequence))
        .bind(&inv.client_id)
        .bind(inv.currency.code())
        .bind(inv.status.as_str())
        .bind(inv.due_date.to_string())
        .bind(&inv.memo)
        .bind(lines_to_json(&inv.line_items)?)
        .bind(inv.totals.subtotal)
        .bind(inv.totals.tax)
        .bind(inv.totals.total)
        .bind(&intent.id)
        .bind(inv.created_at.as_millis())
        .execute(&mut *tx)
        .await?;
        insert_intent(&mut tx, intent).await?;
        let detail = read_invoice(&mut *tx, tenant, &inv.id).await?.ok_or(StoreError::NotFound)?;
        let mut created = event(&detail);
        created.event_type = "invoice.created";
        insert_event(&mut tx, tenant, inv.created_at, &created).await?;
        let detail = match send {
            Some(render) => send_in(&mut tx, tenant, &inv.id, inv.created_at, render, event).await?.0,
            None => detail,
        };
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &detail).await?;
        Ok(detail)
    }

    async fn get_invoice(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<InvoiceDetail>> {
        read_invoice(self.reader(), tenant, id).await
    }

    async fn list_invoices(&self, tenant: &Tenant, q: &InvoiceQuery) -> StoreResult<Page<InvoiceDetail>> {
        fn filter<'a>(
            qb: &mut sqlx::QueryBuilder<'a, Db>,
            tenant: &'a Tenant,
            status: Option<&'a str>,
            client_id: Option<&'a str>,
            pattern: Option<&'a str>,
        ) {
            push_tenant_filters(qb, "i", tenant, &[("status", status), ("client_id", client_id)]);
            if let Some(pattern) = pattern {
                qb.push(" AND (LOWER(i.number) LIKE ").push_bind(pattern);
                qb.push(" ESCAPE '\\' OR LOWER(c.first_name || ' ' || c.last_name) LIKE ").push_bind(pattern);
                qb.push(" ESCAPE '\\')");
            }
        }
        let pattern = q.search.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(like_pattern);
        let status = q.status.map(|s| s.as_str());
        let client_id = q.client_id.as_deref();
        let (limit, offset) = page_params(q.page)?;
        let total: i64 = if client_id.is_none() && pattern.is_none() {
            // Kept per tenant and status by triggers (migration 0006).
            sqlx::query_scalar(
                "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM invoice_counts
                 WHERE org_id = $1 AND env = $2 AND ($3 IS NULL OR status = $3)",
            )
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(status)
            .fetch_one(self.reader())
            .await?
        } else {
            let mut qb = sqlx::QueryBuilder::new("SELECT COUNT(*) FROM invoices i JOIN clients c ON c.id = i.client_id");
            filter(&mut qb, tenant, status, client_id, pattern.as_deref());
            qb.build_query_scalar().fetch_one(self.reader()).await?
        };
        let mut qb = sqlx::QueryBuilder::new(invoice_select!());
        filter(&mut qb, tenant, status, client_id, pattern.as_deref());
        qb.push(" ORDER BY i.created_at DESC, i.id DESC LIMIT ").push_bind(limit);
        qb.push(" OFFSET ").push_bind(offset);
        let rows = qb.build().fetch_all(self.reader()).await?;
        let items = rows.iter().map(invoice_from_row).collect::<StoreResult<_>>()?;
        Ok(Page { items, total: count_of(total), request: q.page })
    }

    async fn update_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        changes: &InvoiceChanges,
        at: Timestamp,
    ) -> StoreResult<InvoiceDetail> {
        let mut tx = self.begin_write().await?;
        let InvoiceDetail { invoice: mut inv, .. } = lock_invoice(&mut tx, tenant, id).await?;
        transition(inv.status, InvoiceAction::Update).map_err(StoreError::Rejected)?;
        if let Some(client_id) = &changes.client_id {
            if !client_is_live(&mut tx, tenant, client_id).await? {
                return Err(invalid_client(client_id));
            }
            inv.client_id.clone_from(client_id);
        }
        if let Some(currency) = changes.currency {
            inv.currency = currency;
        }
        if let Some(due) = changes.due_date {
            inv.due_date = due;
        }
        if let Some((lines, totals)) = &changes.line_items {
            inv.line_items.clone_from(lines);
            inv.totals = *totals;
        }
        if let Some(memo) = &changes.memo {
            inv.memo.clone_from(memo);
        }
        sqlx::query(
            "UPDATE invoices SET client_id = $1, currency = $2, due_date = $3, memo = $4, line_items = $5,
                                 subtotal = $6, tax = $7, total = $8, updated_at = $9
             WHERE org_id = $10 AND env = $11 AND id = $12",
        )
        .bind(&inv.client_id)
        .bind(inv.currency.code())
        .bind(inv.due_date.to_string())
        .bind(&inv.memo)
        .bind(lines_to_json(&inv.line_items)?)
        .bind(inv.totals.subtotal)
        .bind(inv.totals.tax)
        .bind(inv.totals.total)
        .bind(at.as_millis())
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE payment_intents SET amount = $1, currency = $2, updated_at = $3 WHERE id = $4")
            .bind(inv.totals.total)
            .bind(inv.currency.code())
            .bind(at.as_millis())
            .bind(&inv.payment_intent_id)
            .execute(&mut *tx)
            .await?;
        let detail = read_invoice(&mut *tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        self.commit(tx).await?;
        Ok(detail)
    }

    async fn invoice_action(
        &self,
        tenant: &Tenant,
        id: &str,
        action: InvoiceAction,
        at: Timestamp,
        void_reason: Option<&str>,
        event: EventFor<'_, InvoiceDetail>,
        idempotency: Option<IdempotentResponse<'_, (InvoiceDetail, bool)>>,
    ) -> StoreResult<(InvoiceDetail, bool)> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let current = lock_invoice(&mut tx, tenant, id).await?;
        let step = transition(current.invoice.status, action).map_err(StoreError::Rejected)?;
        let Some(event_type) = step.event else {
            let unchanged = (current, false);
            if idempotency.is_some() {
                self.commit_keyed(tx, tenant, idempotency.as_ref(), &unchanged).await?;
            }
            return Ok(unchanged);
        };
        sqlx::query(
            "UPDATE invoices SET status = $1, updated_at = $2,
                    sent_at = CASE WHEN $1 = 'sent' THEN $2 ELSE sent_at END,
                    voided_at = CASE WHEN $1 = 'void' THEN $2 ELSE voided_at END,
                    void_reason = CASE WHEN $1 = 'void' THEN $3 ELSE void_reason END
             WHERE org_id = $4 AND env = $5 AND id = $6",
        )
        .bind(step.to.as_str())
        .bind(at.as_millis())
        .bind(void_reason)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if action == InvoiceAction::Void {
            set_intent_status(&mut tx, &current.invoice.payment_intent_id, IntentStatus::Inactive, at).await?;
        }
        let detail = read_invoice(&mut *tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        let mut recorded = event(&detail);
        recorded.event_type = event_type;
        insert_event(&mut tx, tenant, at, &recorded).await?;
        let changed = (detail, true);
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &changed).await?;
        Ok(changed)
    }

    async fn overdue_candidates(
        &self,
        due_on_or_before: &str,
        limit: i64,
    ) -> StoreResult<Vec<(Tenant, String, DueDate, String)>> {
        let rows = sqlx::query(
            "SELECT i.org_id, i.env, i.id, i.due_date, COALESCE(s.timezone, 'UTC') AS timezone
             FROM invoices i LEFT JOIN settings s ON s.org_id = i.org_id AND s.env = i.env
             WHERE i.status IN ('sent', 'viewed') AND i.due_date <= $1
             ORDER BY i.due_date, i.id LIMIT $2",
        )
        .bind(due_on_or_before)
        .bind(limit)
        .fetch_all(self.reader())
        .await?;
        rows.iter()
            .map(|row| {
                let tenant = Tenant::new(row.try_get::<String, _>("org_id")?, env_of(row)?);
                let due = DueDate::from_stored(&row.try_get::<String, _>("due_date")?).map_err(corrupt)?;
                Ok((tenant, row.try_get("id")?, due, row.try_get("timezone")?))
            })
            .collect()
    }

    async fn create_payment_link(
        &self,
        tenant: &Tenant,
        link: &PaymentLink,
        event: &NewEvent,
        idempotency: Option<IdempotentResponse<'_, PaymentLink>>,
    ) -> StoreResult<()> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        sqlx::query(
            "INSERT INTO payment_links (id, org_id, env, amount, currency, description, payment_intent_id, created_at,
                                        expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&link.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(link.amount)
        .bind(link.currency.code())
        .bind(&link.description)
        .bind(&link.intent.id)
        .bind(link.created_at.as_millis())
        .bind(link.expires_at.map(Timestamp::as_millis))
        .execute(&mut *tx)
        .await?;
        insert_intent(&mut tx, &link.intent).await?;
        insert_event(&mut tx, tenant, link.created_at, event).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), link).await
    }

    async fn get_payment_link(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PaymentLink>> {
        read_link(self.reader(), tenant, id).await
    }

    async fn list_payment_links(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<PaymentLink>> {
        let (limit, offset) = page_params(page)?;
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_links WHERE org_id = $1 AND env = $2")
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .fetch_one(self.reader())
            .await?;
        let rows = sqlx::query(concat!(
            link_select!(),
            " WHERE l.org_id = $1 AND l.env = $2 ORDER BY l.created_at DESC, l.id DESC LIMIT $3 OFFSET $4"
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(limit)
        .bind(offset)
        .fetch_all(self.reader())
        .await?;
        let items = rows.iter().map(link_from_row).collect::<StoreResult<_>>()?;
        Ok(Page { items, total: count_of(total), request: page })
    }

    async fn deactivate_payment_link(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, PaymentLink>,
    ) -> StoreResult<(PaymentLink, bool)> {
        let mut tx = self.begin_write().await?;
        let intent_id: String = sqlx::query_scalar(concat!(
            "SELECT payment_intent_id FROM payment_links WHERE org_id = $1 AND env = $2 AND id = $3",
            for_update!()
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
        let link = read_link(&mut *tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        if link.intent.effective_status(at) != IntentStatus::Active {
            return Ok((link, false));
        }
        set_intent_status(&mut tx, &intent_id, IntentStatus::Inactive, at).await?;
        let link = read_link(&mut *tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        insert_event(&mut tx, tenant, at, &event(&link)).await?;
        self.commit(tx).await?;
        Ok((link, true))
    }

    async fn get_payment_intent(&self, id: &str) -> StoreResult<Option<(PaymentIntent, IntentTarget)>> {
        let mut tx = self.reader().begin().await?;
        let row = sqlx::query(concat!("SELECT ", intent_columns!("p"), " FROM payment_intents p WHERE p.id = $1"))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let intent = intent_from_row(&row)?;
        let tenant = Tenant::new(intent.org_id.clone(), intent.env);
        let target = match (&intent.invoice_id, &intent.payment_link_id) {
            (Some(invoice_id), _) => read_invoice(&mut *tx, &tenant, invoice_id).await?.map(|d| IntentTarget::Invoice(Box::new(d))),
            (None, Some(link_id)) => read_link(&mut *tx, &tenant, link_id).await?.map(|l| IntentTarget::Link(Box::new(l))),
            (None, None) => None,
        };
        let target = target.ok_or_else(|| corrupt(format!("payment intent {id} has no invoice or link")))?;
        Ok(Some((intent, target)))
    }

    async fn record_sandbox_payment(
        &self,
        payment: &IncomingPayment,
        close_ms: i64,
    ) -> StoreResult<(IncomingPayment, Timestamp)> {
        let mut tx = self.begin_write().await?;
        let (seq, closes_at) =
            open_sandbox_ledger(&mut tx, payment.env.as_str(), payment.created_at.as_millis(), close_ms).await?;
        let recorded = IncomingPayment { ledger_seq: seq, ..payment.clone() };
        if insert_payment(&mut tx, &recorded).await? == 0 {
            // The identical transaction was submitted before: like Stellar, the ledger answers
            // with the original, whose ledger the caller need not wait for again.
            let row = sqlx::query(concat!("SELECT ", payment_columns!(), " FROM incoming_payments WHERE tx_hash = $1"))
                .bind(&payment.tx_hash)
                .fetch_one(&mut *tx)
                .await?;
            return Ok((payment_from_row(&row)?, payment.created_at));
        }
        self.commit(tx).await?;
        Ok((recorded, closes_at))
    }

    async fn tenant_of_reference(&self, reference: &str) -> StoreResult<Option<Tenant>> {
        let row = sqlx::query("SELECT org_id, env FROM payment_intents WHERE reference = $1")
            .bind(reference)
            .fetch_optional(self.reader())
            .await?;
        row.map(|r| Ok(Tenant::new(r.try_get::<String, _>("org_id")?, env_of(&r)?))).transpose()
    }

    async fn record_incoming_payment(&self, payment: &IncomingPayment) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        let inserted = insert_payment(&mut tx, payment).await? > 0;
        self.commit(tx).await?;
        Ok(inserted)
    }

    async fn pending_incoming_payments(&self, limit: i64) -> StoreResult<Vec<IncomingPayment>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            payment_columns!(),
            " FROM incoming_payments WHERE processed_at IS NULL ORDER BY created_at, id LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(payment_from_row).collect()
    }

    async fn incoming_payments_for_intent(&self, intent_id: &str) -> StoreResult<Vec<IncomingPayment>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            payment_columns!(),
            " FROM incoming_payments WHERE payment_intent_id = $1 ORDER BY created_at, id"
        ))
        .bind(intent_id)
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(payment_from_row).collect()
    }

    async fn apply_incoming_payment(
        &self,
        payment_id: &str,
        at: Timestamp,
        events: &PaidEvents<'_>,
    ) -> StoreResult<PaymentApplied> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(concat!(
            "SELECT ",
            payment_columns!(),
            " FROM incoming_payments WHERE id = $1 AND processed_at IS NULL",
            for_update!()
        ))
        .bind(payment_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(PaymentApplied::AlreadyProcessed) };
        let payment = payment_from_row(&row)?;
        let tenant = Tenant::new(payment.org_id.clone(), payment.env);
        let intent_row = sqlx::query(concat!(
            "SELECT ",
            intent_columns!("p"),
            " FROM payment_intents p WHERE p.org_id = $1 AND p.env = $2 AND p.reference = $3 AND p.currency = $4",
            for_update!()
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(payment.memo.as_deref().unwrap_or(""))
        .bind(&payment.asset_code)
        .fetch_optional(&mut *tx)
        .await?;
        let outcome = match intent_row {
            None => PaymentApplied::Unmatched,
            Some(intent_row) => {
                let intent = intent_from_row(&intent_row)?;
                // Summed wide: a total past i64 is refused, never clamped to a wrong figure.
                let received = i128::from(intent.amount_received) + i128::from(payment.amount);
                match i64::try_from(received) {
                    Err(_) => PaymentApplied::TooLarge { intent_id: intent.id },
                    Ok(received) => {
                        sqlx::query("UPDATE payment_intents SET amount_received = $1, updated_at = $2 WHERE id = $3")
                            .bind(received)
                            .bind(at.as_millis())
                            .bind(&intent.id)
                            .execute(&mut *tx)
                            .await?;
                        let completes =
                            intent.effective_status(at) == IntentStatus::Active && received >= intent.amount;
                        let paid = completes && self.mark_paid(&mut tx, &tenant, &intent, at, events).await?;
                        PaymentApplied::Matched { intent_id: intent.id, paid }
                    }
                }
            }
        };
        let matched = match &outcome {
            PaymentApplied::Matched { intent_id, .. } => Some(intent_id.clone()),
            _ => None,
        };
        sqlx::query("UPDATE incoming_payments SET processed_at = $1, payment_intent_id = $2 WHERE id = $3")
            .bind(at.as_millis())
            .bind(matched)
            .bind(payment_id)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await?;
        Ok(outcome)
    }
}

impl ThisStore {
    /// Marks a fully paid intent and what it collects for as paid, with the event. Returns
    /// false when the target does not take payments now (a draft or void invoice): the money
    /// stays recorded on the intent for the organization to settle.
    async fn mark_paid(
        &self,
        tx: &mut Tx,
        tenant: &Tenant,
        intent: &PaymentIntent,
        at: Timestamp,
        events: &PaidEvents<'_>,
    ) -> StoreResult<bool> {
        if let Some(invoice_id) = &intent.invoice_id {
            let current = lock_invoice(tx, tenant, invoice_id).await?;
            let Ok(step) = transition(current.invoice.status, InvoiceAction::Pay) else { return Ok(false) };
            set_intent_status(tx, &intent.id, IntentStatus::Paid, at).await?;
            sqlx::query("UPDATE invoices SET status = $1, paid_at = $2, updated_at = $2 WHERE id = $3")
                .bind(step.to.as_str())
                .bind(at.as_millis())
                .bind(invoice_id)
                .execute(&mut **tx)
                .await?;
            let detail = read_invoice(&mut **tx, tenant, invoice_id).await?.ok_or(StoreError::NotFound)?;
            insert_event(tx, tenant, at, &(events.invoice)(&detail)).await?;
        } else if let Some(link_id) = &intent.payment_link_id {
            set_intent_status(tx, &intent.id, IntentStatus::Paid, at).await?;
            let link = read_link(&mut **tx, tenant, link_id).await?.ok_or(StoreError::NotFound)?;
            insert_event(tx, tenant, at, &(events.link)(&link)).await?;
        }
        Ok(true)
    }
}
