// Clients, for both backends; included after `shared.rs`. Invoices and payouts read the client
// their rows join with `prefixed_client`.

use crate::{ClientQuery, ClientStore, ClientWallet, WaitingPayouts};
use lajan_domain::client::{Client, ClientPatch, Language};
use lajan_domain::stellar_memo::StellarMemo;
use lajan_domain::verification::{Verification, VerificationKind};

macro_rules! client_columns {
    () => {
        "id, first_name, last_name, email, phone_number, wallet_account_id, wallet_memo_type, wallet_memo, language, reminders_enabled, verification_kind, verification_hash, created_at, updated_at, archived_at"
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
        wallet_memo: memo_of(row.try_get("wallet_memo_type")?, row.try_get("wallet_memo")?)?,
        language: language_of(row.try_get("language")?)?,
        reminders_enabled: row.try_get("reminders_enabled")?,
        verification: verification_of(row.try_get("verification_kind")?, row.try_get("verification_hash")?)?,
        created_at: ts(row.try_get("created_at")?),
        updated_at: ts(row.try_get("updated_at")?),
        archived_at: opt_ts(row.try_get("archived_at")?),
    })
}

fn language_of(code: String) -> StoreResult<Language> {
    code.parse::<Language>().map_err(|_| corrupt(format!("client language {code:?}")))
}

/// A wallet memo from its two columns (both set or both null).
fn memo_of(kind: Option<String>, value: Option<String>) -> StoreResult<Option<StellarMemo>> {
    match (kind, value) {
        (Some(kind), Some(value)) => StellarMemo::from_stored(&kind, &value)
            .map(Some)
            .map_err(|e| corrupt(format!("wallet memo {kind}:{value:?} {e}"))),
        (None, None) => Ok(None),
        _ => Err(corrupt("a wallet memo's kind without its value, or a value without its kind")),
    }
}

fn verification_of(kind: Option<String>, hash: Option<String>) -> StoreResult<Option<Verification>> {
    match (kind, hash) {
        (Some(kind), Some(hash)) => {
            let kind = kind.parse::<VerificationKind>().map_err(|_| corrupt(format!("verification kind {kind:?}")))?;
            Ok(Some(Verification { kind, hash }))
        }
        (None, None) => Ok(None),
        _ => Err(corrupt("a client's verification kind without its hash, or a hash without its kind")),
    }
}

/// The columns [`prefixed_client`] reads, for a query that joins `clients c`.
macro_rules! prefixed_client_columns {
    () => {
        "c.first_name AS c_first_name, c.last_name AS c_last_name, c.email AS c_email,
         c.phone_number AS c_phone_number, c.wallet_account_id AS c_wallet_account_id, c.language AS c_language,
         c.reminders_enabled AS c_reminders_enabled,
         c.wallet_memo_type AS c_wallet_memo_type, c.wallet_memo AS c_wallet_memo,
         c.verification_kind AS c_verification_kind, c.verification_hash AS c_verification_hash,
         c.created_at AS c_created_at, c.updated_at AS c_updated_at, c.archived_at AS c_archived_at"
    };
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
        wallet_memo: memo_of(row.try_get("c_wallet_memo_type")?, row.try_get("c_wallet_memo")?)?,
        language: language_of(row.try_get("c_language")?)?,
        reminders_enabled: row.try_get("c_reminders_enabled")?,
        verification: verification_of(row.try_get("c_verification_kind")?, row.try_get("c_verification_hash")?)?,
        created_at: ts(row.try_get("c_created_at")?),
        updated_at: ts(row.try_get("c_updated_at")?),
        archived_at: opt_ts(row.try_get("c_archived_at")?),
    })
}

/// The live client `id`, locked for update where the backend locks rows.
async fn lock_client(tx: &mut Tx, tenant: &Tenant, id: &str) -> StoreResult<Client> {
    let row = query(concat!(
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

impl ThisStore {
    async fn read_client(&self, tenant: &Tenant, id: &str, include_archived: bool) -> StoreResult<Option<Client>> {
        let row = query(concat!(
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
impl ClientStore for ThisStore {
    async fn create_client(
        &self,
        tenant: &Tenant,
        c: &Client,
        event: &NewEvent,
        idempotency: Option<IdempotentResponse<'_, Client>>,
    ) -> StoreResult<()> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        insert_client(&mut tx, tenant, c, event).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), c).await
    }

    async fn get_client(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>> {
        self.read_client(tenant, id, false).await
    }

    async fn get_clients(&self, tenant: &Tenant, ids: &[String]) -> StoreResult<Vec<Client>> {
        let mut found = Vec::new();
        for chunk in ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new(concat!("SELECT ", client_columns!(), " FROM clients"));
            push_tenant_filters(&mut qb, "clients", tenant, &[]);
            qb.push(" AND archived_at IS NULL AND id IN");
            push_bind_list(&mut qb, chunk.iter().cloned());
            for row in qb.build().fetch_all(self.reader()).await? {
                found.push(client_from_row(&row)?);
            }
        }
        Ok(found)
    }

    async fn clients_by_contact(&self, tenant: &Tenant, phones: &[String], emails: &[String]) -> StoreResult<Vec<Client>> {
        let mut found: Vec<Client> = Vec::new();
        let lowered: Vec<String> = emails.iter().map(|e| e.to_lowercase()).collect();
        for (column, values) in [("phone_number", phones), ("LOWER(email)", lowered.as_slice())] {
            for chunk in values.chunks(ROWS_PER_STATEMENT) {
                let mut qb = QueryBuilder::new(concat!("SELECT ", client_columns!(), " FROM clients"));
                push_tenant_filters(&mut qb, "clients", tenant, &[]);
                qb.push(" AND archived_at IS NULL AND ").push(column).push(" IN");
                push_bind_list(&mut qb, chunk.iter().cloned());
                for row in qb.build().fetch_all(self.reader()).await? {
                    let client = client_from_row(&row)?;
                    if !found.iter().any(|c| c.id == client.id) {
                        found.push(client);
                    }
                }
            }
        }
        Ok(found)
    }

    async fn get_client_including_archived(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<Client>> {
        self.read_client(tenant, id, true).await
    }

    async fn list_clients(&self, tenant: &Tenant, q: &ClientQuery) -> StoreResult<Page<Client>> {
        let search = search_pattern(q.search.as_deref());
        let search = search.as_deref();
        let term = q.search.as_deref().map(|s| s.trim().to_lowercase()).unwrap_or_default();
        // On SQLite, candidates from the trigram index are looked up by primary key: named, since
        // without statistics the planner would rather walk the tenant's list probing each row.
        macro_rules! by_key {
            () => {
                "clients c INDEXED BY sqlite_autoindex_clients_1"
            };
        }
        let scope = client_scope(tenant);
        let (mut select, mut by_index, mut found) = (concat!("SELECT ", client_columns!(), " FROM clients c"), false, None);
        let listed = self.list_count(tenant, "clients", "", None).await?;
        let total = match search {
            None => listed,
            Some(pattern) => {
                let matches = client_matches(pattern);
                let size = if let Total::Known(n) = listed { n } else { 0 };
                let list = Searched { from: "clients c", alias: "c", scope: &scope, matches: &matches, size };
                match self.search_reach(Some(&CLIENT_TEXT), &term, list).await? {
                    SearchReach::Found(ids) => {
                        select = concat!("SELECT ", client_columns!(), " FROM ", by_key!());
                        found = Some(ids);
                        Total::Matching(by_key!())
                    }
                    SearchReach::Index => {
                        by_index = true;
                        Total::Matching("clients c")
                    }
                    SearchReach::Walk { estimate } => Total::Estimate(estimate),
                    SearchReach::Scan => Total::Matching("clients c"),
                }
            }
        };
        let listing = Listing { table: "clients", alias: "c", select, total };
        let phrase = trigram_phrase(&term);
        self.list_page(
            tenant,
            &q.page,
            listing,
            move |qb| {
                scope(qb);
                if let Some(ids) = &found {
                    push_among(qb, "c", ids);
                }
                if let (true, Some(pattern)) = (by_index, search) {
                    qb.push(" AND c.id IN (");
                    push_candidates(qb, tenant, &CLIENT_TEXT, pattern, &phrase);
                    qb.push(")");
                }
                if let Some(pattern) = search {
                    qb.push(" AND ");
                    client_matches(pattern)(qb);
                }
            },
            client_from_row,
        )
        .await
    }

    async fn update_client(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: &ClientPatch,
        waiting: WaitingPayouts<'_>,
        at: Timestamp,
        event: EventFor<'_, Client>,
    ) -> StoreResult<(Client, u64)> {
        let mut tx = self.begin_write().await?;
        let mut client = lock_client(&mut tx, tenant, id).await?;
        let before = client.clone();
        if !client.apply(patch, at).map_err(StoreError::Rejected)? {
            return Ok((client, 0));
        }
        // Who a code goes to, and what they must answer, decide who can register the wallet
        // approved money goes to: a change of either is an approver's to confirm.
        let verification = |c: &Client| c.verification.as_ref().map(|v| (v.kind.as_str().to_owned(), v.hash.clone()));
        if before.phone_number != client.phone_number
            || before.email != client.email
            || verification(&before) != verification(&client)
        {
            withdraw_waiting_approvals(&mut tx, tenant, id, at, waiting.withdrawn).await?;
        }
        query(
            "UPDATE clients SET first_name = $1, last_name = $2, email = $3, phone_number = $4,
                                wallet_account_id = $5, language = $6, verification_kind = $7,
                                verification_hash = $8, updated_at = $9, wallet_memo_type = $13, wallet_memo = $14,
                                reminders_enabled = $15
             WHERE org_id = $10 AND env = $11 AND id = $12",
        )
        .bind(&client.first_name)
        .bind(&client.last_name)
        .bind(&client.email)
        .bind(&client.phone_number)
        .bind(&client.wallet_account_id)
        .bind(client.language.as_str())
        .bind(client.verification.as_ref().map(|v| v.kind.as_str()))
        .bind(client.verification.as_ref().map(|v| v.hash.as_str()))
        .bind(client.updated_at.as_millis())
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(id)
        .bind(client.wallet_memo.as_ref().map(|m| m.kind().as_str()))
        .bind(client.wallet_memo.as_ref().map(StellarMemo::value))
        .bind(client.reminders_enabled)
        .execute(&mut *tx)
        .await?;
        let released = match &client.wallet_account_id {
            Some(wallet) => {
                let wallet = ClientWallet { address: wallet, memo: client.wallet_memo.as_ref() };
                release_waiting_payouts(&mut tx, tenant, id, wallet, waiting.may_release_approved, at).await?
            }
            None => 0,
        };
        insert_event(&mut tx, tenant, at, &event(&client)).await?;
        self.commit(tx).await?;
        Ok((client, released))
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
        query("UPDATE clients SET archived_at = $1 WHERE org_id = $2 AND env = $3 AND id = $4")
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
}

/// Writes a new client and its event.
async fn insert_client(tx: &mut Tx, tenant: &Tenant, c: &Client, event: &NewEvent) -> StoreResult<()> {
    query(
        "INSERT INTO clients (id, org_id, env, first_name, last_name, email, phone_number, wallet_account_id,
                              language, verification_kind, verification_hash, created_at, updated_at,
                              wallet_memo_type, wallet_memo, reminders_enabled)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
    )
    .bind(&c.id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(&c.first_name)
    .bind(&c.last_name)
    .bind(&c.email)
    .bind(&c.phone_number)
    .bind(&c.wallet_account_id)
    .bind(c.language.as_str())
    .bind(c.verification.as_ref().map(|v| v.kind.as_str()))
    .bind(c.verification.as_ref().map(|v| v.hash.as_str()))
    .bind(c.created_at.as_millis())
    .bind(c.updated_at.as_millis())
    .bind(c.wallet_memo.as_ref().map(|m| m.kind().as_str()))
    .bind(c.wallet_memo.as_ref().map(StellarMemo::value))
    .bind(c.reminders_enabled)
    .execute(&mut **tx)
    .await?;
    insert_event(tx, tenant, c.created_at, event).await
}

/// The tenant's clients not archived (` WHERE ...`, alias `c`): the clients list without its search.
fn client_scope<'a>(tenant: &'a Tenant) -> impl Fn(&mut QueryBuilder<'a>) + Sync + Copy + 'a {
    move |qb| {
        push_tenant_filters(qb, "c", tenant, &[]);
        qb.push(" AND c.archived_at IS NULL");
    }
}

/// Whether the client `c` matches a search's LIKE `pattern`: its name (first and last, with the
/// space between), email, phone number or wallet, case-insensitively.
fn client_matches<'a>(pattern: &'a str) -> impl Fn(&mut QueryBuilder<'a>) + Sync + Copy + 'a {
    move |qb| {
        qb.push("(LOWER(c.first_name || ' ' || c.last_name) LIKE ").push_bind(pattern);
        qb.push(" ESCAPE '\\' OR LOWER(COALESCE(c.email, '')) LIKE ").push_bind(pattern);
        qb.push(" ESCAPE '\\' OR COALESCE(c.phone_number, '') LIKE ").push_bind(pattern);
        qb.push(" ESCAPE '\\' OR LOWER(COALESCE(c.wallet_account_id, '')) LIKE ").push_bind(pattern);
        qb.push(" ESCAPE '\\')");
    }
}
