// SEP-24 deposits, for both backends; included after `payouts/sql.rs` (a deposit joins the
// payout it follows through `read_payout`).

use crate::wallet_deposits::{DepositQuery, LinkedDeposit, WalletDepositStore};
use lajan_domain::wallet_deposit::WalletDeposit;

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
    async fn start_wallet_deposit(&self, d: &WalletDeposit, link_hash: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
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
        self.commit(tx).await
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
            "SELECT {DEPOSIT_COLUMNS}, org_id, client_id, contact_tries FROM wallet_deposits WHERE link_hash = $1"
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
        drop(row);
        let deposit = with_payout(&mut conn, found).await?;
        Ok(Some(LinkedDeposit { deposit, receiver, contact_tries }))
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

    async fn give_deposit_contact(&self, id: &str, receiver: Option<(&Tenant, &str)>, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query(
            "UPDATE wallet_deposits SET contact_tries = contact_tries + 1, updated_at = $1,
                    org_id = COALESCE($2, org_id), client_id = COALESCE($3, client_id)
             WHERE id = $4 AND registered_at IS NULL",
        )
        .bind(at.as_millis())
        .bind(receiver.map(|(t, _)| t.org_id.as_str()))
        .bind(receiver.map(|(_, c)| c))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await
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
