// What every area's SQL shares, compiled once per backend: `sqlite.rs` and `postgres.rs` each
// define `Conn`, `DbRow`, `Tx`, `Single`, `QueryBuilder`, `Exec`, `query`, `query_scalar`,
// `ThisStore` (with `reader()`, `begin_write()`, `begin_single()`, `end_single()`,
// `begin_counters()`, `run_migrations()`, `fail`, `lock_bootstrap()`, `lock_name()`, `close_pools()`,
// `compact_count_deltas()`, `BACKEND`), `migrator()` and the `for_update!()` and
// `skip_locked!()` macros, then include this file and after it one
// `<area>_sql.rs` per area. All of them land in one module, so an import two areas need is made
// here (importing it twice would not compile). Placeholders are `$N`, which both SQLite and
// PostgreSQL accept.

use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::payment::PaymentLink;
use crate::{EventFor, IdempotentResponse, NewEvent, Store};
use async_trait::async_trait;
use lajan_domain::id::IdKind;
use lajan_domain::invoice::{InvoiceAction, transition};
use lajan_domain::money::TaxRate;
use lajan_domain::pagination::{Cursor, Page, PageRequest};
use lajan_domain::payment::{IncomingPayment, IntentStatus, PaymentIntent};
use lajan_domain::{Actor, Environment, Tenant, Timestamp};

/// Rows per multi-row statement (an INSERT of many rows, an `IN` list): well under both
/// backends' limit on bound parameters.
const ROWS_PER_STATEMENT: usize = 1000;


fn corrupt(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

fn env_of(row: &DbRow) -> StoreResult<Environment> {
    row.try_get::<String, _>("env")?.parse().map_err(corrupt)
}

/// The actor of a row with `actor_type` and `actor_id` columns.
fn actor_of(row: &DbRow) -> StoreResult<Actor> {
    Actor::from_parts(&row.try_get::<String, _>("actor_type")?, row.try_get("actor_id")?).map_err(corrupt)
}

/// The actor of a later change a row records in the nullable columns `kind` and `id` (who
/// reversed a payment, who voided a credit note), read when the change's time says it was made.
fn later_actor(row: &DbRow, kind: &str, id: &str) -> StoreResult<Actor> {
    let kind = row.try_get::<Option<String>, _>(kind)?.unwrap_or_default();
    Actor::from_parts(&kind, row.try_get::<Option<String>, _>(id)?.unwrap_or_default()).map_err(corrupt)
}

fn ts(ms: i64) -> Timestamp {
    Timestamp::from_millis(ms)
}

fn opt_ts(ms: Option<i64>) -> Option<Timestamp> {
    ms.map(Timestamp::from_millis)
}

/// A stored wallet that may not be there yet (a payout or item whose client has none).
fn wallet_of(stored: Option<String>) -> StoreResult<Option<lajan_domain::client::WalletAddress>> {
    stored.map(|w| lajan_domain::client::WalletAddress::parse(&w).map_err(corrupt)).transpose()
}

fn page_params(page: &PageRequest) -> StoreResult<(i64, i64)> {
    let offset = i64::try_from(page.offset()).map_err(|_| corrupt("page offset out of range"))?;
    Ok((i64::from(page.limit), offset))
}

/// ` LIMIT n` and, past the first page, ` OFFSET ?`. The page size is written into the statement
/// (an integer, one of a hundred): PostgreSQL costs a generic plan with `LIMIT $n` as if it read
/// a tenth of the rows, so it kept planning each page afresh (~0.4 ms of planning for ~0.3 ms of
/// execution per 20-row list).
/// `extra` rows past the page are read too (one tells whether another page follows).
fn push_page(qb: &mut QueryBuilder<'_>, page: &PageRequest, extra: i64) -> StoreResult<()> {
    let (limit, offset) = page_params(page)?;
    qb.push(format_args!(" LIMIT {}", limit + extra));
    if offset > 0 {
        qb.push(" OFFSET ").push_bind(offset);
    }
    Ok(())
}

fn count_of(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// ` WHERE a.org_id = ? AND a.env = ?`, then ` AND a.col = ?` for each filter given, for lists
/// built with a `QueryBuilder`: leaving out the filters not given lets the planner pick the index
/// the others match (`($n IS NULL OR col = $n)` made it scan every row of the tenant).
fn push_tenant_filters<'a>(
    qb: &mut QueryBuilder<'a>,
    alias: &str,
    tenant: &'a Tenant,
    filters: &[(&str, Option<&'a str>)],
) {
    qb.push(format_args!(" WHERE {alias}.org_id = ")).push_bind(&tenant.org_id);
    qb.push(format_args!(" AND {alias}.env = ")).push_bind(tenant.env.as_str());
    for (column, value) in filters {
        if let Some(value) = value {
            qb.push(format_args!(" AND {alias}.{column} = ")).push_bind(*value);
        }
    }
}

/// ` (?, ?, ...)`: `values` as a parenthesised list of binds, for an `IN`.
fn push_bind_list(qb: &mut QueryBuilder<'_>, values: impl IntoIterator<Item = String>) {
    qb.push(" (");
    let mut list = qb.separated(", ");
    for value in values {
        list.push_bind(value);
    }
    qb.push(")");
}

/// ` AND {alias}.id IN (?, ...)`: only the rows `ids` names (none when it names none).
fn push_among(qb: &mut QueryBuilder<'_>, alias: &str, ids: &[String]) {
    if ids.is_empty() {
        qb.push(" AND 1 = 0");
    } else {
        qb.push(format_args!(" AND {alias}.id IN"));
        push_bind_list(qb, ids.iter().cloned());
    }
}

/// `invalid_pagination`: the cursor `field` names no item of the list.
fn not_in_list(field: &str) -> StoreError {
    StoreError::Rejected(lajan_domain::Invalid {
        code: "invalid_pagination",
        message: format!("{field} is not the id of an item in this list"),
        details: vec![lajan_domain::FieldError::new(field, "is not the id of an item in this list")],
    })
}

/// Where a list's total comes from.
enum Total {
    /// Counted, up to the store's bound, from the rows the filter matches: the `FROM` of that
    /// count (the table and what the filter refers to, e.g. `clients c`).
    Matching(&'static str),
    /// Already known: from the count tables triggers keep (migrations 0006 and 0060).
    Known(u64),
    /// Not counted but estimated (from a search's trigram index, or the count bound when more
    /// match): the page says so.
    Estimate(u64),
}

/// What [`ThisStore::list_page`] lists.
struct Listing {
    /// The table of the listed rows, where a cursor's row is looked up.
    table: &'static str,
    /// The alias of `table` in `select` and in the filter.
    alias: &'static str,
    /// The page's query up to its WHERE.
    select: &'static str,
    total: Total,
}

/// Takes the row lock (where the backend has row locks) on the tenant's row `id` of `table`,
/// before the caller reads it whole; `NotFound` when the tenant has no such row.
async fn lock_tenant_row(tx: &mut Tx, table: &'static str, tenant: &Tenant, id: &str) -> StoreResult<()> {
    let sql = format!(concat!("SELECT id FROM {} WHERE org_id = $1 AND env = $2 AND id = $3", for_update!()), table);
    query(&sql)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)?;
    Ok(())
}

/// Writes `event` in the caller's transaction, with its webhook deliveries: the outbox half of
/// every change.
async fn insert_event(tx: &mut Tx, tenant: &Tenant, at: Timestamp, event: &NewEvent) -> StoreResult<()> {
    let id = insert_event_row(tx, tenant, at, event).await?;
    fan_out(tx, tenant, at, &[(id, event.event_type)]).await
}

/// [`insert_event`] with the webhook endpoints read earlier in the transaction.
async fn insert_event_to(
    tx: &mut Tx,
    tenant: &Tenant,
    at: Timestamp,
    event: &NewEvent,
    targets: &WebhookTargets,
) -> StoreResult<()> {
    let id = insert_event_row(tx, tenant, at, event).await?;
    fan_out_to(tx, tenant, at, &[(id, event.event_type)], targets).await
}

/// Writes `event` alone, without deliveries; returns its id.
async fn insert_event_row(tx: &mut Tx, tenant: &Tenant, at: Timestamp, event: &NewEvent) -> StoreResult<String> {
    let data = serde_json::json!({ "object": event.object }).to_string();
    let id = IdKind::Event.generate();
    query(
        "INSERT INTO events (id, org_id, env, type, created_at, data, object_id, actor_type, actor_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(event.event_type)
    .bind(at.as_millis())
    .bind(data)
    .bind(event.object_id())
    .bind(tenant.actor.kind())
    .bind(tenant.actor.id())
    .execute(&mut **tx)
        .await?;
    Ok(id)
}

impl ThisStore {
    /// Commits a change to a resource (with the `Idempotency-Key` it claimed), unless a test
    /// armed the fault point, in which case it rolls back. Bookkeeping writes (key usage,
    /// answers recorded without a change, rate-limit windows) commit directly so the fault lands
    /// on the change under test.
    async fn commit(&self, tx: Tx) -> StoreResult<()> {
        self.fail.check()?;
        tx.commit().await?;
        Ok(())
    }

    /// One page of a list, newest first, and its total: the shape of every list. The count and
    /// the page both take `filter` (the WHERE clause), so the total counts exactly what the pages
    /// show. `listing` names the table (where a cursor's row is found), the page's query up to
    /// its WHERE and its alias there, and where the total comes from.
    ///
    /// A page by number reads `limit + 1` rows from its offset; a cursor page the `limit + 1`
    /// rows on its side of the cursor's position through the same index, so the last page of a
    /// million rows costs what the first does. The extra row only says `has_more`.
    async fn list_page<'a, T>(
        &self,
        tenant: &Tenant,
        request: &PageRequest,
        listing: Listing,
        filter: impl Fn(&mut QueryBuilder<'a>),
        from_row: fn(&DbRow) -> StoreResult<T>,
    ) -> StoreResult<Page<T>> {
        let Listing { table, alias, select, total } = listing;
        let after = match &request.cursor {
            None => None,
            Some(Cursor::After(id)) => Some((self.cursor_at(tenant, table, id, "startingAfter").await?, true)),
            Some(Cursor::Before(id)) => Some((self.cursor_at(tenant, table, id, "endingBefore").await?, false)),
        };
        let mut qb = QueryBuilder::new(select);
        filter(&mut qb);
        // Newest first is highest position first: the order the rows' transactions committed
        // (migrations 0069 and 0071), so a page never ends above a row one in flight will add.
        let mut newest_first = true;
        if let Some((position, older)) = after {
            let (past, direction) = if older { ("<", "DESC") } else { (">", "ASC") };
            newest_first = older;
            qb.push(format_args!(" AND {alias}.position {past} ")).push_bind(position);
            qb.push(format_args!(" ORDER BY {alias}.position {direction}"));
            qb.push(format_args!(" LIMIT {}", request.limit + 1));
        } else {
            qb.push(format_args!(" ORDER BY {alias}.position DESC"));
            push_page(&mut qb, request, 1)?;
        }
        let rows = qb.build().fetch_all(self.reader()).await?;
        let has_more = rows.len() > request.limit as usize;
        let mut items = rows.iter().take(request.limit as usize).map(from_row).collect::<StoreResult<Vec<_>>>()?;
        if !newest_first {
            items.reverse();
        }
        let (total, total_is_estimate) = match total {
            Total::Known(total) => (total, false),
            Total::Estimate(total) => (total, true),
            // A numbered page holding the last match says the total itself (what a search of a
            // few rows almost always gets): no second pass over the matches.
            Total::Matching(_) if after.is_none() && !has_more && (!items.is_empty() || request.page <= 1) => {
                let (_, offset) = page_params(request)?;
                (count_of(offset) + items.len() as u64, false)
            }
            Total::Matching(from) => {
                let bound = self.bounds.get();
                let mut qb = QueryBuilder::new(format!("SELECT COUNT(*) FROM (SELECT 1 FROM {from}"));
                filter(&mut qb);
                qb.push(format_args!(" LIMIT {}) AS matching", bound.saturating_add(1)));
                let counted = count_of(qb.build_query_scalar().fetch_one(self.reader()).await?);
                if counted > bound { (bound, true) } else { (counted, false) }
            }
        };
        Ok(Page { items, total, total_is_estimate, has_more, request: request.clone() })
    }

    /// The total the count tables keep (migration 0060) of the tenant's `list` under `scope`
    /// ('' when it has none), of one `bucket` (a status, a type) when given.
    async fn list_count(&self, tenant: &Tenant, list: &str, scope: &str, bucket: Option<&str>) -> StoreResult<Total> {
        let total: i64 = query_scalar(
            "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM list_counts
             WHERE org_id = $1 AND env = $2 AND list = $3 AND scope = $4 AND ($5 IS NULL OR bucket = $5)",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(list)
        .bind(scope)
        .bind(bucket)
        .fetch_one(self.reader())
        .await?;
        Ok(Total::Known(count_of(total)))
    }

    /// The position of the row a cursor names, in the tenant's `table`; `invalid_pagination`
    /// naming `field` when there is none.
    async fn cursor_at(&self, tenant: &Tenant, table: &str, id: &str, field: &str) -> StoreResult<i64> {
        let sql = format!("SELECT position FROM {table} WHERE org_id = $1 AND env = $2 AND id = $3");
        let at: Option<Option<i64>> = query_scalar(&sql)
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(id)
            .fetch_optional(self.reader())
            .await?;
        at.flatten().ok_or_else(|| not_in_list(field))
    }
}

#[async_trait]
impl Store for ThisStore {
    fn backend(&self) -> Backend {
        Self::BACKEND
    }

    async fn migrate(&self) -> StoreResult<()> {
        self.run_migrations().await
    }

    async fn ping(&self) -> StoreResult<()> {
        query("SELECT 1").execute(self.reader()).await?;
        Ok(())
    }

    async fn backup_to(&self, to: &std::path::Path) -> StoreResult<()> {
        if Self::BACKEND != Backend::Sqlite {
            return Err(StoreError::Config(
                "lajan backup copies SQLite databases; back PostgreSQL up with pg_dump or point-in-time recovery".into(),
            ));
        }
        let target = to.to_str().ok_or_else(|| StoreError::Config(format!("{} is not a UTF-8 path", to.display())))?;
        if to.exists() {
            return Err(StoreError::Config(format!("{} exists already: back up into a new file", to.display())));
        }
        // One statement in one read transaction: every write committed before it began is in
        // the copy, none after, and writers are not held up (WAL).
        query("VACUUM INTO $1").bind(target).execute(self.reader()).await?;
        Ok(())
    }

    async fn pending_migrations(&self) -> StoreResult<Vec<(i64, String)>> {
        // sqlx keeps what it applied in `_sqlx_migrations`; a failed attempt is not applied.
        let rows = query("SELECT version, success FROM _sqlx_migrations").fetch_all(self.reader()).await?;
        let mut applied = std::collections::HashSet::new();
        for row in rows {
            if row.try_get::<bool, _>("success")? {
                applied.insert(row.try_get::<i64, _>("version")?);
            }
        }
        Ok(migrator()
            .await?
            .iter()
            .filter(|m| !m.migration_type.is_down_migration() && !applied.contains(&m.version))
            .map(|m| (m.version, m.description.to_string()))
            .collect())
    }

    async fn close(&self) {
        self.close_pools().await;
    }

    #[cfg(feature = "testing")]
    fn fail_next_commit(&self) {
        self.fail.arm();
    }

    #[cfg(feature = "testing")]
    fn bound_counts_at(&self, bound: u64) {
        self.bounds.set(bound);
    }

    #[cfg(feature = "testing")]
    fn sample_searches_at(&self, rows: u64, hits: u64) {
        self.bounds.set_sample(rows, hits);
    }
}
