// Webhook endpoints and deliveries, for both backends; included after `shared.rs`.

use crate::webhooks::{DueDelivery, WebhookStore};
use lajan_domain::webhook::{
    Delivery, DeliveryAttempt, DeliveryOutcome as WebhookOutcome, DeliveryStatus, EndpointPatch, WebhookEndpoint,
    subscribed,
};

macro_rules! endpoint_columns {
    () => {
        "w.id, w.url, w.description, w.secret, w.enabled, w.created_at, w.updated_at"
    };
}

macro_rules! delivery_columns {
    () => {
        "d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.status, d.attempts, d.next_attempt_at,
         d.created_at, d.updated_at"
    };
}

fn endpoint_from_row(row: &DbRow) -> StoreResult<WebhookEndpoint> {
    Ok(WebhookEndpoint {
        id: row.try_get("id")?,
        url: row.try_get("url")?,
        events: Vec::new(),
        description: row.try_get("description")?,
        enabled: row.try_get("enabled")?,
        secret: row.try_get("secret")?,
        created_at: ts(row.try_get("created_at")?),
        updated_at: ts(row.try_get("updated_at")?),
    })
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

/// The subscriptions of each of `endpoints`, in place.
async fn with_subscriptions(
    conn: &mut <Db as sqlx::Database>::Connection,
    endpoints: &mut [WebhookEndpoint],
) -> StoreResult<()> {
    for endpoint in endpoints {
        endpoint.events =
            sqlx::query_scalar("SELECT pattern FROM webhook_subscriptions WHERE endpoint_id = $1 ORDER BY pattern")
                .bind(&endpoint.id)
                .fetch_all(&mut *conn)
                .await?;
    }
    Ok(())
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

/// The endpoint `id` of `tenant`, with its subscriptions.
async fn endpoint_of(
    conn: &mut <Db as sqlx::Database>::Connection,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<WebhookEndpoint>> {
    let row = sqlx::query(concat!(
        "SELECT ",
        endpoint_columns!(),
        " FROM webhook_endpoints w WHERE w.org_id = $1 AND w.env = $2 AND w.id = $3"
    ))
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let mut found = [endpoint_from_row(&row)?];
    with_subscriptions(conn, &mut found).await?;
    let [endpoint] = found;
    Ok(Some(endpoint))
}

/// Replaces the subscriptions of endpoint `id` with `patterns`.
async fn subscribe(tx: &mut Tx, id: &str, patterns: &[String]) -> StoreResult<()> {
    sqlx::query("DELETE FROM webhook_subscriptions WHERE endpoint_id = $1").bind(id).execute(&mut **tx).await?;
    let mut patterns: Vec<&String> = patterns.iter().collect();
    patterns.sort();
    patterns.dedup();
    for pattern in patterns {
        sqlx::query("INSERT INTO webhook_subscriptions (endpoint_id, pattern) VALUES ($1, $2)")
            .bind(id)
            .bind(pattern)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
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

#[async_trait]
impl WebhookStore for ThisStore {
    async fn create_webhook_endpoint(
        &self,
        tenant: &Tenant,
        e: &WebhookEndpoint,
        idempotency: Option<IdempotentResponse<'_, WebhookEndpoint>>,
    ) -> StoreResult<WebhookEndpoint> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        sqlx::query(
            "INSERT INTO webhook_endpoints (id, org_id, env, url, description, secret, enabled, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&e.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(&e.url)
        .bind(&e.description)
        .bind(&e.secret)
        .bind(e.enabled)
        .bind(e.created_at.as_millis())
        .bind(e.updated_at.as_millis())
        .execute(&mut *tx)
        .await?;
        subscribe(&mut tx, &e.id, &e.events).await?;
        let mut created = e.clone();
        created.events.sort();
        created.events.dedup();
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &created).await?;
        Ok(created)
    }

    async fn get_webhook_endpoint(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<WebhookEndpoint>> {
        let mut conn = self.reader().acquire().await?;
        endpoint_of(&mut conn, tenant, id).await
    }

    async fn list_webhook_endpoints(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<WebhookEndpoint>> {
        let mut listed = self
            .list_page(
                page,
                Total::Count("SELECT COUNT(*) FROM webhook_endpoints w"),
                concat!("SELECT ", endpoint_columns!(), " FROM webhook_endpoints w"),
                "w",
                move |qb| push_tenant_filters(qb, "w", tenant, &[]),
                endpoint_from_row,
            )
            .await?;
        let mut conn = self.reader().acquire().await?;
        with_subscriptions(&mut conn, &mut listed.items).await?;
        Ok(listed)
    }

    async fn update_webhook_endpoint(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: &EndpointPatch,
        at: Timestamp,
    ) -> StoreResult<WebhookEndpoint> {
        let mut tx = self.begin_write().await?;
        lock_tenant_row(&mut tx, "webhook_endpoints", tenant, id).await?;
        let before = endpoint_of(&mut tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        let mut after = patch.apply(&before, at);
        sqlx::query("UPDATE webhook_endpoints SET url = $1, description = $2, enabled = $3, updated_at = $4 WHERE id = $5")
            .bind(&after.url)
            .bind(&after.description)
            .bind(after.enabled)
            .bind(after.updated_at.as_millis())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if after.events != before.events {
            subscribe(&mut tx, id, &after.events).await?;
            after.events.sort();
            after.events.dedup();
        }
        self.commit(tx).await?;
        Ok(after)
    }

    async fn send_test_event(
        &self,
        tenant: &Tenant,
        endpoint_id: &str,
        at: Timestamp,
        event: EventFor<'_, WebhookEndpoint>,
        idempotency: Option<IdempotentResponse<'_, Delivery>>,
    ) -> StoreResult<Delivery> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        lock_tenant_row(&mut tx, "webhook_endpoints", tenant, endpoint_id).await?;
        let endpoint = endpoint_of(&mut tx, tenant, endpoint_id).await?.ok_or(StoreError::NotFound)?;
        if !endpoint.enabled {
            return Err(StoreError::Rejected(Invalid::new(
                "endpoint_disabled",
                "This endpoint is disabled: enable it (PUT with \"enabled\": true) before sending it a test event",
            )));
        }
        let event_id = insert_event_row(&mut tx, tenant, at, &event(&endpoint)).await?;
        let id = IdKind::Delivery.generate();
        sqlx::query(
            "INSERT INTO webhook_deliveries (id, endpoint_id, event_id, org_id, env, status, attempts, next_attempt_at,
                                             created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7, $7)",
        )
        .bind(&id)
        .bind(endpoint_id)
        .bind(&event_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(DeliveryStatus::Pending.as_str())
        .bind(at.as_millis())
        .execute(&mut *tx)
        .await?;
        let delivery = delivery_of(&mut tx, tenant, &id).await?.ok_or(StoreError::NotFound)?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &delivery).await?;
        Ok(delivery)
    }

    async fn delete_webhook_endpoint(&self, tenant: &Tenant, id: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        lock_tenant_row(&mut tx, "webhook_endpoints", tenant, id).await?;
        // Children first: SQLite enforces foreign keys only when asked, so cascades are spelled out.
        sqlx::query(
            "DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1)",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        for table in ["webhook_deliveries", "webhook_subscriptions"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE endpoint_id = $1")).bind(id).execute(&mut *tx).await?;
        }
        sqlx::query("DELETE FROM webhook_endpoints WHERE id = $1").bind(id).execute(&mut *tx).await?;
        self.commit(tx).await
    }

    async fn claim_deliveries(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<DueDelivery>> {
        let mut tx = self.begin_write().await?;
        let lease = IdKind::Lease.generate();
        let ids: Vec<String> = sqlx::query_scalar(concat!(
            "UPDATE webhook_deliveries SET lease_token = $1, next_attempt_at = $2
             WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $3
                          ORDER BY next_attempt_at, id LIMIT $4",
            skip_locked!(),
            ") RETURNING id"
        ))
        .bind(&lease)
        .bind(now.as_millis() + lease_ms)
        .bind(now.as_millis())
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        let mut claimed = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = sqlx::QueryBuilder::new(concat!(
                "SELECT ",
                delivery_columns!(),
                ", d.org_id, d.env, w.url, w.secret, ev.created_at AS event_created_at, ev.data AS event_data
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
                    secret: row.try_get("secret")?,
                    event_created_at: ts(row.try_get("event_created_at")?),
                    event_data: row.try_get("event_data")?,
                });
            }
        }
        tx.commit().await?;
        Ok(claimed)
    }

    async fn finish_delivery(
        &self,
        id: &str,
        lease: &str,
        attempt: &DeliveryAttempt,
        outcome: &WebhookOutcome,
    ) -> StoreResult<Delivery> {
        let mut tx = self.begin_write().await?;
        let holder: Option<Option<String>> = sqlx::query_scalar(concat!(
            "SELECT lease_token FROM webhook_deliveries WHERE id = $1 AND status = 'pending'",
            for_update!()
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let number: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(attempt_number), 0) + 1 FROM webhook_attempts WHERE delivery_id = $1")
                .bind(id)
                .fetch_one(&mut *tx)
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
        .execute(&mut *tx)
        .await?;
        if holder.flatten().as_deref() == Some(lease) {
            let (status, next) = match outcome {
                WebhookOutcome::Delivered => (DeliveryStatus::Delivered, attempt.at),
                WebhookOutcome::Retry { retry_at } => (DeliveryStatus::Pending, *retry_at),
                WebhookOutcome::Failed => (DeliveryStatus::Failed, attempt.at),
            };
            sqlx::query(
                "UPDATE webhook_deliveries SET status = $1, next_attempt_at = $2, attempts = $3, updated_at = $4,
                        lease_token = NULL
                 WHERE id = $5",
            )
            .bind(status.as_str())
            .bind(next.as_millis())
            .bind(number)
            .bind(attempt.at.as_millis())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        let row = sqlx::query(concat!(
            "SELECT ",
            delivery_columns!(),
            " FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id WHERE d.id = $1"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
        let delivery = delivery_from_row(&row)?;
        self.commit(tx).await?;
        Ok(delivery)
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
