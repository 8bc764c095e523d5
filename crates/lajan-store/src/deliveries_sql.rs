// Webhook deliveries, for both backends: the outbox fan-out, the dispatcher's claims and
// answers, and the listing and retry callers see. Included after `shared.rs` and before
// `webhooks_sql.rs`, which uses its macro.

use crate::deliveries::{DeliveryStore, DueDelivery};
use lajan_domain::webhook::{
    Delivery, DeliveryAttempt, DeliveryOutcome as WebhookOutcome, DeliveryStatus, WebhookEndpoint, silent_too_long,
    subscribed,
};

macro_rules! delivery_columns {
    () => {
        "d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.status, d.attempts, d.next_attempt_at,
         d.created_at, d.updated_at"
    };
}

fn delivery_from_row(row: &DbRow) -> StoreResult<Delivery> {
    Ok(Delivery {
        id: row.try_get("id")?,
        endpoint_id: row.try_get("endpoint_id")?,
        event_id: row.try_get("event_id")?,
        event_type: row.try_get("event_type")?,
        status: row.try_get::<String, _>("status")?.parse().map_err(corrupt)?,
        attempts: row.try_get("attempts")?,
        next_attempt_at: ts(row.try_get("next_attempt_at")?),
        created_at: ts(row.try_get("created_at")?),
        updated_at: ts(row.try_get("updated_at")?),
    })
}

fn attempt_of_delivery(row: &DbRow) -> StoreResult<DeliveryAttempt> {
    Ok(DeliveryAttempt {
        attempt_number: row.try_get("attempt_number")?,
        at: ts(row.try_get("at")?),
        http_status: row.try_get("http_status")?,
        error: row.try_get("error")?,
        duration_ms: row.try_get("duration_ms")?,
        response_body: row.try_get("response_body")?,
    })
}

/// The webhook half of the outbox: in the caller's transaction, one pending delivery per enabled
/// endpoint of `tenant` subscribed to each of `events` (id, type), due at once.
async fn fan_out(tx: &mut Tx, tenant: &Tenant, at: Timestamp, events: &[(String, &str)]) -> StoreResult<()> {
    let rows = sqlx::query(
        "SELECT w.id, s.pattern FROM webhook_endpoints w JOIN webhook_subscriptions s ON s.endpoint_id = w.id
         WHERE w.org_id = $1 AND w.env = $2 AND w.enabled",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_all(&mut **tx)
    .await?;
    if rows.is_empty() {
        return Ok(());
    }
    let mut patterns: std::collections::BTreeMap<String, Vec<String>> = std::collections::BTreeMap::new();
    for row in &rows {
        patterns.entry(row.try_get("id")?).or_default().push(row.try_get("pattern")?);
    }
    let deliveries: Vec<(&str, &str)> = events
        .iter()
        .flat_map(|(event_id, event_type)| {
            patterns
                .iter()
                .filter(|(_, subscribed_to)| subscribed(subscribed_to, event_type))
                .map(move |(endpoint_id, _)| (endpoint_id.as_str(), event_id.as_str()))
        })
        .collect();
    for chunk in deliveries.chunks(ROWS_PER_STATEMENT) {
        let mut qb = sqlx::QueryBuilder::new(
            "INSERT INTO webhook_deliveries (id, endpoint_id, event_id, org_id, env, status, attempts, next_attempt_at,
                                             created_at, updated_at) ",
        );
        qb.push_values(chunk, |mut row, (endpoint_id, event_id)| {
            row.push_bind(IdKind::Delivery.generate())
                .push_bind(endpoint_id.to_string())
                .push_bind(event_id.to_string())
                .push_bind(tenant.org_id.clone())
                .push_bind(tenant.env.as_str())
                .push_bind(DeliveryStatus::Pending.as_str())
                .push_bind(0_i64)
                .push_bind(at.as_millis())
                .push_bind(at.as_millis())
                .push_bind(at.as_millis());
        });
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// The secrets that sign a delivery claimed at `now`: the endpoint's, then the previous one
/// until its time is up.
fn signing_secrets(row: &DbRow, now: Timestamp) -> StoreResult<Vec<String>> {
    let mut secrets = vec![row.try_get::<String, _>("secret")?];
    let until: Option<i64> = row.try_get("previous_secret_until")?;
    if until.is_some_and(|until| until > now.as_millis())
        && let Some(previous) = row.try_get::<Option<String>, _>("previous_secret")?
    {
        secrets.push(previous);
    }
    Ok(secrets)
}

/// A delivery of `tenant` by id, read in `conn`.
async fn delivery_of(
    conn: &mut <Db as sqlx::Database>::Connection,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<Delivery>> {
    let row = sqlx::query(concat!(
        "SELECT ",
        delivery_columns!(),
        " FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id
         WHERE d.id = $1 AND d.org_id = $2 AND d.env = $3"
    ))
    .bind(id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_optional(&mut *conn)
    .await?;
    row.as_ref().map(delivery_from_row).transpose()
}

/// Records an attempt of delivery `id`, numbered after the last; answers its number and, when
/// `lease` still holds the delivery (row-locked until the transaction ends), its endpoint's
/// tenant and id.
async fn record_attempt(
    tx: &mut Tx,
    id: &str,
    lease: &str,
    attempt: &DeliveryAttempt,
) -> StoreResult<(i64, Option<(Tenant, String)>)> {
    let holder = sqlx::query(concat!(
        "SELECT lease_token, endpoint_id, org_id, env FROM webhook_deliveries WHERE id = $1 AND status = 'pending'",
        for_update!()
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    let held = match holder {
        Some(row) if row.try_get::<Option<String>, _>("lease_token")?.as_deref() == Some(lease) => {
            Some((Tenant::new(row.try_get::<String, _>("org_id")?, env_of(&row)?), row.try_get("endpoint_id")?))
        }
        _ => None,
    };
    let number: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(attempt_number), 0) + 1 FROM webhook_attempts WHERE delivery_id = $1")
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
    sqlx::query(
        "INSERT INTO webhook_attempts (id, delivery_id, attempt_number, at, http_status, error, duration_ms,
                                       response_body)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(IdKind::Attempt.generate())
    .bind(id)
    .bind(number)
    .bind(attempt.at.as_millis())
    .bind(attempt.http_status)
    .bind(&attempt.error)
    .bind(attempt.duration_ms)
    .bind(&attempt.response_body)
    .execute(&mut **tx)
    .await?;
    Ok((number, held))
}

/// Moves a delivery to `status` (due again at `next` when pending) and releases its lease.
async fn settle_delivery(
    tx: &mut Tx,
    id: &str,
    status: DeliveryStatus,
    next: Timestamp,
    attempts: i64,
    at: Timestamp,
) -> StoreResult<()> {
    sqlx::query(
        "UPDATE webhook_deliveries SET status = $1, next_attempt_at = $2, attempts = $3, updated_at = $4,
                lease_token = NULL
         WHERE id = $5",
    )
    .bind(status.as_str())
    .bind(next.as_millis())
    .bind(attempts)
    .bind(at.as_millis())
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Records on endpoint `endpoint_id` whether its answer at `at` was a success; answers since
/// when it has only failed (`None` after a success).
async fn note_answer(tx: &mut Tx, endpoint_id: &str, delivered: bool, at: Timestamp) -> StoreResult<Option<Timestamp>> {
    let failing_since: Option<i64> = sqlx::query_scalar(
        "UPDATE webhook_endpoints SET failing_since = CASE WHEN $1 THEN NULL ELSE COALESCE(failing_since, $2) END
         WHERE id = $3 RETURNING failing_since",
    )
    .bind(delivered)
    .bind(at.as_millis())
    .bind(endpoint_id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(failing_since.map(ts))
}

/// Disables the endpoint and records `event` for it, once: an endpoint already disabled (two
/// deliveries answered 410 at once) is left as it is, and said nothing more of.
async fn disable_endpoint(
    tx: &mut Tx,
    tenant: &Tenant,
    endpoint_id: &str,
    at: Timestamp,
    event: EventFor<'_, WebhookEndpoint>,
) -> StoreResult<()> {
    let disabled = sqlx::query("UPDATE webhook_endpoints SET enabled = FALSE, updated_at = $1 WHERE id = $2 AND enabled")
        .bind(at.as_millis())
        .bind(endpoint_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if disabled > 0 {
        let endpoint = endpoint_of(tx, tenant, endpoint_id).await?.ok_or(StoreError::NotFound)?;
        insert_event(tx, tenant, at, &event(&endpoint)).await?;
    }
    Ok(())
}

/// A delivery by id, whoever's it is (the dispatcher's view).
async fn delivery_by_id(tx: &mut Tx, id: &str) -> StoreResult<Delivery> {
    let row = sqlx::query(concat!(
        "SELECT ",
        delivery_columns!(),
        " FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id WHERE d.id = $1"
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(StoreError::NotFound)?;
    delivery_from_row(&row)
}

#[async_trait]
impl DeliveryStore for ThisStore {
    async fn claim_deliveries(
        &self,
        now: Timestamp,
        lease_ms: i64,
        limit: i64,
        busy: &[String],
    ) -> StoreResult<Vec<DueDelivery>> {
        let mut tx = self.begin_write().await?;
        let lease = IdKind::Lease.generate();
        // The endpoint test is a subquery, not a join: a join would make PostgreSQL lock the
        // endpoint rows too, and a second dispatcher would skip every delivery of the endpoint.
        let mut qb = sqlx::QueryBuilder::new("UPDATE webhook_deliveries SET lease_token = ");
        qb.push_bind(&lease).push(", next_attempt_at = ").push_bind(now.as_millis() + lease_ms);
        qb.push(
            " WHERE id IN (SELECT d.id FROM webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <= ",
        )
        .push_bind(now.as_millis());
        qb.push(" AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = d.endpoint_id AND w.enabled)");
        if !busy.is_empty() {
            qb.push(" AND d.endpoint_id NOT IN (");
            let mut list = qb.separated(", ");
            for endpoint in busy {
                list.push_bind(endpoint.clone());
            }
            qb.push(")");
        }
        qb.push(" ORDER BY d.next_attempt_at, d.id LIMIT ").push_bind(limit);
        qb.push(concat!(skip_locked!(), ") RETURNING id"));
        let ids: Vec<String> = qb.build_query_scalar().fetch_all(&mut *tx).await?;
        let mut claimed = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = sqlx::QueryBuilder::new(concat!(
                "SELECT ",
                delivery_columns!(),
                ", d.org_id, d.env, w.url, w.secret, w.previous_secret, w.previous_secret_until,
                   ev.created_at AS event_created_at, ev.data AS event_data
                 FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
                 JOIN events ev ON ev.id = d.event_id WHERE d.id IN ("
            ));
            let mut list = qb.separated(", ");
            for id in chunk {
                list.push_bind(id.clone());
            }
            qb.push(")");
            for row in qb.build().fetch_all(&mut *tx).await? {
                claimed.push(DueDelivery {
                    lease: lease.clone(),
                    tenant: Tenant::new(row.try_get::<String, _>("org_id")?, env_of(&row)?),
                    delivery: delivery_from_row(&row)?,
                    url: row.try_get("url")?,
                    secrets: signing_secrets(&row, now)?,
                    event_created_at: ts(row.try_get("event_created_at")?),
                    event_data: row.try_get("event_data")?,
                });
            }
        }
        tx.commit().await?;
        Ok(claimed)
    }

    async fn release_deliveries(&self, lease: &str, ids: &[String], now: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        for chunk in ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = sqlx::QueryBuilder::new("UPDATE webhook_deliveries SET lease_token = NULL, next_attempt_at = ");
            qb.push_bind(now.as_millis()).push(" WHERE lease_token = ").push_bind(lease).push(" AND id IN (");
            let mut list = qb.separated(", ");
            for id in chunk {
                list.push_bind(id.clone());
            }
            qb.push(")");
            qb.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn deliveries_due(&self, now: Timestamp) -> StoreResult<bool> {
        let due: Option<String> = sqlx::query_scalar(
            "SELECT d.id FROM webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <= $1
             AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = d.endpoint_id AND w.enabled) LIMIT 1",
        )
        .bind(now.as_millis())
        .fetch_optional(self.reader())
        .await?;
        Ok(due.is_some())
    }

    async fn finish_delivery(
        &self,
        id: &str,
        lease: &str,
        attempt: &DeliveryAttempt,
        outcome: &WebhookOutcome,
        disabled: EventFor<'_, WebhookEndpoint>,
    ) -> StoreResult<Delivery> {
        let mut tx = self.begin_write().await?;
        let (number, held) = record_attempt(&mut tx, id, lease, attempt).await?;
        if let Some((tenant, endpoint_id)) = held {
            let (status, next) = match outcome {
                WebhookOutcome::Delivered => (DeliveryStatus::Delivered, attempt.at),
                WebhookOutcome::Retry { retry_at } => (DeliveryStatus::Pending, *retry_at),
                WebhookOutcome::Failed | WebhookOutcome::Gone => (DeliveryStatus::Failed, attempt.at),
            };
            settle_delivery(&mut tx, id, status, next, number, attempt.at).await?;
            let delivered = *outcome == WebhookOutcome::Delivered;
            let failing_since = note_answer(&mut tx, &endpoint_id, delivered, attempt.at).await?;
            let silent = failing_since.is_some_and(|since| silent_too_long(since, attempt.at));
            if *outcome == WebhookOutcome::Gone || silent {
                disable_endpoint(&mut tx, &tenant, &endpoint_id, attempt.at, disabled).await?;
            }
        }
        let delivery = delivery_by_id(&mut tx, id).await?;
        self.commit(tx).await?;
        Ok(delivery)
    }

    async fn list_deliveries(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        status: Option<DeliveryStatus>,
        page: PageRequest,
    ) -> StoreResult<Page<Delivery>> {
        if self.get_webhook_endpoint(tenant, endpoint_id).await?.is_none() {
            return Err(StoreError::NotFound);
        }
        let status = status.map(DeliveryStatus::as_str);
        self.list_page(
            page,
            Total::Count("SELECT COUNT(*) FROM webhook_deliveries d"),
            concat!("SELECT ", delivery_columns!(), " FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id"),
            "d",
            move |qb| push_tenant_filters(qb, "d", tenant, &[("endpoint_id", Some(endpoint_id)), ("status", status)]),
            delivery_from_row,
        )
        .await
    }

    async fn get_delivery(&self, tenant: &Tenant, endpoint_id: &str, id: &str) -> StoreResult<Option<Delivery>> {
        let mut conn = self.reader().acquire().await?;
        Ok(delivery_of(&mut conn, tenant, id).await?.filter(|d| d.endpoint_id == endpoint_id))
    }

    async fn retry_delivery(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        id: &str,
        now: Timestamp,
        idempotency: Option<IdempotentResponse<'_, Delivery>>,
    ) -> StoreResult<Delivery> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let row = sqlx::query(concat!(
            "SELECT lease_token, status, next_attempt_at FROM webhook_deliveries
             WHERE id = $1 AND endpoint_id = $2 AND org_id = $3 AND env = $4",
            for_update!()
        ))
        .bind(id)
        .bind(endpoint_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
        let lease: Option<String> = row.try_get("lease_token")?;
        let in_flight = lease.is_some() && row.try_get::<i64, _>("next_attempt_at")? > now.as_millis();
        if !in_flight {
            sqlx::query(
                "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $1, lease_token = NULL, updated_at = $1
                 WHERE id = $2",
            )
            .bind(now.as_millis())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        let delivery = delivery_by_id(&mut tx, id).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &delivery).await?;
        Ok(delivery)
    }

    async fn recover_deliveries(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        since: Timestamp,
        until: Timestamp,
        now: Timestamp,
        idempotency: Option<IdempotentResponse<'_, u64>>,
    ) -> StoreResult<u64> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        lock_tenant_row(&mut tx, "webhook_endpoints", tenant, endpoint_id).await?;
        let recovered = sqlx::query(
            "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $1, lease_token = NULL, updated_at = $1
             WHERE endpoint_id = $2 AND status = 'failed' AND created_at >= $3 AND created_at < $4",
        )
        .bind(now.as_millis())
        .bind(endpoint_id)
        .bind(since.as_millis())
        .bind(until.as_millis())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &recovered).await?;
        Ok(recovered)
    }

    async fn delivery_attempts(&self, tenant: &Tenant, delivery_id: &str) -> StoreResult<Vec<DeliveryAttempt>> {
        let rows = sqlx::query(
            "SELECT a.attempt_number, a.at, a.http_status, a.error, a.duration_ms, a.response_body
             FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
             WHERE d.id = $1 AND d.org_id = $2 AND d.env = $3 ORDER BY a.attempt_number",
        )
        .bind(delivery_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(attempt_of_delivery).collect()
    }
}
