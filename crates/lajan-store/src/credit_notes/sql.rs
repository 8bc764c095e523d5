// Credit notes, for both backends; included after `shared.rs`.

use crate::credit_notes::{CreditNoteEvents, CreditNoteOnInvoice, CreditNoteStore};
use lajan_domain::credit_note::{CreditLine, CreditNote, NewCreditNote, credit_note_number};

macro_rules! credit_note_select {
    () => {
        "SELECT n.id, n.number, n.invoice_id, n.amount, n.lines, n.reason, n.memo, n.created_at, n.actor_type,
                n.actor_id, n.voided_at, n.voided_by_type, n.voided_by_id
         FROM credit_notes n"
    };
}

/// A credited line as stored in the `lines` JSON column.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredCreditLine {
    line_item: usize,
    description: String,
    quantity: i64,
    amount: i64,
}

/// The lines as the `lines` column keeps them: NULL for a credit note of an amount.
fn credit_lines_to_json(lines: &[CreditLine]) -> StoreResult<Option<String>> {
    if lines.is_empty() {
        return Ok(None);
    }
    let stored: Vec<StoredCreditLine> = lines
        .iter()
        .map(|l| StoredCreditLine {
            line_item: l.line_item,
            description: l.description.clone(),
            quantity: l.quantity,
            amount: l.amount,
        })
        .collect();
    serde_json::to_string(&stored).map(Some).map_err(corrupt)
}

fn credit_lines_from_json(text: Option<&str>) -> StoreResult<Vec<CreditLine>> {
    let Some(text) = text else { return Ok(Vec::new()) };
    let stored: Vec<StoredCreditLine> = serde_json::from_str(text).map_err(corrupt)?;
    Ok(stored
        .into_iter()
        .map(|l| CreditLine { line_item: l.line_item, description: l.description, quantity: l.quantity, amount: l.amount })
        .collect())
}

fn credit_note_from_row(row: &DbRow) -> StoreResult<CreditNote> {
    let voided = match row.try_get::<Option<i64>, _>("voided_at")? {
        None => None,
        Some(at) => Some((ts(at), later_actor(row, "voided_by_type", "voided_by_id")?)),
    };
    Ok(CreditNote {
        id: row.try_get("id")?,
        number: row.try_get("number")?,
        invoice_id: row.try_get("invoice_id")?,
        amount: row.try_get("amount")?,
        lines: credit_lines_from_json(row.try_get::<Option<String>, _>("lines")?.as_deref())?,
        reason: row.try_get::<String, _>("reason")?.parse().map_err(corrupt)?,
        memo: row.try_get("memo")?,
        created_at: ts(row.try_get("created_at")?),
        created_by: actor_of(row)?,
        voided,
    })
}

/// The credit notes of the tenant's invoice `invoice_id`, oldest first.
async fn credit_notes_of<'e, E: Exec<'e>>(ex: E, tenant: &Tenant, invoice_id: &str) -> StoreResult<Vec<CreditNote>> {
    let rows = query(concat!(
        credit_note_select!(),
        " WHERE n.org_id = $1 AND n.env = $2 AND n.invoice_id = $3 ORDER BY n.created_at, n.id"
    ))
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(invoice_id)
    .fetch_all(ex)
    .await?;
    rows.iter().map(credit_note_from_row).collect()
}

/// Takes `change` off what invoice `invoice_id` (and its intent `intent_id`) asks for: positive
/// for a credit note issued, negative for one voided.
async fn credit_invoice(tx: &mut Tx, invoice_id: &str, intent_id: &str, change: i64, at: Timestamp) -> StoreResult<()> {
    query("UPDATE invoices SET amount_credited = amount_credited + $1, updated_at = $2 WHERE id = $3")
        .bind(change)
        .bind(at.as_millis())
        .bind(invoice_id)
        .execute(&mut **tx)
        .await?;
    query("UPDATE payment_intents SET amount = amount - $1, updated_at = $2 WHERE id = $3")
        .bind(change)
        .bind(at.as_millis())
        .bind(intent_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[async_trait]
impl CreditNoteStore for ThisStore {
    async fn issue_credit_note(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        note: &NewCreditNote,
        at: Timestamp,
        events: &CreditNoteEvents<'_>,
        idempotency: Option<IdempotentResponse<'_, CreditNoteOnInvoice>>,
    ) -> StoreResult<CreditNoteOnInvoice> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let (intent, current) = lock_intent_and_invoice(&mut tx, tenant, invoice_id).await?;
        let at = movement_time(&mut tx, &intent.id, at).await?;
        let invoice = &current.invoice;
        if matches!(invoice.status, InvoiceStatus::Draft | InvoiceStatus::Void) {
            let why = match invoice.status {
                InvoiceStatus::Draft => "A draft invoice is changed, not credited: update its line items",
                _ => "A void invoice asks for nothing: there is nothing to credit",
            };
            return Err(StoreError::Rejected(Invalid::new("cannot_credit", why)));
        }
        let earlier = credit_notes_of(&mut *tx, tenant, invoice_id).await?;
        let (amount, lines) = note.credit.price(&invoice.line_items, &earlier).map_err(StoreError::Rejected)?;
        let open = invoice.totals.total - invoice.amount_credited;
        if amount > open {
            let why = format!(
                "amount must be at most {}: what the invoice's credit notes leave of its total",
                lajan_domain::money::format_scaled(open, 2)
            );
            return Err(StoreError::Rejected(Invalid::new("invalid_amount", why)));
        }
        let sequence: i64 = query_scalar(
            "INSERT INTO credit_note_counters (org_id, env, last_number) VALUES ($1, $2, 1)
             ON CONFLICT (org_id, env) DO UPDATE SET last_number = credit_note_counters.last_number + 1
             RETURNING last_number",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_one(&mut *tx)
        .await?;
        let credit_note = CreditNote {
            id: IdKind::CreditNote.generate(),
            number: credit_note_number(sequence),
            invoice_id: invoice_id.to_owned(),
            amount,
            lines,
            reason: note.reason,
            memo: note.memo.clone(),
            created_at: at,
            created_by: tenant.actor.clone(),
            voided: None,
        };
        query(
            "INSERT INTO credit_notes (id, org_id, env, number, invoice_id, amount, lines, reason, memo, status,
                                       created_at, actor_type, actor_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'issued', $10, $11, $12)",
        )
        .bind(&credit_note.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(&credit_note.number)
        .bind(invoice_id)
        .bind(credit_note.amount)
        .bind(credit_lines_to_json(&credit_note.lines)?)
        .bind(credit_note.reason.as_str())
        .bind(&credit_note.memo)
        .bind(at.as_millis())
        .bind(tenant.actor.kind())
        .bind(tenant.actor.id())
        .execute(&mut *tx)
        .await?;
        credit_invoice(&mut tx, invoice_id, &intent.id, credit_note.amount, at).await?;
        settle_received(&mut tx, tenant, invoice_id, CreditCause::CreditNote, at).await?;
        let credited = read_invoice(&mut *tx, tenant, invoice_id).await?.ok_or(StoreError::NotFound)?;
        let issued = CreditNoteOnInvoice { credit_note, invoice: credited };
        insert_event(&mut tx, tenant, at, &(events.changed)(&issued)).await?;
        // Nothing left to pay: paid, as a payment that settles it would.
        let asked = &issued.invoice.intent;
        let issued = if asked.completed_by(asked.amount_received, at)
            && mark_paid(&mut tx, tenant, asked, at, events.paid).await?
        {
            let invoice = read_invoice(&mut *tx, tenant, invoice_id).await?.ok_or(StoreError::NotFound)?;
            CreditNoteOnInvoice { invoice, ..issued }
        } else {
            issued
        };
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &issued).await?;
        Ok(issued)
    }

    async fn void_credit_note(
        &self,
        tenant: &Tenant,
        invoice_id: &str,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, CreditNoteOnInvoice>,
        idempotency: Option<IdempotentResponse<'_, CreditNoteOnInvoice>>,
    ) -> StoreResult<CreditNoteOnInvoice> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let (intent, current) = lock_intent_and_invoice(&mut tx, tenant, invoice_id).await?;
        let at = movement_time(&mut tx, &intent.id, at).await?;
        let row = query(concat!(
            credit_note_select!(),
            " WHERE n.org_id = $1 AND n.env = $2 AND n.invoice_id = $3 AND n.id = $4",
            for_update!()
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(invoice_id)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
        let mut credit_note = credit_note_from_row(&row)?;
        if credit_note.voided.is_some() {
            return Err(StoreError::Rejected(Invalid::new("cannot_void", "This credit note was voided already")));
        }
        // A void invoice asks for nothing, whatever its credit notes say: they stay as they were.
        if current.invoice.status == InvoiceStatus::Void {
            return Err(StoreError::Rejected(Invalid::new("cannot_void", "The invoice is void: its credit notes stay")));
        }
        query("UPDATE credit_notes SET status = 'void', voided_at = $1, voided_by_type = $2, voided_by_id = $3 WHERE id = $4")
            .bind(at.as_millis())
            .bind(tenant.actor.kind())
            .bind(tenant.actor.id())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        credit_invoice(&mut tx, invoice_id, &intent.id, -credit_note.amount, at).await?;
        settle_received(&mut tx, tenant, invoice_id, CreditCause::CreditNoteVoided, at).await?;
        credit_note.voided = Some((at, tenant.actor.clone()));
        let invoice = read_invoice(&mut *tx, tenant, invoice_id).await?.ok_or(StoreError::NotFound)?;
        let voided = CreditNoteOnInvoice { credit_note, invoice };
        insert_event(&mut tx, tenant, at, &event(&voided)).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &voided).await?;
        Ok(voided)
    }

    async fn invoice_credit_notes(&self, tenant: &Tenant, invoice_id: &str) -> StoreResult<Vec<CreditNote>> {
        credit_notes_of(self.reader(), tenant, invoice_id).await
    }
}
