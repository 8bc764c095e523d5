// Payment receipts, for both backends; included after `reminders/sql.rs` and
// `invoice_payments/sql.rs` (its `invoice_payment_select!`).

use crate::reminders::ReceiptFor;

impl ThisStore {
    async fn send_receipt_in(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        render: ReceiptFor<'_>,
        message_event: EventFor<'_, Message>,
    ) -> StoreResult<Vec<Message>> {
        let mut tx = self.begin_write().await?;
        let row = query(concat!(
            invoice_payment_select!(),
            " WHERE p.org_id = $1 AND p.env = $2 AND p.id = $3 AND p.receipt_due_at IS NOT NULL",
            for_update!()
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        // Sent by another worker meanwhile.
        let Some(row) = row else { return Ok(Vec::new()) };
        let payment = invoice_payment_from_row(&row)?;
        let sent_before = row.try_get::<Option<i64>, _>("receipt_sent_at")?.is_some();
        let mut queued = Vec::new();
        // Its receipt, or, for a payment reversed after its receipt went, the correction; a
        // payment reversed before its receipt went gets neither.
        if payment.reversal.is_none() != sent_before {
            let detail = read_invoice(&mut *tx, tenant, &payment.invoice_id).await?.ok_or(StoreError::NotFound)?;
            // A receipt tells what its payment left (recorded before that was kept: what is owed
            // now, the best told); a correction tells what is owed now.
            let kept = row.try_get::<Option<i64>, _>("receipt_left")?.filter(|_| payment.reversal.is_none());
            let left = kept.unwrap_or_else(|| detail.invoice.amount_remaining());
            for m in &render(&detail, &payment, left) {
                let about = MessageAbout::Invoice(&payment.invoice_id, &detail.client.id);
                queued.push(insert_message(&mut tx, tenant, m, about, at, message_event).await?);
            }
        }
        let sent_now = payment.reversal.is_none() && !queued.is_empty();
        query(
            "UPDATE invoice_payments SET receipt_due_at = NULL,
                    receipt_sent_at = CASE WHEN $2 THEN $3 ELSE receipt_sent_at END
             WHERE id = $1",
        )
        .bind(id)
        .bind(sent_now)
        .bind(at.as_millis())
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await?;
        Ok(queued)
    }
}
