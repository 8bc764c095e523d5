// Payment intents and incoming payments, for both backends; included after `shared.rs` and
// before the areas whose rows join an intent (`intent_columns!`) or read a payment
// (`payment_columns!`): invoices, payment links, the sandbox ledger.

use crate::IncomingPaymentStore;
use crate::incoming_payments::{IntentTarget, PaidEvents, PaymentApplied, PaymentOnInvoice};
use lajan_domain::invoice_payment::{InvoicePayment, PaymentMethod};
use lajan_domain::invoice::InvoiceStatus;
use lajan_domain::credit_balance::CreditCause;

// Laid out by hand: rustfmt would give each of the 26 pieces a line of its own.
#[rustfmt::skip]
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

/// Binds an intent's columns to `$query`'s next 13 placeholders, in the order of
/// `payment_intents`' columns without `updated_at` (id .. expires_at): the order every insert
/// of an intent takes them in.
macro_rules! bind_intent {
    ($query:expr, $p:expr) => {
        $query
            .bind(&$p.id)
            .bind(&$p.org_id)
            .bind($p.env.as_str())
            .bind($p.amount)
            .bind($p.currency.code())
            .bind(&$p.reference)
            .bind($p.status.as_str())
            .bind($p.amount_received)
            .bind(&$p.invoice_id)
            .bind(&$p.payment_link_id)
            .bind($p.created_at.as_millis())
            .bind($p.paid_at.map(Timestamp::as_millis))
            .bind($p.expires_at.map(Timestamp::as_millis))
    };
}

async fn insert_intent(tx: &mut Tx, p: &PaymentIntent) -> StoreResult<()> {
    bind_intent!(
        query(
            "INSERT INTO payment_intents (id, org_id, env, amount, currency, reference, status, amount_received,
                                          invoice_id, payment_link_id, created_at, updated_at, paid_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13)",
        ),
        p
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn set_intent_status(tx: &mut Tx, id: &str, status: IntentStatus, at: Timestamp) -> StoreResult<()> {
    query(
        "UPDATE payment_intents SET status = $1, updated_at = $2,
                paid_at = CASE WHEN $1 = 'paid' THEN $2 WHEN $1 = 'active' THEN NULL ELSE paid_at END
         WHERE id = $3",
    )
    .bind(status.as_str())
    .bind(at.as_millis())
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
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
    Ok(query(
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
impl IncomingPaymentStore for ThisStore {
    async fn get_payment_intent(&self, id: &str) -> StoreResult<Option<(PaymentIntent, IntentTarget)>> {
        let mut tx = self.reader().begin().await?;
        let row = query(concat!("SELECT ", intent_columns!("p"), " FROM payment_intents p WHERE p.id = $1"))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let intent = intent_from_row(&row)?;
        let tenant = Tenant::new(intent.org_id.clone(), intent.env);
        let target = match (&intent.invoice_id, &intent.payment_link_id) {
            (Some(invoice_id), _) => {
                read_invoice(&mut *tx, &tenant, invoice_id).await?.map(|d| IntentTarget::Invoice(Box::new(d)))
            }
            (None, Some(link_id)) => {
                read_link(&mut *tx, &tenant, link_id).await?.map(|l| IntentTarget::Link(Box::new(l)))
            }
            (None, None) => None,
        };
        let target = target.ok_or_else(|| corrupt(format!("payment intent {id} has no invoice or link")))?;
        Ok(Some((intent, target)))
    }

    async fn tenant_of_reference(&self, reference: &str) -> StoreResult<Option<Tenant>> {
        let row = query("SELECT org_id, env FROM payment_intents WHERE reference = $1")
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
        let rows = query(concat!(
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
        let rows = query(concat!(
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
        let row = query(concat!(
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
        let outcome = match lock_intent_paid_by(&mut tx, &payment).await? {
            None => PaymentApplied::Unmatched,
            Some(intent) => {
                let at = movement_time(&mut tx, &intent.id, at).await?;
                // Summed wide: a total past i64 is refused, never clamped to a wrong figure.
                let received = i128::from(intent.amount_received) + i128::from(payment.amount);
                match i64::try_from(received) {
                    Err(_) => PaymentApplied::TooLarge { intent_id: intent.id },
                    Ok(received) => {
                        // Money that arrived cannot be refused: one the client's credit balance
                        // cannot hold is undone to here and left for reconciliation, as a total
                        // past i64 is.
                        query("SAVEPOINT count_payment").execute(&mut *tx).await?;
                        query("UPDATE payment_intents SET amount_received = $1, updated_at = $2 WHERE id = $3")
                            .bind(received)
                            .bind(at.as_millis())
                            .bind(&intent.id)
                            .execute(&mut *tx)
                            .await?;
                        let counted = match &intent.invoice_id {
                            Some(invoice_id) => self.count_on_invoice(&mut tx, &tenant, &payment, invoice_id, at, events).await,
                            None => Ok(()),
                        };
                        match counted {
                            Err(StoreError::Rejected(refused)) if refused.code == "credit_balance_full" => {
                                query("ROLLBACK TO SAVEPOINT count_payment").execute(&mut *tx).await?;
                                PaymentApplied::TooLarge { intent_id: intent.id }
                            }
                            counted => {
                                counted?;
                                query("RELEASE SAVEPOINT count_payment").execute(&mut *tx).await?;
                                let paid = intent.completed_by(received, at)
                                    && mark_paid(&mut tx, &tenant, &intent, at, events).await?;
                                PaymentApplied::Matched { intent_id: intent.id, paid }
                            }
                        }
                    }
                }
            }
        };
        let matched = match &outcome {
            PaymentApplied::Matched { intent_id, .. } => Some(intent_id.clone()),
            _ => None,
        };
        query("UPDATE incoming_payments SET processed_at = $1, payment_intent_id = $2 WHERE id = $3")
            .bind(at.as_millis())
            .bind(matched)
            .bind(payment_id)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await?;
        Ok(outcome)
    }

    async fn ledger_cursor(&self, name: &str) -> StoreResult<Option<String>> {
        Ok(query_scalar("SELECT cursor FROM ledger_cursors WHERE name = $1")
            .bind(name)
            .fetch_optional(self.reader())
            .await?)
    }

    async fn save_ledger_cursor(&self, name: &str, cursor: &str, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query(
            "INSERT INTO ledger_cursors (name, cursor, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET cursor = $2, updated_at = $3",
        )
        .bind(name)
        .bind(cursor)
        .bind(at.as_millis())
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await
    }
}

impl ThisStore {
    /// Records a ledger payment on the invoice its intent collects for, with its event: every
    /// payment in is a payment of the invoice, whatever its size and whatever the invoice's
    /// status (money received on a void invoice is recorded for the organization to settle).
    async fn count_on_invoice(
        &self,
        tx: &mut Tx,
        tenant: &Tenant,
        payment: &IncomingPayment,
        invoice_id: &str,
        at: Timestamp,
        events: &PaidEvents<'_>,
    ) -> StoreResult<()> {
        let record = InvoicePayment {
            id: IdKind::InvoicePayment.generate(),
            org_id: payment.org_id.clone(),
            env: payment.env,
            invoice_id: invoice_id.to_owned(),
            amount: payment.amount,
            method: PaymentMethod::Stellar,
            reference: Some(payment.tx_hash.clone()),
            incoming_payment_id: Some(payment.id.clone()),
            paid_at: payment.created_at,
            recorded_at: at,
            recorded_by: Actor::worker(),
            reversal: None,
        };
        record_payment(tx, tenant, record, at, events).await.map(drop)
    }
}

/// Marks a fully paid intent and what it collects for as paid, with the event. Returns
/// false when the target does not take payments now (a draft or void invoice): the money
/// stays recorded on the intent for the organization to settle.
async fn mark_paid(
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
        query("UPDATE invoices SET status = $1, paid_at = $2, updated_at = $2 WHERE id = $3")
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

/// Writes `record` (counted already on its intent) and its `invoice.payment_received`, with the
/// invoice as it stands with it (partially paid, say).
async fn record_payment(
    tx: &mut Tx,
    tenant: &Tenant,
    record: InvoicePayment,
    at: Timestamp,
    events: &PaidEvents<'_>,
) -> StoreResult<PaymentOnInvoice> {
    settle_received(tx, tenant, &record.invoice_id, CreditCause::Overpayment, at).await?;
    // What it owes is counted on the invoice and its intent, not from the payments' rows.
    let invoice = read_invoice(&mut **tx, tenant, &record.invoice_id).await?.ok_or(StoreError::NotFound)?;
    insert_invoice_payment(tx, &record, invoice.invoice.amount_remaining()).await?;
    let received = PaymentOnInvoice { payment: record, invoice };
    insert_event(tx, tenant, at, &(events.received)(&received)).await?;
    Ok(received)
}

/// Moves invoice `invoice_id` to the status what its intent has received now calls for
/// ([`InvoiceStatus::after_received`]), and what it received beyond what it asks for to the
/// client's credit balance (for `cause`); a paid invoice a reversal leaves short reopens, its
/// intent active again. Paying in full is left to `mark_paid`, which records `invoice.paid`.
async fn settle_received(
    tx: &mut Tx,
    tenant: &Tenant,
    invoice_id: &str,
    cause: CreditCause,
    at: Timestamp,
) -> StoreResult<()> {
    let current = lock_invoice(tx, tenant, invoice_id).await?;
    hold_overpayment(tx, tenant, &current, cause, at).await?;
    let (from, intent) = (current.invoice.status, &current.intent);
    let mut to = from.after_received(intent.amount_received, intent.amount);
    if !current.invoice.installments.is_empty() {
        let next_due = current.invoice.next_installment();
        query("UPDATE invoices SET next_due_date = $1 WHERE id = $2")
            .bind(next_due.map(|s| s.due_date.to_string()))
            .bind(invoice_id)
            .execute(&mut **tx)
            .await?;
        // Overdue only while an instalment is past due: paid up to one not yet due, it is not.
        let timezone = settings_in(tx, tenant).await?.timezone;
        if to == InvoiceStatus::Overdue && next_due.is_some_and(|s| !s.due_date.has_passed(at, &timezone)) {
            to = InvoiceStatus::PartiallyPaid;
        }
    }
    if to == from {
        return Ok(());
    }
    // Owing again after it was paid (a reversal, a credit note voided): the reminder worker
    // cleared its schedule when it saw it paid, so it is due to be looked at again now.
    query(
        "UPDATE invoices SET status = $1, paid_at = NULL, updated_at = $2,
                next_reminder_at = CASE WHEN $4 THEN COALESCE(next_reminder_at, $2) ELSE next_reminder_at END
         WHERE id = $3",
    )
    .bind(to.as_str())
    .bind(at.as_millis())
    .bind(invoice_id)
    .bind(from == InvoiceStatus::Paid)
    .execute(&mut **tx)
    .await?;
    if from == InvoiceStatus::Paid {
        set_intent_status(tx, &intent.id, IntentStatus::Active, at).await?;
    }
    Ok(())
}

/// The payment intent `id`, locked for the rest of the transaction.
async fn lock_intent(tx: &mut Tx, id: &str) -> StoreResult<PaymentIntent> {
    let row = query(concat!("SELECT ", intent_columns!("p"), " FROM payment_intents p WHERE p.id = $1", for_update!()))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)?;
    intent_from_row(&row)
}

/// The payment intent `payment` pays (its memo is the intent's reference, in the intent's
/// currency), locked for the rest of the transaction.
async fn lock_intent_paid_by(tx: &mut Tx, payment: &IncomingPayment) -> StoreResult<Option<PaymentIntent>> {
    let row = query(concat!(
        "SELECT ",
        intent_columns!("p"),
        " FROM payment_intents p WHERE p.org_id = $1 AND p.env = $2 AND p.reference = $3 AND p.currency = $4",
        for_update!()
    ))
    .bind(&payment.org_id)
    .bind(payment.env.as_str())
    .bind(payment.memo.as_deref().unwrap_or(""))
    .bind(&payment.asset_code)
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(intent_from_row).transpose()
}
