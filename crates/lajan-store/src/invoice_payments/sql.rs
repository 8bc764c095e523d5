// Invoice payments, for both backends; included after `shared.rs` and `credit_balances/sql.rs`
// (a statement reads the credit balance moves an invoice made).

use crate::invoice_payments::{InvoicePaymentStore, PaymentReversal, StatementParts};
use lajan_domain::invoice_payment::{OutsidePayment, Reversal};

macro_rules! invoice_payment_select {
    () => {
        "SELECT p.id, p.org_id, p.env, p.invoice_id, p.amount, p.method, p.reference, p.incoming_payment_id,
                p.paid_at, p.created_at, p.actor_type, p.actor_id, p.reversed_at, p.reversed_by_type,
                p.reversed_by_id, p.reversal_reason, p.receipt_left, p.receipt_sent_at
         FROM invoice_payments p"
    };
}

fn invoice_payment_from_row(row: &DbRow) -> StoreResult<InvoicePayment> {
    let reversal = match row.try_get::<Option<i64>, _>("reversed_at")? {
        None => None,
        Some(at) => Some(Reversal {
            at: ts(at),
            by: later_actor(row, "reversed_by_type", "reversed_by_id")?,
            reason: row.try_get::<Option<String>, _>("reversal_reason")?.unwrap_or_default(),
        }),
    };
    Ok(InvoicePayment {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        env: env_of(row)?,
        invoice_id: row.try_get("invoice_id")?,
        amount: row.try_get("amount")?,
        method: row.try_get::<String, _>("method")?.parse().map_err(corrupt)?,
        reference: row.try_get("reference")?,
        incoming_payment_id: row.try_get("incoming_payment_id")?,
        paid_at: ts(row.try_get("paid_at")?),
        recorded_at: ts(row.try_get("created_at")?),
        recorded_by: actor_of(row)?,
        reversal,
    })
}

/// Writes `payment` in the transaction that counts it, owing its client a receipt unless it
/// came from the client's own credit balance (the receipt worker reads the settings), and what
/// the invoice still owes with it (`left`), which that receipt tells. A payment a person
/// recorded (not seen on the network) is receipted after the settings' grace minutes, so a typo
/// reversed meanwhile never reaches the client.
async fn insert_invoice_payment(tx: &mut Tx, payment: &InvoicePayment, left: i64) -> StoreResult<()> {
    let grace_minutes = match payment.method {
        PaymentMethod::Stellar | PaymentMethod::CreditBalance => 0,
        _ => {
            let tenant = Tenant::new(payment.org_id.clone(), payment.env);
            settings_in(tx, &tenant).await?.invoicing.receipt_grace_minutes
        }
    };
    let receipt_due = (payment.method != PaymentMethod::CreditBalance)
        .then(|| payment.recorded_at.plus_millis(i64::from(grace_minutes) * 60_000).as_millis());
    query(
        "INSERT INTO invoice_payments (id, org_id, env, invoice_id, amount, method, reference, incoming_payment_id,
                                       paid_at, created_at, actor_type, actor_id, receipt_due_at, receipt_left)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(&payment.id)
    .bind(&payment.org_id)
    .bind(payment.env.as_str())
    .bind(&payment.invoice_id)
    .bind(payment.amount)
    .bind(payment.method.as_str())
    .bind(&payment.reference)
    .bind(&payment.incoming_payment_id)
    .bind(payment.paid_at.as_millis())
    .bind(payment.recorded_at.as_millis())
    .bind(payment.recorded_by.kind())
    .bind(payment.recorded_by.id())
    .bind(receipt_due)
    .bind(left)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// When a change to what an invoice owes happened, read once its intent is locked: the latest
/// of the time its caller read (maybe before waiting for the locks), the clock now, and just
/// after the intent's last change. Every such change (a payment, a reversal, a credit note or
/// its void, a void) locks the intent and stamps it, so one invoice's movements take strictly
/// increasing times in the order they commit, and its statement, ordered by time, tells them in
/// that order.
async fn movement_time(tx: &mut Tx, intent_id: &str, asked: Timestamp) -> StoreResult<Timestamp> {
    let last: i64 = query_scalar("SELECT updated_at FROM payment_intents WHERE id = $1")
        .bind(intent_id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(asked.max(Timestamp::now()).max(Timestamp::from_millis(last.saturating_add(1))))
}

/// The tenant's invoice `invoice_id` and its payment intent, both locked, the intent first: the
/// order the ledger watcher locks them in, so a payment recorded and one seen on the ledger at
/// the same moment never wait on each other.
async fn lock_intent_and_invoice(
    tx: &mut Tx,
    tenant: &Tenant,
    invoice_id: &str,
) -> StoreResult<(PaymentIntent, InvoiceDetail)> {
    let unlocked = read_invoice(&mut **tx, tenant, invoice_id).await?.ok_or(StoreError::NotFound)?;
    let intent = lock_intent(tx, &unlocked.intent.id).await?;
    let invoice = lock_invoice(tx, tenant, invoice_id).await?;
    Ok((intent, invoice))
}

#[async_trait]
impl InvoicePaymentStore for ThisStore {
    async fn invoice_statement_parts(&self, tenant: &Tenant, invoice_id: &str) -> StoreResult<Option<StatementParts>> {
        let mut tx = self.begin_write().await?;
        let invoice = match lock_intent_and_invoice(&mut tx, tenant, invoice_id).await {
            Ok((_, invoice)) => invoice,
            Err(StoreError::NotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        let payments = query(concat!(invoice_payment_select!(), " WHERE p.invoice_id = $1 ORDER BY p.created_at, p.id"))
            .bind(invoice_id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(invoice_payment_from_row)
            .collect::<StoreResult<_>>()?;
        let credits = query(concat!(credit_transaction_select!(), " WHERE t.invoice_id = $1 ORDER BY t.created_at, t.id"))
            .bind(invoice_id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(credit_transaction_from_row)
            .collect::<StoreResult<_>>()?;
        let credit_notes = credit_notes_of(&mut *tx, tenant, invoice_id).await?;
        // Nothing was written: ending the unit gives the locks back.
        self.commit(tx).await?;
        Ok(Some(StatementParts { invoice, payments, credits, credit_notes }))
    }

    async fn list_invoice_payments(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        page: PageRequest,
    ) -> StoreResult<Page<InvoicePayment>> {
        let listing = Listing {
            table: "invoice_payments",
            alias: "p",
            select: invoice_payment_select!(),
            total: Total::Matching("invoice_payments p"),
        };
        self.list_page(
            tenant,
            &page,
            listing,
            move |qb| push_tenant_filters(qb, "p", tenant, &[("invoice_id", Some(invoice_id))]),
            invoice_payment_from_row,
        )
        .await
    }

    async fn client_invoices(
        &self,
        tenant: &Tenant,
        client_id: &str,
        statuses: &[InvoiceStatus],
        limit: u32,
    ) -> StoreResult<Vec<InvoiceDetail>> {
        let mut qb = QueryBuilder::new(invoice_select!());
        push_tenant_filters(&mut qb, "i", tenant, &[("client_id", Some(client_id))]);
        if !statuses.is_empty() {
            qb.push(" AND i.status IN");
            push_bind_list(&mut qb, statuses.iter().map(|s| s.as_str().to_owned()));
        }
        qb.push(" ORDER BY i.position DESC LIMIT ").push_bind(i64::from(limit));
        qb.build().fetch_all(self.reader()).await?.iter().map(invoice_from_row).collect()
    }

    async fn record_outside_payment(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        payment: &OutsidePayment,
        at: Timestamp,
        events: &PaidEvents<'_>,
        idempotency: Option<IdempotentResponse<'_, PaymentOnInvoice>>,
    ) -> StoreResult<PaymentOnInvoice> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let (intent, current) = lock_intent_and_invoice(&mut tx, tenant, invoice_id).await?;
        let at = movement_time(&mut tx, &intent.id, at).await?;
        let status = current.invoice.status;
        if !status.is_payable() {
            return Err(StoreError::Rejected(Invalid::new("cannot_pay", format!("A {status} invoice cannot be paid"))));
        }
        let received = i64::try_from(i128::from(intent.amount_received) + i128::from(payment.amount)).map_err(|_| {
            StoreError::Rejected(Invalid::new("invalid_amount", "amount would take what the invoice received past the largest amount"))
        })?;
        query("UPDATE payment_intents SET amount_received = $1, updated_at = $2 WHERE id = $3")
            .bind(received)
            .bind(at.as_millis())
            .bind(&intent.id)
            .execute(&mut *tx)
            .await?;
        let record = InvoicePayment {
            id: IdKind::InvoicePayment.generate(),
            org_id: tenant.org_id.clone(),
            env: tenant.env,
            invoice_id: invoice_id.to_owned(),
            amount: payment.amount,
            method: payment.method,
            reference: payment.reference.clone(),
            incoming_payment_id: None,
            paid_at: payment.paid_at,
            recorded_at: at,
            recorded_by: tenant.actor.clone(),
            reversal: None,
        };
        let mut counted = record_payment(&mut tx, tenant, record, at, events).await?;
        if intent.completed_by(received, at) {
            mark_paid(&mut tx, tenant, &intent, at, events).await?;
            counted.invoice = read_invoice(&mut *tx, tenant, invoice_id).await?.ok_or(StoreError::NotFound)?;
        }
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &counted).await?;
        Ok(counted)
    }

    async fn reverse_invoice_payment(
        &self,
        tenant: &Tenant,
        reversal: PaymentReversal<'_>,
        at: Timestamp,
        event: EventFor<'_, PaymentOnInvoice>,
        idempotency: Option<IdempotentResponse<'_, PaymentOnInvoice>>,
    ) -> StoreResult<PaymentOnInvoice> {
        let PaymentReversal { invoice_id, payment_id, reason } = reversal;
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let (intent, locked) = lock_intent_and_invoice(&mut tx, tenant, invoice_id).await?;
        let at = movement_time(&mut tx, &intent.id, at).await?;
        let row = query(concat!(
            invoice_payment_select!(),
            " WHERE p.org_id = $1 AND p.env = $2 AND p.invoice_id = $3 AND p.id = $4",
            for_update!()
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(invoice_id)
        .bind(payment_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
        let mut payment = invoice_payment_from_row(&row)?;
        if let Some(earlier) = &payment.reversal {
            let why = format!("This payment was reversed already: {}", earlier.reason);
            return Err(StoreError::Rejected(Invalid::new("cannot_reverse", why)));
        }
        // What the intent received always holds this payment: less would be a corrupt total.
        let received = intent
            .amount_received
            .checked_sub(payment.amount)
            .filter(|r| *r >= 0)
            .ok_or_else(|| StoreError::Corrupt(format!("intent {} received less than payment {payment_id}", intent.id)))?;
        query("UPDATE payment_intents SET amount_received = $1, updated_at = $2 WHERE id = $3")
            .bind(received)
            .bind(at.as_millis())
            .bind(&intent.id)
            .execute(&mut *tx)
            .await?;
        // What it took from the credit balance goes back there, before an overpayment it let
        // the invoice hold is taken back from the balance.
        if payment.method == PaymentMethod::CreditBalance {
            move_credit_balance(&mut tx, tenant, &locked.invoice, payment.amount, CreditCause::Unapplied, at).await?;
        }
        settle_received(&mut tx, tenant, invoice_id, CreditCause::PaymentReversed, at).await?;
        // A receipt that went out is corrected by the receipt worker, now; one still waiting is
        // never sent (the worker finds the payment reversed).
        query(
            "UPDATE invoice_payments SET reversed_at = $1, reversed_by_type = $2, reversed_by_id = $3,
                    reversal_reason = $4,
                    receipt_due_at = CASE WHEN receipt_sent_at IS NULL THEN receipt_due_at ELSE $1 END
             WHERE id = $5",
        )
        .bind(at.as_millis())
        .bind(tenant.actor.kind())
        .bind(tenant.actor.id())
        .bind(reason)
        .bind(payment_id)
        .execute(&mut *tx)
        .await?;
        payment.reversal = Some(Reversal { at, by: tenant.actor.clone(), reason: reason.to_owned() });
        let invoice = read_invoice(&mut *tx, tenant, invoice_id).await?.ok_or(StoreError::NotFound)?;
        let reversed = PaymentOnInvoice { payment, invoice };
        insert_event(&mut tx, tenant, at, &event(&reversed)).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &reversed).await?;
        Ok(reversed)
    }
}
