// Payment links, for both backends; included after `shared.rs` and `incoming_payments/sql.rs` (a
// link row joins its intent).

use crate::PaymentLinkStore;
use crate::payment_links::LinkDraft;

macro_rules! link_select {
    () => {
        concat!(
            "SELECT l.id, l.amount, l.currency, l.description, l.created_at, l.expires_at, ",
            intent_columns!("p"),
            " FROM payment_links l JOIN payment_intents p ON p.id = l.payment_intent_id"
        )
    };
}

fn link_from_row(row: &DbRow) -> StoreResult<PaymentLink> {
    Ok(PaymentLink {
        id: row.try_get("id")?,
        amount: row.try_get("amount")?,
        currency: row.try_get::<String, _>("currency")?.parse().map_err(corrupt)?,
        description: row.try_get("description")?,
        created_at: ts(row.try_get("created_at")?),
        expires_at: opt_ts(row.try_get("expires_at")?),
        intent: intent_from_row(row)?,
    })
}

/// The payment link `id` of `tenant`, read through a pool or inside a transaction.
async fn read_link<'e, E: Exec<'e>>(
    ex: E,
    tenant: &Tenant,
    id: &str,
) -> StoreResult<Option<PaymentLink>> {
    let row = query(concat!(link_select!(), " WHERE l.org_id = $1 AND l.env = $2 AND l.id = $3"))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(link_from_row).transpose()
}

#[async_trait]
impl PaymentLinkStore for ThisStore {
    async fn create_payment_link(
        &self,
        tenant: &Tenant,
        draft: LinkDraft<'_>,
        event: EventFor<'_, PaymentLink>,
        idempotency: Option<IdempotentResponse<'_, PaymentLink>>,
    ) -> StoreResult<PaymentLink> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let link = draft(&settings_in(&mut tx, tenant).await?);
        query(
            "INSERT INTO payment_links (id, org_id, env, amount, currency, description, payment_intent_id, created_at,
                                        expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&link.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(link.amount)
        .bind(link.currency.code())
        .bind(&link.description)
        .bind(&link.intent.id)
        .bind(link.created_at.as_millis())
        .bind(link.expires_at.map(Timestamp::as_millis))
        .execute(&mut *tx)
        .await?;
        insert_intent(&mut tx, &link.intent).await?;
        insert_event(&mut tx, tenant, link.created_at, &event(&link)).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &link).await?;
        Ok(link)
    }

    async fn get_payment_link(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<PaymentLink>> {
        let row = query(concat!(
            link_select!(),
            " WHERE l.org_id = $1 AND l.env = $2 AND l.id = $3 AND l.deleted_at IS NULL"
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(self.reader())
        .await?;
        row.as_ref().map(link_from_row).transpose()
    }

    async fn list_payment_links(&self, tenant: &Tenant, page: PageRequest) -> StoreResult<Page<PaymentLink>> {
        let listing = Listing {
            table: "payment_links",
            alias: "l",
            select: link_select!(),
            total: self.list_count(tenant, "payment_links", "", None).await?,
        };
        self.list_page(
            tenant,
            &page,
            listing,
            move |qb| {
                push_tenant_filters(qb, "l", tenant, &[]);
                qb.push(" AND l.deleted_at IS NULL");
            },
            link_from_row,
        )
        .await
    }

    async fn delete_payment_link(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, PaymentLink>,
    ) -> StoreResult<PaymentLink> {
        let mut tx = self.begin_write().await?;
        let intent_id: String = query_scalar(concat!(
            "SELECT payment_intent_id FROM payment_links
             WHERE org_id = $1 AND env = $2 AND id = $3 AND deleted_at IS NULL",
            for_update!()
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
        let link = read_link(&mut *tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        if link.intent.effective_status(at) == IntentStatus::Active {
            set_intent_status(&mut tx, &intent_id, IntentStatus::Inactive, at).await?;
        }
        query("UPDATE payment_links SET deleted_at = $1 WHERE id = $2")
            .bind(at.as_millis())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let link = read_link(&mut *tx, tenant, id).await?.ok_or(StoreError::NotFound)?;
        insert_event(&mut tx, tenant, at, &event(&link)).await?;
        self.commit(tx).await?;
        Ok(link)
    }
}
