// Webhook deliveries, for both backends: the outbox fan-out, the dispatcher's claims and
// answers, and the listing and retry callers see. Included after `shared.rs` and before
// `webhooks/sql.rs`, which uses its macro.

use crate::deliveries::{ClaimLimits, DeliveryStore, DueDelivery};
use std::collections::BTreeMap;
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

/// The enabled webhook endpoints of a tenant, each with the event patterns it subscribes to.
type WebhookTargets = std::collections::BTreeMap<String, Vec<String>>;

/// Reads, in the caller's transaction, the endpoints `fan_out_to` delivers to.
async fn webhook_targets(tx: &mut Tx, tenant: &Tenant) -> StoreResult<WebhookTargets> {
    let rows = query(
        "SELECT w.id, s.pattern FROM webhook_endpoints w JOIN webhook_subscriptions s ON s.endpoint_id = w.id
         WHERE w.org_id = $1 AND w.env = $2 AND w.enabled",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_all(&mut **tx)
    .await?;
    let mut targets = WebhookTargets::new();
    for row in &rows {
        targets.entry(row.try_get("id")?).or_default().push(row.try_get("pattern")?);
    }
    Ok(targets)
}

/// The webhook half of the outbox: in the caller's transaction, one pending delivery per enabled
/// endpoint of `tenant` subscribed to each of `events` (id, type), due at once.
async fn fan_out(tx: &mut Tx, tenant: &Tenant, at: Timestamp, events: &[(String, &str)]) -> StoreResult<()> {
    let targets = webhook_targets(tx, tenant).await?;
    fan_out_to(tx, tenant, at, events, &targets).await
}

/// [`fan_out`] to endpoints read before.
async fn fan_out_to(
    tx: &mut Tx,
    tenant: &Tenant,
    at: Timestamp,
    events: &[(String, &str)],
    patterns: &WebhookTargets,
) -> StoreResult<()> {
    if patterns.is_empty() {
        return Ok(());
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
        let mut qb = QueryBuilder::new(
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
    conn: &mut Conn,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<Delivery>> {
    let row = query(concat!(
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

/// The enabled endpoints with a pending delivery due at `now`, the longest waiting first. Read
/// as a skip over the due index (one seek per endpoint with pending deliveries), so an endpoint's
/// backlog costs one seek, however long it is.
async fn due_endpoints<'c, E>(conn: E, now: Timestamp) -> StoreResult<Vec<String>>
where
    E: Exec<'c>,
{
    let rows = query(
        "WITH RECURSIVE pending (endpoint_id) AS (
             SELECT MIN(endpoint_id) FROM webhook_deliveries WHERE status = 'pending'
             UNION ALL
             SELECT (SELECT MIN(d.endpoint_id) FROM webhook_deliveries d
                     WHERE d.status = 'pending' AND d.endpoint_id > p.endpoint_id)
             FROM pending p WHERE p.endpoint_id IS NOT NULL
         )
         SELECT endpoint_id FROM (
             SELECT p.endpoint_id,
                    (SELECT MIN(d.next_attempt_at) FROM webhook_deliveries d
                     WHERE d.endpoint_id = p.endpoint_id AND d.status = 'pending') AS due_at
             FROM pending p JOIN webhook_endpoints w ON w.id = p.endpoint_id AND w.enabled
         ) due WHERE due_at <= $1 ORDER BY due_at, endpoint_id",
    )
    .bind(now.as_millis())
    .fetch_all(conn)
    .await?;
    rows.iter().map(|row| Ok(row.try_get("endpoint_id")?)).collect()
}

/// A delivery by id, whoever's it is (the dispatcher's view).
async fn delivery_by_id(tx: &mut Tx, id: &str) -> StoreResult<Delivery> {
    let row = query(concat!(
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
        limits: &ClaimLimits,
    ) -> StoreResult<Vec<DueDelivery>> {
        let due: Vec<String> = due_endpoints(self.reader(), now).await?;
        if !due.iter().any(|endpoint_id| limits.quota(endpoint_id) > 0) || limits.total == 0 {
            return Ok(Vec::new());
        }
        let mut tx = self.begin_write().await?;
        let lease = IdKind::Lease.generate();
        let mut ids: Vec<String> = Vec::new();
        for endpoint_id in &due {
            let quota = limits.quota(endpoint_id).min(limits.total - ids.len());
            if quota == 0 {
                continue;
            }
            // The endpoint test is a subquery, not a join: a join would make PostgreSQL lock the
            // endpoint row too, and a second dispatcher would skip every delivery of the endpoint.
            let claimed: Vec<String> = query_scalar(concat!(
                "UPDATE webhook_deliveries SET lease_token = $1, next_attempt_at = $2
                 WHERE id IN (SELECT d.id FROM webhook_deliveries d
                              WHERE d.endpoint_id = $3 AND d.status = 'pending' AND d.next_attempt_at <= $4
                              AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = d.endpoint_id AND w.enabled)
                              ORDER BY d.event_position, d.id LIMIT $5",
                skip_locked!(),
                ") RETURNING id"
            ))
            .bind(&lease)
            .bind(now.as_millis() + lease_ms)
            .bind(endpoint_id)
            .bind(now.as_millis())
            .bind(i64::try_from(quota).unwrap_or(i64::MAX))
            .fetch_all(&mut *tx)
            .await?;
            ids.extend(claimed);
            if ids.len() >= limits.total {
                break;
            }
        }
        let mut claimed = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new(concat!(
                "SELECT ",
                delivery_columns!(),
                ", d.org_id, d.env, w.url, w.secret, w.previous_secret, w.previous_secret_until,
                   ev.created_at AS event_created_at, ev.data AS event_data, ev.actor_type, ev.actor_id
                 FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
                 JOIN events ev ON ev.id = d.event_id WHERE d.id IN"
            ));
            push_bind_list(&mut qb, chunk.iter().cloned());
            for row in qb.build().fetch_all(&mut *tx).await? {
                claimed.push(DueDelivery {
                    lease: lease.clone(),
                    tenant: Tenant::new(row.try_get::<String, _>("org_id")?, env_of(&row)?),
                    delivery: delivery_from_row(&row)?,
                    url: row.try_get("url")?,
                    secrets: signing_secrets(&row, now)?,
                    event_created_at: ts(row.try_get("event_created_at")?),
                    event_data: row.try_get("event_data")?,
                    event_actor: actor_of(&row)?,
                });
            }
        }
        tx.commit().await?;
        Ok(claimed)
    }

    async fn release_deliveries(&self, lease: &str, ids: &[String], now: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        for chunk in ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new("UPDATE webhook_deliveries SET lease_token = NULL, next_attempt_at = ");
            qb.push_bind(now.as_millis()).push(" WHERE lease_token = ").push_bind(lease).push(" AND id IN");
            push_bind_list(&mut qb, chunk.iter().cloned());
            qb.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn finish_deliveries(
        &self,
        answers: &[Answered],
        disabled: EventFor<'_, WebhookEndpoint>,
    ) -> StoreResult<()> {
        if answers.is_empty() {
            return Ok(());
        }
        let mut tx = self.begin_write().await?;
        record_answers(&mut tx, answers, disabled).await?;
        self.commit(tx).await
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
        let listing = Listing {
            table: "webhook_deliveries",
            alias: "d",
            select: concat!("SELECT ", delivery_columns!(), " FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id"),
            total: self.list_count(tenant, "deliveries", endpoint_id, status).await?,
        };
        self.list_page(
            tenant,
            &page,
            listing,
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
        let row = query(concat!(
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
            query(
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
        let recovered = query(
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
        let rows = query(
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
