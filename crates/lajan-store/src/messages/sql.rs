// The notification outbox, for both backends; included after `shared.rs`. An invoice's `send`
// (`send_in`) lives here because it is what queues the messages.

use crate::messages::{InvoiceSending, MessageQuery, MessageStore};
use lajan_domain::message::{Message, MessageStatus, NewMessage, SendOutcome};

macro_rules! message_columns {
    () => {
        "id, org_id, env, invoice_id, client_id, template, language, channel, recipient, subject, body_text, body_html,
         status, provider_id, attempts, last_error, created_at, sent_at, updated_at"
    };
}

fn message_from_row(row: &DbRow) -> StoreResult<Message> {
    Ok(Message {
        id: row.try_get("id")?,
        tenant: Tenant::new(row.try_get::<String, _>("org_id")?, env_of(row)?),
        invoice_id: row.try_get("invoice_id")?,
        client_id: row.try_get("client_id")?,
        template: row.try_get("template")?,
        language: row.try_get("language")?,
        channel: row.try_get::<String, _>("channel")?.parse().map_err(corrupt)?,
        recipient: row.try_get("recipient")?,
        subject: row.try_get("subject")?,
        body_text: row.try_get("body_text")?,
        body_html: row.try_get("body_html")?,
        status: row.try_get::<String, _>("status")?.parse().map_err(corrupt)?,
        provider_id: row.try_get("provider_id")?,
        attempts: row.try_get("attempts")?,
        last_error: row.try_get("last_error")?,
        created_at: ts(row.try_get("created_at")?),
        sent_at: opt_ts(row.try_get("sent_at")?),
        updated_at: ts(row.try_get("updated_at")?),
    })
}

/// Sends invoice `id` inside the caller's transaction: the `send` transition and the
/// `invoice.sent` event; on its first send, when it asks for it, the payment from the client's
/// credit balance; then the messages `sending` renders from the invoice as it stands.
async fn send_in(
    tx: &mut Tx,
    tenant: &Tenant,
    id: &str,
    at: Timestamp,
    sending: &InvoiceSending<'_>,
    event: EventFor<'_, InvoiceDetail>,
) -> StoreResult<(InvoiceDetail, Vec<NewMessage>)> {
    // The intent first, as every payment locks them: a first send may pay from the balance.
    let (_, current) = lock_intent_and_invoice(tx, tenant, id).await?;
    let step = transition(current.invoice.status, InvoiceAction::Send).map_err(StoreError::Rejected)?;
    // Rendered before anything is written, so a client who cannot be reached changes nothing.
    let rendered = (sending.render)(&current).map_err(StoreError::Rejected)?;
    // Sent again after something was paid (overdue, say), it is partially paid, not just sent.
    let to = step.to.after_received(current.intent.amount_received, current.intent.amount);
    query(
        "UPDATE invoices SET status = $1, sent_at = $2, updated_at = $2 WHERE org_id = $3 AND env = $4 AND id = $5",
    )
    .bind(to.as_str())
    .bind(at.as_millis())
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(id)
    .execute(&mut **tx)
    .await?;
    let detail = read_invoice(&mut **tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
    let mut recorded = event(&detail);
    recorded.event_type = "invoice.sent";
    insert_event(tx, tenant, at, &recorded).await?;
    let (detail, messages) = if current.invoice.status == InvoiceStatus::Draft && current.invoice.apply_credit_balance {
        apply_credit_balance(tx, tenant, id, at, sending.paid).await?;
        let paid_from_balance = read_invoice(&mut **tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        // The messages ask for what is left once the balance paid its part; paid in full by it,
        // there is nothing to ask for.
        let messages = if paid_from_balance.invoice.status == InvoiceStatus::Paid {
            Vec::new()
        } else {
            (sending.render)(&paid_from_balance).map_err(StoreError::Rejected)?
        };
        (paid_from_balance, messages)
    } else {
        (detail, rendered)
    };
    for m in &messages {
        insert_message(tx, tenant, m, MessageAbout::Invoice(id), at).await?;
    }
    Ok((detail, messages))
}

/// What a message is about: the invoice it sends, or the client it invites.
#[derive(Clone, Copy)]
enum MessageAbout<'a> {
    Invoice(&'a str),
    Client(&'a str),
}

/// Puts `m` in the outbox inside the caller's transaction: queued for delivery when live; in
/// the sandbox, never handed to a provider but delivered at once, simulated, so it reads as a
/// live one does.
async fn insert_message(tx: &mut Tx, tenant: &Tenant, m: &NewMessage, about: MessageAbout<'_>, at: Timestamp) -> StoreResult<()> {
    let (status, provider_id, sent_at) = if tenant.env.is_live() {
        (MessageStatus::Queued, None, None)
    } else {
        (MessageStatus::Delivered, Some(format!("sandbox_{}", m.id)), Some(at.as_millis()))
    };
    let (invoice_id, client_id) = match about {
        MessageAbout::Invoice(id) => (Some(id), None),
        MessageAbout::Client(id) => (None, Some(id)),
    };
    query(
        "INSERT INTO messages (id, org_id, env, invoice_id, client_id, template, language, channel, recipient, subject,
                               body_text, body_html, status, provider_id, attempts, next_attempt_at, created_at,
                               sent_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 0, $15, $15, $16, $15)",
    )
    .bind(&m.id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(invoice_id)
    .bind(client_id)
    .bind(m.template)
    .bind(&m.language)
    .bind(m.channel.as_str())
    .bind(&m.recipient)
    .bind(&m.subject)
    .bind(&m.body_text)
    .bind(&m.body_html)
    .bind(status.as_str())
    .bind(provider_id)
    .bind(at.as_millis())
    .bind(sent_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[async_trait]
impl MessageStore for ThisStore {
    async fn send_invoice(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        sending: &InvoiceSending<'_>,
        event: EventFor<'_, InvoiceDetail>,
        idempotency: Option<IdempotentResponse<'_, (InvoiceDetail, Vec<NewMessage>)>>,
    ) -> StoreResult<(InvoiceDetail, Vec<NewMessage>)> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let sent = send_in(&mut tx, tenant, id, at, sending, event).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &sent).await?;
        Ok(sent)
    }

    async fn list_messages(&self, tenant: &Tenant, q: &MessageQuery) -> StoreResult<Page<Message>> {
        let status = q.status.map(MessageStatus::as_str);
        let channel = q.channel.map(|c| c.as_str());
        let filters = [
            ("invoice_id", q.invoice_id.as_deref()),
            ("client_id", q.client_id.as_deref()),
            ("status", status),
            ("channel", channel),
        ];
        self.list_page(
            q.page,
            Total::Count("SELECT COUNT(*) FROM messages m"),
            concat!("SELECT ", message_columns!(), " FROM messages m"),
            "m",
            move |qb| push_tenant_filters(qb, "m", tenant, &filters),
            message_from_row,
        )
        .await
    }

    async fn get_message(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Message>> {
        let row = query(concat!("SELECT ", message_columns!(), " FROM messages WHERE org_id = $1 AND env = $2 AND id = $3"))
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(id)
            .fetch_optional(self.reader())
            .await?;
        row.as_ref().map(message_from_row).transpose()
    }

    async fn claim_messages(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<Message>> {
        let mut tx = self.begin_write().await?;
        let rows = query(concat!(
            "UPDATE messages SET next_attempt_at = $1, attempts = attempts + 1
             WHERE id IN (SELECT id FROM messages WHERE status = 'queued' AND next_attempt_at <= $2
                          ORDER BY next_attempt_at, id LIMIT $3",
            skip_locked!(),
            ") RETURNING ",
            message_columns!()
        ))
        .bind(now.as_millis() + lease_ms)
        .bind(now.as_millis())
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        rows.iter().map(message_from_row).collect()
    }

    async fn finish_message(&self, id: &str, at: Timestamp, outcome: &SendOutcome) -> StoreResult<()> {
        let (status, error, provider_id, next) = match outcome {
            SendOutcome::Sent { provider_id } => ("sent", None, provider_id.clone(), at),
            SendOutcome::Retry { error, retry_at } => ("queued", Some(error.clone()), None, *retry_at),
            SendOutcome::Failed { error } => ("failed", Some(error.clone()), None, at),
        };
        let mut tx = self.begin_write().await?;
        query(
            "UPDATE messages SET status = $1, last_error = $2, provider_id = COALESCE($3, provider_id),
                    next_attempt_at = $4, sent_at = CASE WHEN $1 = 'sent' THEN $5 ELSE sent_at END, updated_at = $5
             WHERE id = $6 AND status = 'queued'",
        )
        .bind(status)
        .bind(error)
        .bind(provider_id)
        .bind(next.as_millis())
        .bind(at.as_millis())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}
