// The notification outbox, for both backends; included after `shared.rs`. An invoice's `send`
// (`send_in`) lives here because it is what queues the messages.

use crate::messages::{InvoiceSending, MessageQuery, MessageStore, ProviderReport};
use lajan_domain::message::{Message, MessageStatus, NewMessage, SendOutcome, sandbox_outcome};

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
) -> StoreResult<(InvoiceDetail, Vec<Message>)> {
    // The intent first, as every payment locks them: a first send may pay from the balance.
    let (_, current) = lock_intent_and_invoice(tx, tenant, id).await?;
    let step = transition(current.invoice.status, InvoiceAction::Send).map_err(StoreError::Rejected)?;
    // Rendered before anything is written, so a client who cannot be reached changes nothing.
    let rendered = (sending.render)(&current).map_err(StoreError::Rejected)?;
    // Sent again after something was paid (overdue, say), it is partially paid, not just sent.
    let to = step.to.after_received(current.intent.amount_received, current.intent.amount);
    query(
        "UPDATE invoices SET status = $1, sent_at = $2, updated_at = $2, next_reminder_at = $2
         WHERE org_id = $3 AND env = $4 AND id = $5",
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
    let mut queued = Vec::with_capacity(messages.len());
    for m in &messages {
        let about = MessageAbout::Invoice(id, &detail.client.id);
        queued.push(insert_message(tx, tenant, m, about, at, sending.message_event).await?);
    }
    Ok((detail, queued))
}

/// What a message is about: an invoice (and the client it went to), or a client alone (an
/// invitation).
#[derive(Clone, Copy)]
enum MessageAbout<'a> {
    Invoice(&'a str, &'a str),
    Client(&'a str),
}

/// Puts `m` in the outbox inside the caller's transaction: queued for delivery when live; in
/// the sandbox, never handed to a provider but at its end at once, simulated
/// ([`sandbox_outcome`]), with the `message.*` events a live one records on its way there, so
/// it reads as a live one does. Returns the message as stored.
async fn insert_message(
    tx: &mut Tx,
    tenant: &Tenant,
    m: &NewMessage,
    about: MessageAbout<'_>,
    at: Timestamp,
    event: EventFor<'_, Message>,
) -> StoreResult<Message> {
    let (status, provider_id, sent_at, error) = if tenant.env.is_live() {
        (MessageStatus::Queued, None, None, None)
    } else {
        let (status, error) = sandbox_outcome(&m.recipient);
        let sent = status.was_sent();
        (status, sent.then(|| format!("sandbox_{}", m.id)), sent.then_some(at.as_millis()), error)
    };
    let (invoice_id, client_id) = match about {
        MessageAbout::Invoice(id, client_id) => (Some(id), Some(client_id)),
        MessageAbout::Client(id) => (None, Some(id)),
    };
    let row = query(concat!(
        "INSERT INTO messages (id, org_id, env, invoice_id, client_id, template, language, channel, recipient, subject,
                               body_text, body_html, status, provider_id, attempts, next_attempt_at, created_at,
                               sent_at, updated_at, last_error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 0, $15, $15, $16, $15, $17)
         RETURNING ",
        message_columns!()
    ))
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
    .bind(error)
    .fetch_one(&mut **tx)
    .await?;
    let message = message_from_row(&row)?;
    if !tenant.env.is_live() {
        // The simulated provider's doing, as the worker's is live, not the send's.
        let provider = tenant.clone().acting_as(Actor::worker());
        record_message_moves(tx, &provider, at, MessageStatus::Queued, &message, event).await?;
    }
    Ok(message)
}

/// The events of a message's move from `from` to its status: `message.sent` first when the move
/// skipped it (a provider that took the message and reported its end at once), then the move's.
async fn record_message_moves(
    tx: &mut Tx,
    tenant: &Tenant,
    at: Timestamp,
    from: MessageStatus,
    m: &Message,
    event: EventFor<'_, Message>,
) -> StoreResult<()> {
    if from == MessageStatus::Queued && m.status.was_sent() && m.status != MessageStatus::Sent {
        let taken = Message { status: MessageStatus::Sent, last_error: None, ..m.clone() };
        record_message_event(tx, tenant, at, &taken, event).await?;
    }
    record_message_event(tx, tenant, at, m, event).await
}

/// The event of a message's move to its status: `message.sent`, `message.delivered`, or
/// `message.failed` (failed or undeliverable; its status says which). None for `queued`.
async fn record_message_event(
    tx: &mut Tx,
    tenant: &Tenant,
    at: Timestamp,
    m: &Message,
    event: EventFor<'_, Message>,
) -> StoreResult<()> {
    let event_type = match m.status {
        MessageStatus::Queued => return Ok(()),
        MessageStatus::Sent => "message.sent",
        MessageStatus::Delivered => "message.delivered",
        MessageStatus::Failed | MessageStatus::Undeliverable => "message.failed",
    };
    let mut recorded = event(m);
    recorded.event_type = event_type;
    insert_event(tx, tenant, at, &recorded).await
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
        idempotency: Option<IdempotentResponse<'_, (InvoiceDetail, Vec<Message>)>>,
    ) -> StoreResult<(InvoiceDetail, Vec<Message>)> {
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
        let total = if q.invoice_id.is_none() && q.client_id.is_none() && channel.is_none() {
            self.list_count(tenant, "messages", "", status).await?
        } else {
            Total::Matching("messages m")
        };
        let select = concat!("SELECT ", message_columns!(), " FROM messages m");
        self.list_page(
            tenant,
            &q.page,
            Listing { table: "messages", alias: "m", select, total },
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

    async fn record_message_status(
        &self,
        report: &ProviderReport<'_>,
        at: Timestamp,
        event: EventFor<'_, Message>,
    ) -> StoreResult<Option<Message>> {
        let mut tx = self.begin_write().await?;
        let (by, key) = match report.message_id {
            Some(id) => ("id", id),
            None => ("provider_id", report.provider_id),
        };
        let sql = format!(concat!("SELECT ", message_columns!(), " FROM messages WHERE {} = $1", for_update!()), by);
        let row = query(&sql).bind(key).fetch_optional(&mut *tx).await?.ok_or(StoreError::NotFound)?;
        let current = message_from_row(&row)?;
        let another_message = current.provider_id.as_deref().is_some_and(|p| p != report.provider_id);
        if another_message || !current.status.moves_to(report.status) {
            return Ok(None);
        }
        let row = query(concat!(
            "UPDATE messages SET status = $1, provider_id = COALESCE(provider_id, $2), last_error = COALESCE($3, last_error),
                    sent_at = COALESCE(sent_at, $4), updated_at = $4
             WHERE id = $5
             RETURNING ",
            message_columns!()
        ))
        .bind(report.status.as_str())
        .bind(report.provider_id)
        .bind(report.reason)
        .bind(at.as_millis())
        .bind(&current.id)
        .fetch_one(&mut *tx)
        .await?;
        let moved = message_from_row(&row)?;
        record_message_moves(&mut tx, &moved.tenant, at, current.status, &moved, event).await?;
        tx.commit().await?;
        Ok(Some(moved))
    }

    async fn finish_message(
        &self,
        id: &str,
        at: Timestamp,
        outcome: &SendOutcome,
        event: EventFor<'_, Message>,
    ) -> StoreResult<Option<Message>> {
        let (status, error, provider_id, next) = match outcome {
            SendOutcome::Sent { provider_id } => ("sent", None, provider_id.clone(), at),
            SendOutcome::Retry { error, retry_at } => ("queued", Some(error.clone()), None, *retry_at),
            SendOutcome::Failed { error } => ("failed", Some(error.clone()), None, at),
        };
        let mut tx = self.begin_write().await?;
        let row = query(concat!(
            "UPDATE messages SET status = $1, last_error = $2, provider_id = COALESCE($3, provider_id),
                    next_attempt_at = $4, sent_at = CASE WHEN $1 = 'sent' THEN $5 ELSE sent_at END, updated_at = $5
             WHERE id = $6 AND status = 'queued'
             RETURNING ",
            message_columns!()
        ))
        .bind(status)
        .bind(error)
        .bind(provider_id)
        .bind(next.as_millis())
        .bind(at.as_millis())
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let message = message_from_row(&row)?;
        record_message_event(&mut tx, &message.tenant, at, &message, event).await?;
        tx.commit().await?;
        Ok(Some(message))
    }
}
