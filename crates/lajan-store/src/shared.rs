// The SQL both backends share, compiled once per backend: `sqlite.rs` and `postgres.rs` each
// define `Db`, `ThisStore` (with `reader()`, `begin_write()`, `fail`, `lock_bootstrap()`,
// `MIGRATOR`, `BACKEND`) and the `for_update!()` macro, then `include!` this file.
// Placeholders are `$N`, which both SQLite and PostgreSQL accept.

use crate::{
    ClientQuery, EventFor, EventQuery, IdempotencyClaim, IdempotencyState, IdempotentResponse, NewApiKey, NewEvent,
    Store,
};
use async_trait::async_trait;
use lajan_domain::apikey::ApiKey;
use lajan_domain::client::{Client, ClientPatch};
use lajan_domain::event::Event;
use lajan_domain::id::IdKind;
use lajan_domain::money::TaxRate;
use lajan_domain::org::Organization;
use lajan_domain::pagination::{Page, PageRequest};
use lajan_domain::settings::Settings;
use lajan_domain::{Environment, Tenant, Timestamp};
use sqlx::Row;

type DbRow = <Db as sqlx::Database>::Row;
type Tx = sqlx::Transaction<'static, Db>;

fn corrupt(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

fn env_of(row: &DbRow) -> StoreResult<Environment> {
    row.try_get::<String, _>("env")?.parse().map_err(corrupt)
}

fn ts(ms: i64) -> Timestamp {
    Timestamp::from_millis(ms)
}

fn opt_ts(ms: Option<i64>) -> Option<Timestamp> {
    ms.map(Timestamp::from_millis)
}

fn page_params(page: PageRequest) -> StoreResult<(i64, i64)> {
    let offset = i64::try_from(page.offset()).map_err(|_| corrupt("page offset out of range"))?;
    Ok((i64::from(page.limit), offset))
}

fn count_of(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// ` WHERE a.org_id = ? AND a.env = ?`, then ` AND a.col = ?` for each filter given, for lists
/// built with a `QueryBuilder`: leaving out the filters not given lets the planner pick the index
/// the others match (`($n IS NULL OR col = $n)` made it scan every row of the tenant).
fn push_tenant_filters<'a>(
    qb: &mut sqlx::QueryBuilder<'a, Db>,
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

/// `%term%` for LIKE, with the wildcard characters in the term escaped (ESCAPE '\').
fn like_pattern(term: &str) -> String {
    let mut p = String::with_capacity(term.len() + 2);
    p.push('%');
    for c in term.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

// Organizations and keys.

const ORG_COLUMNS: &str = "id, name, tier, created_at";

fn org_from_row(row: &DbRow) -> StoreResult<Organization> {
    Ok(Organization {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        tier: row.try_get::<String, _>("tier")?.parse().map_err(corrupt)?,
        created_at: ts(row.try_get("created_at")?),
    })
}

macro_rules! key_columns {
    () => {
        "k.id, k.org_id, k.env, k.name, k.hint, k.scopes, k.created_at, k.last_used_at, k.revoked_at"
    };
}

fn key_from_row(row: &DbRow) -> StoreResult<ApiKey> {
    let scopes: String = row.try_get("scopes")?;
    let scopes: Vec<&str> = scopes.split(' ').collect();
    Ok(ApiKey {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        env: env_of(row)?,
        name: row.try_get("name")?,
        hint: row.try_get("hint")?,
        scopes: lajan_domain::apikey::parse_scopes(&scopes).map_err(corrupt)?,
        created_at: ts(row.try_get("created_at")?),
        last_used_at: opt_ts(row.try_get("last_used_at")?),
        revoked_at: opt_ts(row.try_get("revoked_at")?),
    })
}

async fn insert_org(tx: &mut Tx, org: &Organization) -> StoreResult<()> {
    sqlx::query("INSERT INTO organizations (id, name, tier, created_at) VALUES ($1, $2, $3, $4)")
        .bind(&org.id)
        .bind(&org.name)
        .bind(org.tier.as_str())
        .bind(org.created_at.as_millis())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn insert_key(tx: &mut Tx, new: &NewApiKey) -> StoreResult<()> {
    let k = &new.key;
    let scopes: Vec<String> = k.scopes.iter().map(ToString::to_string).collect();
    sqlx::query(
        "INSERT INTO api_keys (id, org_id, env, name, hint, secret_hash, scopes, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&k.id)
    .bind(&k.org_id)
    .bind(k.env.as_str())
    .bind(&k.name)
    .bind(&k.hint)
    .bind(&new.secret_hash)
    .bind(scopes.join(" "))
    .bind(k.created_at.as_millis())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

// Clients.

macro_rules! client_columns {
    () => {
        "id, first_name, last_name, email, phone_number, wallet_account_id, created_at, updated_at, archived_at"
    };
}

fn client_from_row(row: &DbRow) -> StoreResult<Client> {
    Ok(Client {
        id: row.try_get("id")?,
        first_name: row.try_get("first_name")?,
        last_name: row.try_get("last_name")?,
        email: row.try_get("email")?,
        phone_number: row.try_get("phone_number")?,
        wallet_account_id: row.try_get("wallet_account_id")?,
        created_at: ts(row.try_get("created_at")?),
        updated_at: ts(row.try_get("updated_at")?),
        archived_at: opt_ts(row.try_get("archived_at")?),
    })
}

/// A client joined into another resource's row under `c_`-prefixed column names.
fn prefixed_client(row: &DbRow, id: String) -> StoreResult<Client> {
    Ok(Client {
        id,
        first_name: row.try_get("c_first_name")?,
        last_name: row.try_get("c_last_name")?,
        email: row.try_get("c_email")?,
        phone_number: row.try_get("c_phone_number")?,
        wallet_account_id: row.try_get("c_wallet_account_id")?,
        created_at: ts(row.try_get("c_created_at")?),
        updated_at: ts(row.try_get("c_updated_at")?),
        archived_at: opt_ts(row.try_get("c_archived_at")?),
    })
}

/// Takes the row lock (where the backend has row locks) on the tenant's row `id` of `table`,
/// before the caller reads it whole; `NotFound` when the tenant has no such row.
async fn lock_tenant_row(tx: &mut Tx, table: &'static str, tenant: &Tenant, id: &str) -> StoreResult<()> {
    let sql = format!(concat!("SELECT id FROM {} WHERE org_id = $1 AND env = $2 AND id = $3", for_update!()), table);
    sqlx::query(&sql)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::NotFound)?;
    Ok(())
}

/// The live client `id`, locked for update where the backend locks rows.
async fn lock_client(tx: &mut Tx, tenant: &Tenant, id: &str) -> StoreResult<Client> {
    let row = sqlx::query(concat!(
        "SELECT ",
        client_columns!(),
        " FROM clients WHERE org_id = $1 AND env = $2 AND id = $3 AND archived_at IS NULL",
        for_update!()
    ))
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    client_from_row(&row.ok_or(StoreError::NotFound)?)
}

// Events.

fn event_from_row(row: &DbRow) -> StoreResult<Event> {
    Ok(Event {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        env: env_of(row)?,
        event_type: row.try_get("type")?,
        created_at: ts(row.try_get("created_at")?),
        data: row.try_get("data")?,
    })
}

/// Writes `event` in the caller's transaction: the outbox half of every change.
async fn insert_event(tx: &mut Tx, tenant: &Tenant, at: Timestamp, event: &NewEvent) -> StoreResult<()> {
    let data = serde_json::json!({ "object": event.object }).to_string();
    sqlx::query("INSERT INTO events (id, org_id, env, type, created_at, data) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(IdKind::Event.generate())
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(event.event_type)
        .bind(at.as_millis())
        .bind(data)
        .execute(&mut **tx)
        .await?;
    Ok(())
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

    async fn read_client(&self, tenant: &Tenant, id: &str, include_archived: bool) -> StoreResult<Option<Client>> {
        let row = sqlx::query(concat!(
            "SELECT ",
            client_columns!(),
            " FROM clients WHERE org_id = $1 AND env = $2 AND id = $3 AND ($4 OR archived_at IS NULL)"
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .bind(include_archived)
        .fetch_optional(self.reader())
        .await?;
        row.as_ref().map(client_from_row).transpose()
    }
}

#[async_trait]
impl Store for ThisStore {
    fn backend(&self) -> Backend {
        Self::BACKEND
    }

    async fn migrate(&self) -> StoreResult<()> {
        MIGRATOR.run(self.writer()).await?;
        Ok(())
    }

    async fn ping(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(self.reader()).await?;
        Ok(())
    }

    async fn close(&self) {
        self.close_pools().await;
    }

    async fn create_organization(&self, org: &Organization) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        insert_org(&mut tx, org).await?;
        self.commit(tx).await
    }

    async fn list_organizations(&self) -> StoreResult<Vec<Organization>> {
        let sql = format!("SELECT {ORG_COLUMNS} FROM organizations ORDER BY created_at, id");
        let rows = sqlx::query(&sql).fetch_all(self.reader()).await?;
        rows.iter().map(org_from_row).collect()
    }

    async fn get_organization(&self, id: &str) -> StoreResult<Option<Organization>> {
        let sql = format!("SELECT {ORG_COLUMNS} FROM organizations WHERE id = $1");
        let row = sqlx::query(&sql).bind(id).fetch_optional(self.reader()).await?;
        row.as_ref().map(org_from_row).transpose()
    }

    async fn bootstrap(&self, org: &Organization, key: &NewApiKey) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        Self::lock_bootstrap(&mut tx).await?;
        let existing: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM organizations").fetch_one(&mut *tx).await?;
        if existing > 0 {
            return Ok(false);
        }
        insert_org(&mut tx, org).await?;
        insert_key(&mut tx, key).await?;
        self.commit(tx).await?;
        Ok(true)
    }

    async fn create_api_key(&self, key: &NewApiKey) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        insert_key(&mut tx, key).await?;
        self.commit(tx).await
    }

    async fn list_api_keys(&self, org_id: Option<&str>) -> StoreResult<Vec<ApiKey>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            key_columns!(),
            " FROM api_keys k WHERE ($1 IS NULL OR k.org_id = $1) ORDER BY k.created_at, k.id"
        ))
        .bind(org_id)
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(key_from_row).collect()
    }

    async fn revoke_api_key(&self, key_id: &str, at: Timestamp) -> StoreResult<ApiKey> {
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2")
            .bind(at.as_millis())
            .bind(key_id)
            .execute(&mut *tx)
            .await?;
        let row = sqlx::query(concat!("SELECT ", key_columns!(), " FROM api_keys k WHERE k.id = $1"))
            .bind(key_id)
            .fetch_optional(&mut *tx)
            .await?;
        let key = key_from_row(&row.ok_or(StoreError::NotFound)?)?;
        self.commit(tx).await?;
        Ok(key)
    }

    async fn authenticate(&self, secret_hash: &str) -> StoreResult<Option<(ApiKey, Organization)>> {
        let row = sqlx::query(concat!(
            "SELECT ",
            key_columns!(),
            ", o.name AS org_name, o.tier AS org_tier, o.created_at AS org_created_at
             FROM api_keys k JOIN organizations o ON o.id = k.org_id
             WHERE k.secret_hash = $1 AND k.revoked_at IS NULL"
        ))
        .bind(secret_hash)
        .fetch_optional(self.reader())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let key = key_from_row(&row)?;
        let org = Organization {
            id: key.org_id.clone(),
            name: row.try_get("org_name")?,
            tier: row.try_get::<String, _>("org_tier")?.parse().map_err(corrupt)?,
            created_at: ts(row.try_get("org_created_at")?),
        };
        Ok(Some((key, org)))
    }

    async fn touch_api_key(&self, key_id: &str, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)")
            .bind(at.as_millis())
            .bind(key_id)
            .execute(&mut *tx)
            .await?;
        Ok(tx.commit().await?)
    }

    async fn get_settings(&self, tenant: &Tenant) -> StoreResult<Settings> {
        let row = sqlx::query(
            "SELECT default_currency, default_tax_rate, payout_approval_required, require_distinct_approver, timezone
             FROM settings WHERE org_id = $1 AND env = $2",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(self.reader())
        .await?;
        let Some(row) = row else { return Ok(Settings::default()) };
        Ok(Settings {
            default_currency: row.try_get::<String, _>("default_currency")?.parse().map_err(corrupt)?,
            default_tax_rate: TaxRate::from_thousandths(row.try_get("default_tax_rate")?),
            payout_approval_required: row.try_get("payout_approval_required")?,
            require_distinct_approver: row.try_get("require_distinct_approver")?,
            timezone: row.try_get("timezone")?,
        })
    }

    async fn put_settings(&self, tenant: &Tenant, s: &Settings, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO settings (org_id, env, default_currency, default_tax_rate, payout_approval_required,
                                   require_distinct_approver, timezone, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (org_id, env) DO UPDATE SET
                default_currency = excluded.default_currency,
                default_tax_rate = excluded.default_tax_rate,
                payout_approval_required = excluded.payout_approval_required,
                require_distinct_approver = excluded.require_distinct_approver,
                timezone = excluded.timezone,
                updated_at = excluded.updated_at",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(s.default_currency.code())
        .bind(s.default_tax_rate.thousandths())
        .bind(s.payout_approval_required)
        .bind(s.require_distinct_approver)
        .bind(&s.timezone)
        .bind(at.as_millis())
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await
    }

    async fn create_client(
        &self,
        tenant: &Tenant,
        c: &Client,
        event: &NewEvent,
        idempotency: Option<IdempotentResponse<'_, Client>>,
    ) -> StoreResult<()> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        sqlx::query(
            "INSERT INTO clients (id, org_id, env, first_name, last_name, email, phone_number, wallet_account_id,
                                  created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&c.id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(&c.first_name)
        .bind(&c.last_name)
        .bind(&c.email)
        .bind(&c.phone_number)
        .bind(&c.wallet_account_id)
        .bind(c.created_at.as_millis())
        .bind(c.updated_at.as_millis())
        .execute(&mut *tx)
        .await?;
        insert_event(&mut tx, tenant, c.created_at, event).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), c).await
    }

    async fn get_client(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>> {
        self.read_client(tenant, id, false).await
    }

    async fn get_client_including_archived(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>> {
        self.read_client(tenant, id, true).await
    }

    async fn list_clients(&self, tenant: &Tenant, q: &ClientQuery) -> StoreResult<Page<Client>> {
        macro_rules! client_filter {
            () => {
                " FROM clients WHERE org_id = $1 AND env = $2 AND archived_at IS NULL AND ($3 IS NULL
                    OR LOWER(first_name || ' ' || last_name) LIKE $3 ESCAPE '\\'
                    OR LOWER(COALESCE(email, '')) LIKE $3 ESCAPE '\\'
                    OR COALESCE(phone_number, '') LIKE $3 ESCAPE '\\'
                    OR LOWER(COALESCE(wallet_account_id, '')) LIKE $3 ESCAPE '\\')"
            };
        }
        let pattern = q.search.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(like_pattern);
        let (limit, offset) = page_params(q.page)?;
        let total: i64 = sqlx::query_scalar(concat!("SELECT COUNT(*)", client_filter!()))
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(&pattern)
            .fetch_one(self.reader())
            .await?;
        let rows = sqlx::query(concat!(
            "SELECT ",
            client_columns!(),
            client_filter!(),
            " ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5"
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(&pattern)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.reader())
        .await?;
        let items = rows.iter().map(client_from_row).collect::<StoreResult<_>>()?;
        Ok(Page { items, total: count_of(total), request: q.page })
    }

    async fn update_client(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: &ClientPatch,
        at: Timestamp,
        event: EventFor<'_, Client>,
    ) -> StoreResult<Client> {
        let mut tx = self.begin_write().await?;
        let mut client = lock_client(&mut tx, tenant, id).await?;
        if !client.apply(patch, at) {
            return Ok(client);
        }
        sqlx::query(
            "UPDATE clients SET first_name = $1, last_name = $2, email = $3, phone_number = $4,
                                wallet_account_id = $5, updated_at = $6
             WHERE org_id = $7 AND env = $8 AND id = $9",
        )
        .bind(&client.first_name)
        .bind(&client.last_name)
        .bind(&client.email)
        .bind(&client.phone_number)
        .bind(&client.wallet_account_id)
        .bind(client.updated_at.as_millis())
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        insert_event(&mut tx, tenant, at, &event(&client)).await?;
        self.commit(tx).await?;
        Ok(client)
    }

    async fn archive_client(
        &self,
        tenant: &Tenant,
        id: &str,
        at: Timestamp,
        event: EventFor<'_, Client>,
    ) -> StoreResult<Client> {
        let mut tx = self.begin_write().await?;
        let mut client = lock_client(&mut tx, tenant, id).await?;
        sqlx::query("UPDATE clients SET archived_at = $1 WHERE org_id = $2 AND env = $3 AND id = $4")
            .bind(at.as_millis())
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        client.archived_at = Some(at);
        insert_event(&mut tx, tenant, at, &event(&client)).await?;
        self.commit(tx).await?;
        Ok(client)
    }

    async fn list_events(&self, tenant: &Tenant, q: &EventQuery) -> StoreResult<Page<Event>> {
        macro_rules! event_filter {
            () => {
                " FROM events WHERE org_id = $1 AND env = $2 AND ($3 IS NULL OR type = $3)"
            };
        }
        let (limit, offset) = page_params(q.page)?;
        let total: i64 = sqlx::query_scalar(concat!("SELECT COUNT(*)", event_filter!()))
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .bind(&q.event_type)
            .fetch_one(self.reader())
            .await?;
        let rows = sqlx::query(concat!(
            "SELECT id, org_id, env, type, created_at, data",
            event_filter!(),
            " ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5"
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(&q.event_type)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.reader())
        .await?;
        let items = rows.iter().map(event_from_row).collect::<StoreResult<_>>()?;
        Ok(Page { items, total: count_of(total), request: q.page })
    }

    async fn get_event(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Event>> {
        let row = sqlx::query(
            "SELECT id, org_id, env, type, created_at, data FROM events WHERE org_id = $1 AND env = $2 AND id = $3",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .fetch_optional(self.reader())
        .await?;
        row.as_ref().map(event_from_row).transpose()
    }

    async fn idempotency_lookup(
        &self,
        tenant: &Tenant,
        key: &str,
        request_hash: &str,
        now: Timestamp,
    ) -> StoreResult<IdempotencyState> {
        let row = sqlx::query(
            "SELECT request_hash, status_code, response_body FROM idempotency_keys
             WHERE org_id = $1 AND env = $2 AND key = $3 AND expires_at > $4",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(key)
        .bind(now.as_millis())
        .fetch_optional(self.reader())
        .await?;
        let Some(row) = row else { return Ok(IdempotencyState::Free) };
        if row.try_get::<String, _>("request_hash")? != request_hash {
            return Ok(IdempotencyState::Mismatch);
        }
        // A key is claimed only by the transaction that fills it, so every committed row has one.
        let status: i64 = row.try_get("status_code")?;
        let body: Option<Vec<u8>> = row.try_get("response_body")?;
        Ok(IdempotencyState::Replay { status: u16::try_from(status).map_err(corrupt)?, body: body.unwrap_or_default() })
    }

    async fn idempotency_record(
        &self,
        tenant: &Tenant,
        claim: &IdempotencyClaim,
        status: u16,
        body: &[u8],
    ) -> StoreResult<bool> {
        take_idempotency_key(self.writer(), tenant, claim, Some((status, body))).await
    }

    async fn rate_limit_hit(&self, bucket: &str, window_start: i64, expires_at: i64, hits: u64) -> StoreResult<u64> {
        let hits = i64::try_from(hits.max(1)).map_err(|_| corrupt("rate-limit hits out of range"))?;
        // One statement, committed on its own: the row lock lasts no longer than the upsert.
        let total: i64 = sqlx::query_scalar(
            "INSERT INTO rate_limit_windows (bucket, window_start, hits, expires_at) VALUES ($1, $2, $4, $3)
             ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + $4
             RETURNING hits",
        )
        .bind(bucket)
        .bind(window_start)
        .bind(expires_at)
        .bind(hits)
        .fetch_one(self.counters())
        .await?;
        Ok(count_of(total))
    }

    async fn purge_expired(&self, now: Timestamp) -> StoreResult<u64> {
        let mut tx = self.begin_write().await?;
        let keys = sqlx::query("DELETE FROM idempotency_keys WHERE expires_at <= $1")
            .bind(now.as_millis())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let windows = sqlx::query("DELETE FROM rate_limit_windows WHERE expires_at <= $1")
            .bind(now.as_millis())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(keys + windows)
    }

    async fn compact_counts(&self) -> StoreResult<u64> {
        self.compact_count_deltas().await
    }

    fn fail_next_commit(&self) {
        self.fail.arm();
    }
}
