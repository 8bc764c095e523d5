// Invoices, for both backends; included after `shared.rs` and `incoming_payments/sql.rs` (an
// invoice row joins its intent).

use crate::invoices::{InvoiceChanges, InvoiceDraft, InvoiceQuery, InvoiceStore};
use lajan_domain::Invalid;
use lajan_domain::installment::{Installment, InstallmentInput, parse_installments, plan_due_date};
use lajan_domain::invoice::{DueDate, Invoice, LineItem, Totals, price_line_items};

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

/// An instalment as stored in the `installments` JSON column.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredInstallment {
    amount: i64,
    due_date: String,
}

/// The plan as the `installments` column keeps it: NULL for an invoice due at once.
fn installments_to_json(plan: &[Installment]) -> StoreResult<Option<String>> {
    if plan.is_empty() {
        return Ok(None);
    }
    let stored: Vec<StoredInstallment> =
        plan.iter().map(|p| StoredInstallment { amount: p.amount, due_date: p.due_date.to_string() }).collect();
    serde_json::to_string(&stored).map(Some).map_err(corrupt)
}

fn installments_from_json(text: Option<&str>) -> StoreResult<Vec<Installment>> {
    let Some(text) = text else { return Ok(Vec::new()) };
    let stored: Vec<StoredInstallment> = serde_json::from_str(text).map_err(corrupt)?;
    stored
        .into_iter()
        .map(|p| Ok(Installment { amount: p.amount, due_date: DueDate::from_stored(&p.due_date).map_err(corrupt)? }))
        .collect()
}

/// The date `invoice` waits for: its oldest instalment left short (NULL without a plan, or once
/// all are paid: its own due date then rules).
fn next_due_of(invoice: &Invoice) -> Option<String> {
    invoice.next_installment().map(|s| s.due_date.to_string())
}

/// Writes what a new draft asks beyond the numbered row: its plan, the date it waits for, and
/// whether its first send takes from the client's credit balance.
async fn save_draft_terms(tx: &mut Tx, invoice: &Invoice) -> StoreResult<()> {
    query("UPDATE invoices SET installments = $1, next_due_date = $2, apply_credit_balance = $3 WHERE id = $4")
        .bind(installments_to_json(&invoice.installments)?)
        .bind(next_due_of(invoice))
        .bind(invoice.apply_credit_balance)
        .bind(&invoice.id)
        .execute(&mut **tx)
        .await?;
    Ok(())
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

macro_rules! invoice_select {
    () => {
        concat!(invoice_columns!(), " FROM invoices i JOIN clients c ON c.id = i.client_id JOIN payment_intents p ON p.id = i.payment_intent_id")
    };
    // A search's candidates looked up by primary key on SQLite (see the clients list).
    (by_key) => {
        concat!(
            invoice_columns!(),
            " FROM invoices i INDEXED BY sqlite_autoindex_invoices_1 JOIN clients c ON c.id = i.client_id
              JOIN payment_intents p ON p.id = i.payment_intent_id"
        )
    };
}

macro_rules! invoice_columns {
    () => {
        concat!(
            "SELECT i.id, i.number, i.client_id, i.currency, i.status, i.due_date, i.memo, i.line_items, i.subtotal,
                    i.tax, i.total, i.payment_intent_id, i.created_at, i.updated_at, i.sent_at, i.paid_at,
                    i.voided_at, i.void_reason, i.amount_overpaid, i.amount_credited, i.installments,
                    i.apply_credit_balance, ",
            prefixed_client_columns!(),
            ", ",
            intent_columns!("p")
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
        amount_overpaid: row.try_get("amount_overpaid")?,
        amount_credited: row.try_get("amount_credited")?,
        installments: installments_from_json(row.try_get::<Option<String>, _>("installments")?.as_deref())?,
        apply_credit_balance: row.try_get("apply_credit_balance")?,
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
async fn read_invoice<'e, E: Exec<'e>>(
    ex: E,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<InvoiceDetail>> {
    let row = query(concat!(invoice_select!(), " WHERE i.org_id = $1 AND i.env = $2 AND i.id = $3"))
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

/// The tenant's client `id` unless archived: what an invoice for it shows.
async fn live_client(tx: &mut Tx, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>> {
    let row = query(concat!(
        "SELECT ",
        client_columns!(),
        " FROM clients WHERE org_id = $1 AND env = $2 AND id = $3 AND archived_at IS NULL"
    ))
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(client_from_row).transpose()
}

/// Binds an invoice row's columns to `$query`'s first 14 placeholders (id, org_id, env,
/// client_id, currency, status, due_date, memo, line_items, subtotal, tax, total,
/// payment_intent_id, created_at): the number and `updated_at` are left to the statement.
macro_rules! bind_invoice_row {
    ($query:expr, $tenant:expr, $inv:expr, $lines:expr) => {
        $query
            .bind(&$inv.id)
            .bind(&$tenant.org_id)
            .bind($tenant.env.as_str())
            .bind(&$inv.client_id)
            .bind($inv.currency.code())
            .bind($inv.status.as_str())
            .bind($inv.due_date.to_string())
            .bind(&$inv.memo)
            .bind($lines)
            .bind($inv.totals.subtotal)
            .bind($inv.totals.tax)
            .bind($inv.totals.total)
            .bind(&$inv.payment_intent_id)
            .bind($inv.created_at.as_millis())
    };
}

/// Takes the tenant's next invoice number and writes the invoice and its payment intent;
/// returns the number. On PostgreSQL the counter's row stays locked until the transaction ends,
/// so every create of the tenant queues behind it: it comes last but for the event and the
/// idempotency record, and it is one statement (the counter, the invoice and the intent as
/// data-modifying CTEs). SQLite's single writer serializes creates anyway.
async fn insert_numbered_invoice(
    tx: &mut Tx,
    tenant: &Tenant,
    inv: &Invoice,
    intent: &PaymentIntent,
) -> StoreResult<String> {
    let lines = lines_to_json(&inv.line_items)?;
    if ThisStore::BACKEND == Backend::Postgres {
        let statement = bind_invoice_row!(
            query(
                "WITH n AS (
                     INSERT INTO invoice_counters (org_id, env, last_number) VALUES ($2, $3, 1)
                     ON CONFLICT (org_id, env) DO UPDATE SET last_number = invoice_counters.last_number + 1
                     RETURNING last_number),
                 i AS (
                     INSERT INTO invoices (id, org_id, env, number, client_id, currency, status, due_date, memo,
                                           line_items, subtotal, tax, total, payment_intent_id, created_at, updated_at)
                     SELECT $1, $2, $3,
                            'INV-' || CASE WHEN n.last_number < 1000000 THEN lpad(n.last_number::text, 6, '0')
                                           ELSE n.last_number::text END,
                            $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14
                     FROM n
                     RETURNING number),
                 p AS (
                     INSERT INTO payment_intents (id, org_id, env, amount, currency, reference, status,
                                                  amount_received, invoice_id, payment_link_id, created_at,
                                                  updated_at, paid_at, expires_at)
                     SELECT $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $25, $26, $27 FROM i)
                 SELECT n.last_number, i.number FROM n, i",
            ),
            tenant,
            inv,
            lines
        );
        let row = bind_intent!(statement, intent).fetch_one(&mut **tx).await?;
        let number: String = row.try_get("number")?;
        // The SQL writes the number the domain's way; should the two ever differ, nothing commits.
        if number != lajan_domain::invoice::invoice_number(row.try_get("last_number")?) {
            return Err(corrupt(format!("invoice number {number} is not in the domain's format")));
        }
        return Ok(number);
    }
    let sequence: i64 = query_scalar(
        "INSERT INTO invoice_counters (org_id, env, last_number) VALUES ($1, $2, 1)
         ON CONFLICT (org_id, env) DO UPDATE SET last_number = invoice_counters.last_number + 1
         RETURNING last_number",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_one(&mut **tx)
    .await?;
    let number = lajan_domain::invoice::invoice_number(sequence);
    bind_invoice_row!(
        query(
            "INSERT INTO invoices (id, org_id, env, client_id, currency, status, due_date, memo, line_items,
                                   subtotal, tax, total, payment_intent_id, created_at, updated_at, number)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15)",
        ),
        tenant,
        inv,
        lines
    )
    .bind(&number)
    .execute(&mut **tx)
    .await?;
    insert_intent(tx, intent).await?;
    Ok(number)
}

fn invalid_client(id: &str) -> StoreError {
    StoreError::Rejected(Invalid::new("invalid_client", format!("No client with id {id:?}")))
}

#[async_trait]
impl InvoiceStore for ThisStore {
    async fn create_invoice(
        &self,
        tenant: &Tenant,
        draft: InvoiceDraft<'_>,
        event: EventFor<'_, InvoiceDetail>,
        send: Option<&InvoiceSending<'_>>,
        idempotency: Option<IdempotentResponse<'_, InvoiceDetail>>,
    ) -> StoreResult<InvoiceDetail> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let (inv, intent) = draft(&settings_in(&mut tx, tenant).await?).map_err(StoreError::Rejected)?;
        let client = live_client(&mut tx, tenant, &inv.client_id).await?.ok_or_else(|| invalid_client(&inv.client_id))?;
        // Read before the invoice number is taken, so none of it runs under the counter's lock.
        let targets = webhook_targets(&mut tx, tenant).await?;
        let number = insert_numbered_invoice(&mut tx, tenant, &inv, &intent).await?;
        if !inv.installments.is_empty() || inv.apply_credit_balance {
            save_draft_terms(&mut tx, &inv).await?;
        }
        // What was just written, as a read of it would give it back.
        let detail = InvoiceDetail { invoice: Invoice { number, amount_paid: intent.amount_received, ..inv }, client, intent };
        let mut created = event(&detail);
        created.event_type = "invoice.created";
        insert_event_to(&mut tx, tenant, detail.invoice.created_at, &created, &targets).await?;
        let detail = match send {
            Some(sending) => {
                let (id, at) = (detail.invoice.id.clone(), detail.invoice.created_at);
                send_in(&mut tx, tenant, &id, at, sending, event).await?.0
            }
            None => detail,
        };
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &detail).await?;
        Ok(detail)
    }

    async fn get_invoice(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<InvoiceDetail>> {
        read_invoice(self.reader(), tenant, id).await
    }

    async fn list_invoices(&self, tenant: &Tenant, q: &InvoiceQuery) -> StoreResult<Page<InvoiceDetail>> {
        let search = search_pattern(q.search.as_deref());
        let search = search.as_deref();
        let term = q.search.as_deref().map(|s| s.trim().to_lowercase()).unwrap_or_default();
        let status = q.status.map(|s| s.as_str());
        let client_id = q.client_id.as_deref();
        // Kept per tenant and status by triggers (migration 0006): the total, or the size a
        // search's sample is scaled to; a filter by client alone counts its rows instead.
        let kept: i64 = if client_id.is_none() || search.is_some() {
            query_scalar(
                "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM invoice_counts
                 WHERE org_id = $1 AND env = $2 AND ($3 IS NULL OR status = $3)",
            )
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(status)
            .fetch_one(self.reader())
            .await?
        } else {
            0
        };
        let scope = invoice_scope(tenant, status, client_id);
        let (mut select, mut by_index) = (invoice_select!(), false);
        let with_client = "invoices i JOIN clients c ON c.id = i.client_id";
        let total = match search {
            None if client_id.is_none() => Total::Known(count_of(kept)),
            None => Total::Matching(with_client),
            Some(pattern) => {
                let matches = invoice_matches(pattern);
                let list = Searched { from: with_client, alias: "i", scope: &scope, matches: &matches, size: count_of(kept) };
                match self.search_reach(None, &term, list).await? {
                    SearchReach::Index | SearchReach::Found(_) if Self::BACKEND == Backend::Sqlite => {
                        (select, by_index) = (invoice_select!(by_key), true);
                        Total::Matching("invoices i INDEXED BY sqlite_autoindex_invoices_1 JOIN clients c ON c.id = i.client_id")
                    }
                    SearchReach::Index | SearchReach::Found(_) => {
                        by_index = true;
                        Total::Matching(with_client)
                    }
                    SearchReach::Walk { estimate } => Total::Estimate(estimate),
                    SearchReach::Scan => Total::Matching(with_client),
                }
            }
        };
        let phrase = trigram_phrase(&term);
        self.list_page(
            tenant,
            &q.page,
            Listing { table: "invoices", alias: "i", select, total },
            move |qb| {
                scope(qb);
                if let Some(pattern) = search {
                    if by_index {
                        push_candidates_by_client(qb, tenant, "i", &INVOICE_NUMBER, pattern, &phrase);
                    }
                    qb.push(" AND ");
                    invoice_matches(pattern)(qb);
                }
            },
            invoice_from_row,
        )
        .await
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
            if live_client(&mut tx, tenant, client_id).await?.is_none() {
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
        if let Some(inputs) = &changes.line_items {
            let default_rate = settings_in(&mut tx, tenant).await?.default_tax_rate;
            let (lines, totals) = price_line_items(inputs, default_rate).map_err(StoreError::Rejected)?;
            inv.line_items = lines;
            inv.totals = totals;
        }
        if let Some(memo) = &changes.memo {
            inv.memo.clone_from(memo);
        }
        if let Some(apply) = changes.apply_credit_balance {
            inv.apply_credit_balance = apply;
        }
        // A plan must still sum to the total: given again, or kept with new lines if it does.
        let rows = match &changes.installments {
            Some(rows) => Some(rows.clone()),
            None if changes.line_items.is_some() => Some(inv.installments.iter().map(InstallmentInput::of).collect()),
            None => None,
        };
        if let Some(rows) = rows {
            inv.installments = parse_installments(&rows, inv.totals.total).map_err(StoreError::Rejected)?;
        }
        let asked = changes.due_date.or_else(|| inv.installments.is_empty().then_some(inv.due_date));
        if let Some(due) = plan_due_date(&inv.installments, asked).map_err(StoreError::Rejected)? {
            inv.due_date = due;
        }
        query(
            "UPDATE invoices SET client_id = $1, currency = $2, due_date = $3, memo = $4, line_items = $5,
                                 subtotal = $6, tax = $7, total = $8, updated_at = $9, installments = $10,
                                 next_due_date = $11, apply_credit_balance = $12
             WHERE org_id = $13 AND env = $14 AND id = $15",
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
        .bind(installments_to_json(&inv.installments)?)
        .bind(next_due_of(&inv))
        .bind(inv.apply_credit_balance)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        query("UPDATE payment_intents SET amount = $1, currency = $2, updated_at = $3 WHERE id = $4")
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
        id: &str,
        action: InvoiceAction,
        void_reason: Option<&str>,
        change: crate::Change<'_, EventFor<'_, InvoiceDetail>, (InvoiceDetail, bool)>,
    ) -> StoreResult<(InvoiceDetail, bool)> {
        let crate::Change { tenant, at, events: event, idempotency } = change;
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        // Voiding closes the intent too: its lock comes first, in the order every payment takes
        // them, so a void and a payment at the same moment wait on each other, never deadlock.
        let current = match action {
            InvoiceAction::Void => lock_intent_and_invoice(&mut tx, tenant, id).await?.1,
            _ => lock_invoice(&mut tx, tenant, id).await?,
        };
        let at = match action {
            InvoiceAction::Void => movement_time(&mut tx, &current.invoice.payment_intent_id, at).await?,
            _ => at,
        };
        let step = transition(current.invoice.status, action).map_err(StoreError::Rejected)?;
        // Overdue is decided on the invoice as locked: a payment that cleared the past-due
        // instalment since the candidates were read leaves it as it is.
        let not_due = action == InvoiceAction::MarkOverdue
            && !current.invoice.is_past_due(at, &settings_in(&mut tx, tenant).await?.timezone);
        let Some(event_type) = step.event.filter(|_| !not_due) else {
            let unchanged = (current, false);
            if idempotency.is_some() {
                self.commit_keyed(tx, tenant, idempotency.as_ref(), &unchanged).await?;
            }
            return Ok(unchanged);
        };
        query(
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
            // What it received is the client's now: held on their credit balance.
            settle_received(&mut tx, tenant, id, CreditCause::InvoiceVoided, at).await?;
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
        let rows = query(
            "SELECT i.org_id, i.env, i.id, COALESCE(i.next_due_date, i.due_date) AS due_date,
                    COALESCE(s.timezone, 'UTC') AS timezone
             FROM invoices i LEFT JOIN settings s ON s.org_id = i.org_id AND s.env = i.env
             WHERE i.status IN ('sent', 'viewed', 'partially_paid')
               AND ((i.next_due_date IS NULL AND i.due_date <= $1) OR i.next_due_date <= $1)
             ORDER BY 4, i.id LIMIT $2",
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
}

/// The tenant's invoices under the list's filters (` WHERE ...`, alias `i`), without the search.
fn invoice_scope<'a>(
    tenant: &'a Tenant,
    status: Option<&'a str>,
    client_id: Option<&'a str>,
) -> impl Fn(&mut QueryBuilder<'a>) + Sync + Copy + 'a {
    move |qb| push_tenant_filters(qb, "i", tenant, &[("status", status), ("client_id", client_id)])
}

/// Whether the invoice `i` (its client `c`) matches a search's LIKE `pattern`: its number or its
/// client's name.
fn invoice_matches<'a>(pattern: &'a str) -> impl Fn(&mut QueryBuilder<'a>) + Sync + Copy + 'a {
    move |qb| {
        qb.push("(LOWER(i.number) LIKE ").push_bind(pattern);
        qb.push(" ESCAPE '\\' OR LOWER(c.first_name || ' ' || c.last_name) LIKE ").push_bind(pattern);
        qb.push(" ESCAPE '\\')");
    }
}
