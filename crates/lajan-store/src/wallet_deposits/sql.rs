// SEP-24 deposits, for both backends; included after `payouts/sql.rs` (a deposit joins the
// payout it follows through `read_payout`).

use crate::wallet_deposits::{CodeSend, DepositChange, DepositCode, DepositQuery, LinkedDeposit, WalletDepositStore};
use lajan_domain::invitation::CONTACT_CODES_PER_HOUR;
use lajan_domain::wallet_deposit::WalletDeposit;

const HOUR_MS: i64 = 3_600_000;

/// The checks a deposit's page proved itself, from its row.
fn deposit_checks(row: &DbRow) -> StoreResult<RegistrationChecks> {
    Ok(RegistrationChecks {
        code_hash: row.try_get("code_hash")?,
        code_sent_at: opt_ts(row.try_get("code_sent_at")?),
        code_tries: row.try_get("code_tries")?,
        contact_confirmed_at: opt_ts(row.try_get("contact_confirmed_at")?),
        verified_at: opt_ts(row.try_get("verified_at")?),
    })
}

/// An unregistered deposit's page, locked: its checks, its contact's hash and who it is bound to.
struct LockedDeposit {
    checks: RegistrationChecks,
    contact_hash: Option<String>,
    receiver: Option<(Tenant, String)>,
    link_expires_at: Timestamp,
}

async fn lock_deposit(tx: &mut Tx, id: &str) -> StoreResult<Option<LockedDeposit>> {
    let row = query(concat!(
        "SELECT env, org_id, client_id, contact_hash, link_expires_at, code_hash, code_sent_at, code_tries,
                contact_confirmed_at, verified_at
         FROM wallet_deposits WHERE id = $1 AND registered_at IS NULL",
        for_update!()
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let env = env_of(&row)?;
    let receiver = match (row.try_get::<Option<String>, _>("org_id")?, row.try_get::<Option<String>, _>("client_id")?) {
        (Some(org), Some(client)) => Some((Tenant::new(org, env), client)),
        _ => None,
    };
    Ok(Some(LockedDeposit {
        checks: deposit_checks(&row)?,
        contact_hash: row.try_get("contact_hash")?,
        receiver,
        link_expires_at: ts(row.try_get("link_expires_at")?),
    }))
}

async fn save_deposit_checks(tx: &mut Tx, id: &str, c: &RegistrationChecks, at: Timestamp) -> StoreResult<()> {
    query(
        "UPDATE wallet_deposits SET code_hash = $1, code_sent_at = $2, code_tries = $3, contact_confirmed_at = $4,
                verified_at = $5, updated_at = $6
         WHERE id = $7",
    )
    .bind(&c.code_hash)
    .bind(c.code_sent_at.map(Timestamp::as_millis))
    .bind(c.code_tries)
    .bind(c.contact_confirmed_at.map(Timestamp::as_millis))
    .bind(c.verified_at.map(Timestamp::as_millis))
    .bind(at.as_millis())
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// What deposit pages did for one contact since `since`: `column` summed (`codes_sent`,
/// `code_tries`) over every page that was given it.
async fn contact_sum(tx: &mut Tx, column: &str, contact_hash: &str, since: i64) -> StoreResult<i64> {
    let sql = format!(
        "SELECT CAST(COALESCE(SUM({column}), 0) AS BIGINT) FROM wallet_deposits WHERE contact_hash = $1 AND updated_at > $2"
    );
    Ok(query_scalar(&sql).bind(contact_hash).bind(since).fetch_one(&mut **tx).await?)
}

/// A deposit's page bound to the receiver `r` proves its checks for them: the registration's
/// transaction reads it locked.
async fn deposit_proves(tx: &mut Tx, id: &str, tenant: &Tenant, client_id: &str) -> StoreResult<Option<RegistrationChecks>> {
    let Some(d) = lock_deposit(tx, id).await? else { return Ok(None) };
    let bound = d.receiver.as_ref().is_some_and(|(t, c)| t.org_id == tenant.org_id && t.env == tenant.env && c == client_id);
    Ok(bound.then_some(d.checks))
}

const DEPOSIT_COLUMNS: &str = "id, env, account, memo, asset_code, lang, link_expires_at, started_at, updated_at,
                               registered_at, payout_id";

/// The deposit in `row`, and the id of the payout it follows (read apart: a row is not `Send`).
fn deposit_from_row(row: &DbRow) -> StoreResult<(WalletDeposit, Option<String>)> {
    let memo = row.try_get::<Option<String>, _>("memo")?.map(|m| m.parse::<u64>()).transpose().map_err(corrupt)?;
    let deposit = WalletDeposit {
        id: row.try_get("id")?,
        env: env_of(row)?,
        account: row.try_get("account")?,
        memo,
        asset_code: row.try_get("asset_code")?,
        lang: row.try_get("lang")?,
        started_at: ts(row.try_get("started_at")?),
        updated_at: ts(row.try_get("updated_at")?),
        link_expires_at: ts(row.try_get("link_expires_at")?),
        registered_at: row.try_get::<Option<i64>, _>("registered_at")?.map(ts),
        payout: None,
    };
    Ok((deposit, row.try_get("payout_id")?))
}

/// The deposit with the payout it follows joined.
async fn with_payout(conn: &mut Conn, (mut deposit, payout_id): (WalletDeposit, Option<String>)) -> StoreResult<WalletDeposit> {
    if let Some(id) = payout_id {
        deposit.payout = read_payout(conn, None, &id).await?;
    }
    Ok(deposit)
}

#[async_trait]
impl WalletDepositStore for ThisStore {
    async fn start_wallet_deposit(&self, d: &WalletDeposit, link_hash: &str, open_per_account: i64) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        // The account's deposits still open, counted one start at a time (a link lives
        // LINK_TTL_MS, so none started before that is open: the index reads no further back).
        Self::lock_name(&mut tx, &format!("wallet deposits {} {}", d.env.as_str(), d.account)).await?;
        let open: i64 = query_scalar(
            "SELECT COUNT(*) FROM (SELECT 1 FROM wallet_deposits
                                   WHERE account = $1 AND env = $2 AND started_at > $3
                                     AND registered_at IS NULL AND link_expires_at >= $4 LIMIT $5) AS open",
        )
        .bind(&d.account)
        .bind(d.env.as_str())
        .bind(d.started_at.as_millis() - lajan_domain::wallet_deposit::LINK_TTL_MS)
        .bind(d.started_at.as_millis())
        .bind(open_per_account)
        .fetch_one(&mut *tx)
        .await?;
        if open >= open_per_account {
            return Ok(false);
        }
        query("DELETE FROM wallet_deposits WHERE registered_at IS NULL AND link_expires_at < $1")
            .bind(d.started_at.as_millis() - 86_400_000)
            .execute(&mut *tx)
            .await?;
        query(
            "INSERT INTO wallet_deposits (id, env, account, memo, asset_code, lang, link_hash, link_expires_at,
                                          started_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
        )
        .bind(&d.id)
        .bind(d.env.as_str())
        .bind(&d.account)
        .bind(d.memo.map(|m| m.to_string()))
        .bind(&d.asset_code)
        .bind(&d.lang)
        .bind(link_hash)
        .bind(d.link_expires_at.as_millis())
        .bind(d.started_at.as_millis())
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await?;
        Ok(true)
    }

    async fn open_wallet_deposits(&self, now: Timestamp, cap: i64) -> StoreResult<i64> {
        let mut conn = self.reader().acquire().await?;
        let open: i64 = query_scalar(
            "SELECT COUNT(*) FROM (SELECT 1 FROM wallet_deposits
                                   WHERE registered_at IS NULL AND link_expires_at >= $1 LIMIT $2) AS open",
        )
        .bind(now.as_millis())
        .bind(cap)
        .fetch_one(&mut *conn)
        .await?;
        Ok(open)
    }

    async fn wallet_deposit(
        &self,
        env: Environment,
        account: &str,
        memo: Option<u64>,
        id: &str,
    ) -> StoreResult<Option<WalletDeposit>> {
        let mut conn = self.reader().acquire().await?;
        let sql = format!(
            "SELECT {DEPOSIT_COLUMNS} FROM wallet_deposits
             WHERE id = $1 AND env = $2 AND account = $3 AND memo IS NOT DISTINCT FROM $4"
        );
        let row =
            query(&sql).bind(id).bind(env.as_str()).bind(account).bind(memo.map(|m| m.to_string())).fetch_optional(&mut *conn).await?;
        let Some(found) = row.as_ref().map(deposit_from_row).transpose()? else { return Ok(None) };
        with_payout(&mut conn, found).await.map(Some)
    }

    async fn wallet_deposits(
        &self,
        env: Environment,
        account: &str,
        memo: Option<u64>,
        q: &DepositQuery<'_>,
    ) -> StoreResult<Vec<WalletDeposit>> {
        let mut conn = self.reader().acquire().await?;
        let sql = format!(
            "SELECT {DEPOSIT_COLUMNS} FROM wallet_deposits
             WHERE account = $1 AND env = $2 AND memo IS NOT DISTINCT FROM $3
               AND ($4 IS NULL OR asset_code = $4) AND ($5 IS NULL OR started_at >= $5)
               AND ($6 IS NULL OR (started_at, id) < (SELECT started_at, id FROM wallet_deposits WHERE id = $6))
             ORDER BY started_at DESC, id DESC LIMIT $7"
        );
        let rows = query(&sql)
            .bind(account)
            .bind(env.as_str())
            .bind(memo.map(|m| m.to_string()))
            .bind(q.asset_code)
            .bind(q.no_older_than.map(Timestamp::as_millis))
            .bind(q.before_id)
            .bind(q.limit)
            .fetch_all(&mut *conn)
            .await?;
        let found = rows.iter().map(deposit_from_row).collect::<StoreResult<Vec<_>>>()?;
        drop(rows);
        let mut deposits = Vec::with_capacity(found.len());
        for one in found {
            deposits.push(with_payout(&mut conn, one).await?);
        }
        Ok(deposits)
    }

    async fn wallet_deposit_by_link(&self, link_hash: &str) -> StoreResult<Option<LinkedDeposit>> {
        let mut conn = self.reader().acquire().await?;
        let sql = format!(
            "SELECT {DEPOSIT_COLUMNS}, org_id, client_id, contact_tries, code_hash, code_sent_at, code_tries,
                    contact_confirmed_at, verified_at, contact_hash
             FROM wallet_deposits WHERE link_hash = $1"
        );
        let row = query(&sql).bind(link_hash).fetch_optional(&mut *conn).await?;
        let Some(row) = row else { return Ok(None) };
        let found = deposit_from_row(&row)?;
        let env = found.0.env;
        let receiver = match (row.try_get::<Option<String>, _>("org_id")?, row.try_get::<Option<String>, _>("client_id")?) {
            (Some(org), Some(client)) => Some((Tenant::new(org, env), client)),
            _ => None,
        };
        let contact_tries = row.try_get("contact_tries")?;
        let checks = deposit_checks(&row)?;
        let contact_hash = row.try_get("contact_hash")?;
        drop(row);
        let deposit = with_payout(&mut conn, found).await?;
        Ok(Some(LinkedDeposit { deposit, receiver, contact_tries, checks, contact_hash }))
    }

    async fn invited_by_contact(
        &self,
        env: Environment,
        phone: Option<&str>,
        email: Option<&str>,
    ) -> StoreResult<Option<(Tenant, String)>> {
        let mut conn = self.reader().acquire().await?;
        let row = query(
            "SELECT c.id, c.org_id FROM clients c JOIN invitations i ON i.client_id = c.id
             WHERE c.env = $1 AND c.archived_at IS NULL AND i.status = 'invited'
               AND ((c.phone_number = $2 AND c.phone_number IS NOT NULL) OR (LOWER(c.email) = $3 AND c.email IS NOT NULL))
             ORDER BY i.created_at DESC, c.id DESC LIMIT 1",
        )
        .bind(env.as_str())
        .bind(phone)
        .bind(email.map(str::to_lowercase))
        .fetch_optional(&mut *conn)
        .await?;
        row.map(|r| Ok((Tenant::new(r.try_get::<String, _>("org_id")?, env), r.try_get("id")?))).transpose()
    }

    async fn send_deposit_code(&self, id: &str, code: DepositCode<'_>, at: Timestamp) -> StoreResult<CodeSend> {
        let mut tx = self.begin_write().await?;
        let Some(d) = lock_deposit(&mut tx, id).await? else { return Ok(CodeSend::Gone) };
        if d.link_expires_at.as_millis() < at.as_millis() {
            return Ok(CodeSend::Gone);
        }
        if !code.new_contact
            && let Some(seconds) = d.checks.code_wait(at)
        {
            return Ok(CodeSend::TooSoon(seconds));
        }
        let busy = contact_sum(&mut tx, "codes_sent", code.contact_hash, at.as_millis() - HOUR_MS).await?
            >= CONTACT_CODES_PER_HOUR;
        if busy && !code.new_contact {
            return Ok(CodeSend::ContactBusy);
        }
        // A new contact starts the page over (what it proved was for the contact before) and
        // counts as one of the page's, sent a code or not.
        query(
            "UPDATE wallet_deposits SET contact_hash = $1, org_id = $2, client_id = $3, code_hash = $4, code_sent_at = $5,
                    code_tries = CASE WHEN $6 THEN 0 ELSE code_tries END,
                    contact_confirmed_at = NULL, verified_at = NULL, codes_sent = codes_sent + CASE WHEN $8 THEN 0 ELSE 1 END,
                    contact_tries = contact_tries + CASE WHEN $6 THEN 1 ELSE 0 END, updated_at = $9
             WHERE id = $7",
        )
        .bind(code.contact_hash)
        .bind(code.receiver.map(|(t, _)| t.org_id.as_str()))
        .bind(code.receiver.map(|(_, c)| c))
        .bind((!busy).then_some(code.code_hash))
        .bind((!busy).then_some(at.as_millis()).or(d.checks.code_sent_at.map(Timestamp::as_millis)))
        .bind(code.new_contact)
        .bind(id)
        .bind(busy)
        .bind(at.as_millis())
        .execute(&mut *tx)
        .await?;
        if !busy && let (Some(out), Some((tenant, client_id))) = (code.message, code.receiver) {
            insert_message(&mut tx, tenant, out.message, MessageAbout::Client(client_id), at, out.event).await?;
        }
        self.commit(tx).await?;
        Ok(if busy { CodeSend::ContactBusy } else { CodeSend::Sent })
    }

    async fn deposit_step(
        &self,
        id: &str,
        at: Timestamp,
        step: DepositChange<'_>,
    ) -> StoreResult<(RegistrationChecks, Option<Invitation>)> {
        let mut tx = self.begin_write().await?;
        let mut d = lock_deposit(&mut tx, id).await?.ok_or(StoreError::NotFound)?;
        let wrong_today = match &d.contact_hash {
            Some(hash) => contact_sum(&mut tx, "code_tries", hash, at.as_millis() - 24 * HOUR_MS).await?,
            None => 0,
        };
        let mut invitation = match &d.receiver {
            Some((tenant, client_id)) => Some(lock_invitation(&mut tx, tenant, client_id).await?),
            None => None,
        };
        let changed = (step.change)(&mut d.checks, invitation.as_mut(), wrong_today).map_err(StoreError::Rejected)?;
        save_deposit_checks(&mut tx, id, &d.checks, at).await?;
        if let Some(i) = &invitation {
            save_checks(&mut tx, i, at).await?;
            if let Some(event) = changed.then_some(step.event).flatten() {
                let page = i.tenant.clone().acting_as(lajan_domain::Actor::System(lajan_domain::Actor::REGISTRATION_PAGE.to_owned()));
                insert_event(&mut tx, &page, at, &event(i)).await?;
            }
        }
        self.commit(tx).await?;
        Ok((d.checks, invitation))
    }

    async fn register_wallet_deposit(&self, id: &str, payout_id: Option<&str>, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query(
            "UPDATE wallet_deposits SET registered_at = $1, updated_at = $1, payout_id = $2
             WHERE id = $3 AND registered_at IS NULL",
        )
        .bind(at.as_millis())
        .bind(payout_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await
    }
}
