// The events list, for both backends; included after `shared.rs` (which writes events, in
// `insert_event`, for every area).

use crate::{EventQuery, EventStore};
use lajan_domain::event::Event;

macro_rules! event_columns {
    () => {
        "id, org_id, env, type, created_at, data, actor_type, actor_id"
    };
}

fn event_from_row(row: &DbRow) -> StoreResult<Event> {
    Ok(Event {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        env: env_of(row)?,
        event_type: row.try_get("type")?,
        created_at: ts(row.try_get("created_at")?),
        data: row.try_get("data")?,
        actor: actor_of(row)?,
    })
}

#[async_trait]
impl EventStore for ThisStore {
    async fn list_events(&self, tenant: &Tenant, q: &EventQuery) -> StoreResult<Page<Event>> {
        let (event_type, object_id) = (q.event_type.as_deref(), q.object_id.as_deref());
        let total = match object_id {
            None => self.list_count(tenant, "events", "", event_type).await?,
            Some(_) => Total::Matching("events e"),
        };
        let listing =
            Listing { table: "events", alias: "e", select: concat!("SELECT ", event_columns!(), " FROM events e"), total };
        self.list_page(
            tenant,
            &q.page,
            listing,
            move |qb| push_tenant_filters(qb, "e", tenant, &[("type", event_type), ("object_id", object_id)]),
            event_from_row,
        )
        .await
    }

    async fn get_event(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Event>> {
        let row = query(concat!(
            "SELECT ",
            event_columns!(),
            " FROM events WHERE org_id = $1 AND env = $2 AND id = $3"
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(self.reader())
        .await?;
        row.as_ref().map(event_from_row).transpose()
    }
}
