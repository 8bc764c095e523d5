// Clients' credit balances, for both backends; included after `shared.rs`.

use crate::credit_balances::CreditBalanceStore;
use lajan_domain::credit_balance::{CreditBalance, CreditTransaction, overpaid};

macro_rules! credit_transaction_select {
    () => {
        "SELECT t.id, t.client_id, t.currency, t.amount, t.balance_after, t.cause, t.invoice_id, t.created_at,
                t.actor_type, t.actor_id
         FROM client_credit_transactions t"
    };
}

fn credit_transaction_from_row(row: &DbRow) -> StoreResult<CreditTransaction> {
    Ok(CreditTransaction {
        id: row.try_get("id")?,
        client_id: row.try_get("client_id")?,
        currency: row.try_get::<String, _>("currency")?.parse().map_err(corrupt)?,
        amount: row.try_get("amount")?,
        balance_after: row.try_get("balance_after")?,
        cause: row.try_get::<String, _>("cause")?.parse().map_err(corrupt)?,
        invoice_id: row.try_get("invoice_id")?,
        created_at: ts(row.try_get("created_at")?),
        actor: actor_of(row)?,
    })
}

/// Brings what invoice `detail` holds for its client (what it received beyond what it asks for,
/// all of it once void) to the client's credit balance, by the difference from what it held
/// before, for `cause`. The caller holds the invoice's and its intent's locks.
async fn hold_overpayment(
    tx: &mut Tx,
    tenant: &Tenant,
    detail: &InvoiceDetail,
    cause: CreditCause,
    at: Timestamp,
) -> StoreResult<()> {
    let invoice = &detail.invoice;
    let void = invoice.status == InvoiceStatus::Void;
    let held = overpaid(detail.intent.amount_received, detail.intent.amount, void);
    let change = held - invoice.amount_overpaid;
    if change == 0 {
        return Ok(());
    }
    query("UPDATE invoices SET amount_overpaid = $1 WHERE id = $2")
        .bind(held)
        .bind(&invoice.id)
        .execute(&mut **tx)
        .await?;
    move_credit_balance(tx, tenant, invoice, change, cause, at).await.map(drop)
}

/// The client's credit balance in `currency`, its row locked where there is one: the lock
/// orders every move of this client's balance.
async fn lock_credit_balance(tx: &mut Tx, client_id: &str, currency: &str) -> StoreResult<Option<i64>> {
    let current = query_scalar(concat!(
        "SELECT amount FROM client_credit_balances WHERE client_id = $1 AND currency = $2",
        for_update!()
    ))
    .bind(client_id)
    .bind(currency)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(current)
}

/// Moves the credit balance of `invoice`'s client in its currency by `change` for `cause`,
/// with the transaction that says so (naming the invoice); returns that transaction's id.
/// Refused with `credit_balance_spent` where the balance would go below zero.
async fn move_credit_balance(
    tx: &mut Tx,
    tenant: &Tenant,
    invoice: &Invoice,
    change: i64,
    cause: CreditCause,
    at: Timestamp,
) -> StoreResult<String> {
    let currency = invoice.currency.code();
    let current = lock_credit_balance(tx, &invoice.client_id, currency).await?;
    if current.unwrap_or(0) + change < 0 {
        let why = format!(
            "This would take {} {currency} back from the client's credit balance, which holds {}: it was applied to another invoice since",
            lajan_domain::money::format_scaled(-change, 2),
            lajan_domain::money::format_scaled(current.unwrap_or(0), 2)
        );
        return Err(StoreError::Rejected(Invalid::new("credit_balance_spent", why)));
    }
    if current.unwrap_or(0).checked_add(change).is_none_or(|after| after > lajan_domain::money::MAX_CENTS) {
        let why = format!(
            "This would take the client's credit balance in {currency} past {}, the most an amount can be",
            lajan_domain::money::format_scaled(lajan_domain::money::MAX_CENTS, 2)
        );
        return Err(StoreError::Rejected(Invalid::new("credit_balance_full", why)));
    }
    let balance: i64 = match current {
        // A first credit in this currency; two at once on PostgreSQL meet at the primary key,
        // where the later adds to the earlier.
        None => query_scalar(
            "INSERT INTO client_credit_balances (org_id, env, client_id, currency, amount, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (client_id, currency) DO UPDATE
             SET amount = client_credit_balances.amount + $5, updated_at = $6
             RETURNING amount",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(&invoice.client_id)
        .bind(currency)
        .bind(change)
        .bind(at.as_millis())
        .fetch_one(&mut **tx)
        .await?,
        Some(_) => query_scalar(
            "UPDATE client_credit_balances SET amount = amount + $1, updated_at = $2
             WHERE client_id = $3 AND currency = $4 RETURNING amount",
        )
        .bind(change)
        .bind(at.as_millis())
        .bind(&invoice.client_id)
        .bind(currency)
        .fetch_one(&mut **tx)
        .await?,
    };
    let id = IdKind::CreditTransaction.generate();
    query(
        "INSERT INTO client_credit_transactions (id, org_id, env, client_id, currency, amount, balance_after, cause,
                                                 invoice_id, created_at, actor_type, actor_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(&id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(&invoice.client_id)
    .bind(currency)
    .bind(change)
    .bind(balance)
    .bind(cause.as_str())
    .bind(&invoice.id)
    .bind(at.as_millis())
    .bind(tenant.actor.kind())
    .bind(tenant.actor.id())
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// Pays what the tenant's invoice `invoice_id` still asks for from its client's credit balance
/// in its currency, as far as the balance holds: a payment of method `credit_balance` whose
/// reference is the balance's transaction (cause `applied`), counted and recorded as any
/// payment is (`invoice.payment_received`, then `invoice.paid` once nothing is owed). The
/// caller holds the invoice's and its intent's locks.
async fn apply_credit_balance(
    tx: &mut Tx,
    tenant: &Tenant,
    invoice_id: &str,
    at: Timestamp,
    events: &PaidEvents<'_>,
) -> StoreResult<()> {
    let InvoiceDetail { invoice, intent, .. } = lock_invoice(tx, tenant, invoice_id).await?;
    let owed = invoice.amount_remaining();
    let held = lock_credit_balance(tx, &invoice.client_id, invoice.currency.code()).await?.unwrap_or(0);
    let applied = owed.min(held);
    if applied <= 0 {
        return Ok(());
    }
    let reference = move_credit_balance(tx, tenant, &invoice, -applied, CreditCause::Applied, at).await?;
    let received = intent.amount_received + applied;
    query("UPDATE payment_intents SET amount_received = $1, updated_at = $2 WHERE id = $3")
        .bind(received)
        .bind(at.as_millis())
        .bind(&intent.id)
        .execute(&mut **tx)
        .await?;
    let record = InvoicePayment {
        id: IdKind::InvoicePayment.generate(),
        org_id: tenant.org_id.clone(),
        env: tenant.env,
        invoice_id: invoice.id.clone(),
        amount: applied,
        method: PaymentMethod::CreditBalance,
        reference: Some(reference),
        incoming_payment_id: None,
        paid_at: at,
        recorded_at: at,
        recorded_by: tenant.actor.clone(),
        reversal: None,
    };
    record_payment(tx, tenant, record, at, events).await?;
    if intent.completed_by(received, at) {
        mark_paid(tx, tenant, &intent, at, events).await?;
    }
    Ok(())
}

impl ThisStore {
    /// Whether `client_id` is one of the tenant's clients (archived ones included: what they
    /// are owed stays theirs).
    async fn is_tenants_client(&self, tenant: &Tenant, client_id: &str) -> StoreResult<bool> {
        // An archived client is gone from reads, its credit balance with it (as a deleted
        // customer's balance transactions are on Stripe).
        let client: Option<String> =
            query_scalar("SELECT id FROM clients WHERE org_id = $1 AND env = $2 AND id = $3 AND archived_at IS NULL")
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(client_id)
            .fetch_optional(self.reader())
            .await?;
        Ok(client.is_some())
    }
}

#[async_trait]
impl CreditBalanceStore for ThisStore {
    async fn client_credit_balances(&self, tenant: &Tenant, client_id: &str) -> StoreResult<Option<Vec<CreditBalance>>> {
        if !self.is_tenants_client(tenant, client_id).await? {
            return Ok(None);
        }
        let rows = query("SELECT currency, amount FROM client_credit_balances WHERE client_id = $1 ORDER BY currency")
            .bind(client_id)
            .fetch_all(self.reader())
            .await?;
        let balances = rows
            .iter()
            .map(|row| {
                Ok(CreditBalance {
                    currency: row.try_get::<String, _>("currency")?.parse().map_err(corrupt)?,
                    amount: row.try_get("amount")?,
                })
            })
            .collect::<StoreResult<_>>()?;
        Ok(Some(balances))
    }

    async fn list_credit_transactions(
        &self,
        tenant: &Tenant,
        client_id: &str,
        page: PageRequest,
    ) -> StoreResult<Option<Page<CreditTransaction>>> {
        if !self.is_tenants_client(tenant, client_id).await? {
            return Ok(None);
        }
        let listing = Listing {
            table: "client_credit_transactions",
            alias: "t",
            select: credit_transaction_select!(),
            total: Total::Matching("client_credit_transactions t"),
        };
        let page = self.list_page(
            tenant,
            &page,
            listing,
            move |qb| push_tenant_filters(qb, "t", tenant, &[("client_id", Some(client_id))]),
            credit_transaction_from_row,
        )
        .await?;
        Ok(Some(page))
    }
}
