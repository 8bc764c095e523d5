// Webhook endpoints, for both backends; included after `deliveries/sql.rs`.

use crate::webhooks::WebhookStore;
use lajan_domain::webhook::EndpointPatch;

macro_rules! endpoint_columns {
    () => {
        "w.id, w.url, w.description, w.secret, w.enabled, w.created_at, w.updated_at"
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

/// The subscriptions of each of `endpoints` (a page at most), in place, in one query.
async fn with_subscriptions(
    conn: &mut Conn,
    endpoints: &mut [WebhookEndpoint],
) -> StoreResult<()> {
    if endpoints.is_empty() {
        return Ok(());
    }
    let mut qb = QueryBuilder::new("SELECT endpoint_id, pattern FROM webhook_subscriptions WHERE endpoint_id IN");
    push_bind_list(&mut qb, endpoints.iter().map(|endpoint| endpoint.id.clone()));
    qb.push(" ORDER BY endpoint_id, pattern");
    let mut patterns: std::collections::HashMap<String, Vec<String>> = std::collections::HashMap::new();
    for row in qb.build().fetch_all(&mut *conn).await? {
        patterns.entry(row.try_get("endpoint_id")?).or_default().push(row.try_get("pattern")?);
    }
    for endpoint in endpoints {
        endpoint.events = patterns.remove(&endpoint.id).unwrap_or_default();
    }
    Ok(())
}

/// The endpoint `id` of `tenant`, with its subscriptions.
async fn endpoint_of(
    conn: &mut Conn,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<WebhookEndpoint>> {
    let row = query(concat!(
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
    query("DELETE FROM webhook_subscriptions WHERE endpoint_id = $1").bind(id).execute(&mut **tx).await?;
    let mut patterns: Vec<&String> = patterns.iter().collect();
    patterns.sort();
    patterns.dedup();
    for pattern in patterns {
        query("INSERT INTO webhook_subscriptions (endpoint_id, pattern) VALUES ($1, $2)")
            .bind(id)
            .bind(pattern)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
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
        query(
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
                tenant,
                &page,
                Listing {
                    table: "webhook_endpoints",
                    alias: "w",
                    select: concat!("SELECT ", endpoint_columns!(), " FROM webhook_endpoints w"),
                    total: self.list_count(tenant, "webhook_endpoints", "", None).await?,
                },
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
        // Enabling again starts the five days of silence over.
        query(
            "UPDATE webhook_endpoints SET url = $1, description = $2, enabled = $3, updated_at = $4,
                    failing_since = CASE WHEN $3 AND NOT enabled THEN NULL ELSE failing_since END
             WHERE id = $5",
        )
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
        query(
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

    async fn rotate_webhook_secret(
        &self,
        tenant: &Tenant,
        id: &str,
        secret: &str,
        at: Timestamp,
        previous_until: Timestamp,
        idempotency: Option<IdempotentResponse<'_, WebhookEndpoint>>,
    ) -> StoreResult<WebhookEndpoint> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        lock_tenant_row(&mut tx, "webhook_endpoints", tenant, id).await?;
        query(
            "UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $1, secret = $2, updated_at = $3
             WHERE id = $4",
        )
        .bind(previous_until.as_millis())
        .bind(secret)
        .bind(at.as_millis())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let endpoint = endpoint_of(&mut tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &endpoint).await?;
        Ok(endpoint)
    }

    async fn delete_webhook_endpoint(&self, tenant: &Tenant, id: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        lock_tenant_row(&mut tx, "webhook_endpoints", tenant, id).await?;
        // Children first: SQLite enforces foreign keys only when asked, so cascades are spelled out.
        query(
            "DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1)",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        for table in ["webhook_deliveries", "webhook_subscriptions"] {
            query(&format!("DELETE FROM {table} WHERE endpoint_id = $1")).bind(id).execute(&mut *tx).await?;
        }
        query("DELETE FROM webhook_endpoints WHERE id = $1").bind(id).execute(&mut *tx).await?;
        // Its deliveries' counts go with them (migration 0060 counts no deletion of a delivery).
        query("DELETE FROM list_counts WHERE org_id = $1 AND env = $2 AND list = 'deliveries' AND scope = $3")
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await
    }

}
