// Payment reminders, for both backends; included after `messages/sql.rs` (its `insert_message`)
// and `invoice_payments/sql.rs` (its `lock_intent_and_invoice`).

use crate::reminders::{ReminderStore, Reminding, SentReminder};
use lajan_domain::reminder::ReminderKey;

impl ThisStore {
    /// Runs `claim`, an `UPDATE` that moves the due time of up to `$3` rows due by `$2` to `$1`
    /// and returns their `id, org_id, env`: the rows, leased `lease_ms` from `now`.
    async fn claim_due(&self, claim: &str, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<(Tenant, String)>> {
        let mut tx = self.begin_write().await?;
        let rows = query(claim)
            .bind(now.as_millis() + lease_ms)
            .bind(now.as_millis())
            .bind(limit)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        rows.iter()
            .map(|row| Ok((Tenant::new(row.try_get::<String, _>("org_id")?, env_of(row)?), row.try_get("id")?)))
            .collect()
    }
}

#[async_trait]
impl ReminderStore for ThisStore {
    async fn claim_reminders(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<(Tenant, String)>> {
        let claim = concat!(
            "UPDATE invoices SET next_reminder_at = $1
             WHERE id IN (SELECT id FROM invoices WHERE next_reminder_at <= $2
                          ORDER BY next_reminder_at, id LIMIT $3",
            skip_locked!(),
            ") RETURNING id, org_id, env"
        );
        self.claim_due(claim, now, lease_ms, limit).await
    }

    async fn remind_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        reminding: &Reminding<'_>,
    ) -> StoreResult<Vec<SentReminder>> {
        let mut tx = self.begin_write().await?;
        let (_, detail) = lock_intent_and_invoice(&mut tx, tenant, id).await?;
        // The plan decides at the schedule's clock (a sandbox run's may be years ahead); what is
        // recorded is dated when it happens, so it sits in order among everything else the tenant does.
        let recorded_at = Timestamp::now();
        let rows = query("SELECT installment, offset_days FROM invoice_reminders WHERE invoice_id = $1")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
        let sent: Vec<ReminderKey> = rows
            .iter()
            .map(|r| {
                let offset: i64 = r.try_get("offset_days")?;
                Ok(ReminderKey {
                    installment: r.try_get("installment")?,
                    offset_days: i32::try_from(offset).map_err(corrupt)?,
                })
            })
            .collect::<StoreResult<_>>()?;
        let batch = (reminding.plan)(&detail, &sent);
        let mut recorded = Vec::with_capacity(batch.sends.len());
        for (reminder, messages) in batch.sends.into_iter().filter(|(_, m)| !m.is_empty()) {
            // The key is the table's: a second record of one reminder fails the transaction.
            query(
                "INSERT INTO invoice_reminders (invoice_id, installment, offset_days, org_id, env, sent_at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id)
            .bind(reminder.key.installment)
            .bind(i64::from(reminder.key.offset_days))
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(recorded_at.as_millis())
            .execute(&mut *tx)
            .await?;
            let mut queued = Vec::with_capacity(messages.len());
            for m in &messages {
                let about = MessageAbout::Invoice(id, &detail.client.id);
                queued.push(insert_message(&mut tx, tenant, m, about, recorded_at, reminding.message_event).await?);
            }
            let sent = SentReminder { reminder, messages: queued };
            insert_event(&mut tx, tenant, recorded_at, &(reminding.event)(&detail, &sent)).await?;
            recorded.push(sent);
        }
        query("UPDATE invoices SET next_reminder_at = $1 WHERE org_id = $2 AND env = $3 AND id = $4")
            .bind(batch.next_at.map(Timestamp::as_millis))
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await?;
        Ok(recorded)
    }

    async fn claim_receipts(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<(Tenant, String)>> {
        let claim = concat!(
            "UPDATE invoice_payments SET receipt_due_at = $1
             WHERE id IN (SELECT id FROM invoice_payments WHERE receipt_due_at <= $2
                          ORDER BY receipt_due_at, id LIMIT $3",
            skip_locked!(),
            ") RETURNING id, org_id, env"
        );
        self.claim_due(claim, now, lease_ms, limit).await
    }

    async fn send_receipt(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        render: ReceiptFor<'_>,
        message_event: EventFor<'_, Message>,
    ) -> StoreResult<Vec<Message>> {
        self.send_receipt_in(tenant, id, at, render, message_event).await
    }
}
