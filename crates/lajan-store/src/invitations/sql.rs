// Invitations to register a wallet, for both backends; included after `messages/sql.rs` (its
// `insert_message`) and before the payout files, whose approvals queue invitations here.

use crate::invitations::{DueInvitation, InvitationSend, InvitationStore};
use lajan_domain::invitation::{Invitation, RegistrationChecks};

macro_rules! invitation_columns {
    () => {
        "client_id, org_id, env, status, sends, last_sent_at, next_send_at, created_at, registered_at, locked_at,
         code_hash, code_sent_at, code_tries, contact_confirmed_at, verified_at, verify_failures, code_failures"
    };
}

fn invitation_from_row(row: &DbRow) -> StoreResult<Invitation> {
    Ok(Invitation {
        tenant: Tenant::new(row.try_get::<String, _>("org_id")?, env_of(row)?),
        client_id: row.try_get("client_id")?,
        status: row.try_get::<String, _>("status")?.parse().map_err(corrupt)?,
        sends: row.try_get("sends")?,
        last_sent_at: opt_ts(row.try_get("last_sent_at")?),
        next_send_at: opt_ts(row.try_get("next_send_at")?),
        created_at: ts(row.try_get("created_at")?),
        registered_at: opt_ts(row.try_get("registered_at")?),
        locked_at: opt_ts(row.try_get("locked_at")?),
        checks: RegistrationChecks {
            code_hash: row.try_get("code_hash")?,
            code_sent_at: opt_ts(row.try_get("code_sent_at")?),
            code_tries: row.try_get("code_tries")?,
            contact_confirmed_at: opt_ts(row.try_get("contact_confirmed_at")?),
            verified_at: opt_ts(row.try_get("verified_at")?),
        },
        verify_failures: row.try_get("verify_failures")?,
        code_failures: row.try_get("code_failures")?,
    })
}

/// Which approved payouts to invite the receivers of.
#[derive(Clone, Copy)]
enum Approved<'a> {
    Payout(&'a str),
    Disbursement(&'a str),
}

/// Records, in the approval's transaction, that the receiver of each approved payout in
/// `approved` still waiting for a wallet is due an invitation now: a new one, or one that had
/// expired or registered before (a later payout waits again). A live or locked invitation is
/// left as it is: the receiver already has a link.
async fn queue_invitations(tx: &mut Tx, tenant: &Tenant, approved: Approved<'_>, at: Timestamp) -> StoreResult<()> {
    let (column, id) = match approved {
        Approved::Payout(id) => ("id", id),
        Approved::Disbursement(id) => ("disbursement_id", id),
    };
    let sql = format!(
        "INSERT INTO invitations (client_id, org_id, env, status, sends, next_send_at, created_at, updated_at)
         SELECT DISTINCT p.client_id, p.org_id, p.env, 'invited', 0, $1, $1, $1 FROM payouts p
         WHERE p.{column} = $2 AND p.org_id = $3 AND p.env = $4 AND p.client_id IS NOT NULL
           AND p.exec_status = 'awaiting_registration' AND p.approval_status = 'approved'
         ON CONFLICT (client_id) DO UPDATE SET status = 'invited', sends = 0, last_sent_at = NULL,
                next_send_at = excluded.next_send_at, updated_at = excluded.updated_at, registered_at = NULL,
                code_hash = NULL, code_sent_at = NULL, code_tries = 0, contact_confirmed_at = NULL, verified_at = NULL,
                verify_failures = 0, code_failures = 0
         WHERE invitations.status IN ('expired', 'registered')"
    );
    query(&sql).bind(at.as_millis()).bind(id).bind(&tenant.org_id).bind(tenant.env.as_str()).execute(&mut **tx).await?;
    Ok(())
}

/// The receiver registered a wallet: their invitation (if any) stops, and its links now show
/// the payouts' progress instead of asking for a wallet.
async fn mark_invitation_registered(tx: &mut Tx, tenant: &Tenant, client_id: &str, at: Timestamp) -> StoreResult<()> {
    query(
        "UPDATE invitations SET status = 'registered', registered_at = $1, next_send_at = NULL, updated_at = $1
         WHERE client_id = $2 AND org_id = $3 AND env = $4 AND status <> 'registered'",
    )
    .bind(at.as_millis())
    .bind(client_id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Expires the live invitations of `client_ids` for which no payout waits any more (the last
/// was cancelled): their links stop working and nothing more is sent.
async fn expire_idle_invitations(tx: &mut Tx, client_ids: &[String], at: Timestamp) -> StoreResult<()> {
    for chunk in client_ids.chunks(ROWS_PER_STATEMENT) {
        let mut qb = QueryBuilder::new("UPDATE invitations SET status = 'expired', next_send_at = NULL, updated_at = ");
        qb.push_bind(at.as_millis())
            .push(
                " WHERE status IN ('invited', 'locked')
                  AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.client_id = invitations.client_id
                                  AND p.exec_status = 'awaiting_registration' AND p.approval_status <> 'rejected')
                  AND client_id IN",
            );
        push_bind_list(&mut qb, chunk.iter().cloned());
        qb.build().execute(&mut **tx).await?;
    }
    Ok(())
}

/// Client `client_id`'s invitation with what its message says, as `conn` sees it.
async fn due_in(conn: &mut Conn, tenant: &Tenant, client_id: &str) -> StoreResult<Option<DueInvitation>> {
    let row = query(concat!(
        "SELECT ",
        invitation_columns!(),
        " FROM invitations WHERE client_id = $1 AND org_id = $2 AND env = $3"
    ))
    .bind(client_id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let invitation = invitation_from_row(&row)?;
    let organization: String = query_scalar("SELECT name FROM organizations WHERE id = $1")
        .bind(&tenant.org_id)
        .fetch_one(&mut *conn)
        .await?;
    let client = query(concat!("SELECT ", client_columns!(), " FROM clients WHERE id = $1 AND org_id = $2 AND env = $3"))
        .bind(client_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_one(&mut *conn)
        .await?;
    let client = client_from_row(&client)?;
    let settings = query(settings_select!())
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut *conn)
        .await?;
    let settings = settings_from_row(settings.as_ref())?.receivers;
    let waiting = query(
        "SELECT asset_code, CAST(SUM(asset_amount) AS BIGINT) AS total FROM payouts
         WHERE client_id = $1 AND org_id = $2 AND env = $3
           AND exec_status = 'awaiting_registration' AND approval_status = 'approved'
         GROUP BY asset_code ORDER BY total DESC, asset_code",
    )
    .bind(client_id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| Ok((r.try_get("asset_code")?, r.try_get("total")?)))
    .collect::<StoreResult<Vec<(String, i64)>>>()?;
    Ok(Some(DueInvitation { invitation, client, organization, settings, waiting }))
}

#[async_trait]
impl InvitationStore for ThisStore {
    async fn claim_due_invitations(&self, now: Timestamp, lease_ms: i64, limit: i64) -> StoreResult<Vec<DueInvitation>> {
        let mut tx = self.begin_write().await?;
        let rows = query(concat!(
            "UPDATE invitations SET next_send_at = $1
             WHERE client_id IN (SELECT client_id FROM invitations
                                 WHERE status = 'invited' AND next_send_at IS NOT NULL AND next_send_at <= $2
                                 ORDER BY next_send_at, client_id LIMIT $3",
            skip_locked!(),
            ") RETURNING client_id, org_id, env"
        ))
        .bind(now.as_millis() + lease_ms)
        .bind(now.as_millis())
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        let claimed = rows
            .iter()
            .map(|row| Ok((Tenant::new(row.try_get::<String, _>("org_id")?, env_of(row)?), row.try_get("client_id")?)))
            .collect::<StoreResult<Vec<(Tenant, String)>>>()?;
        drop(rows);
        let mut due = Vec::with_capacity(claimed.len());
        for (tenant, client_id) in &claimed {
            due.extend(due_in(&mut tx, tenant, client_id).await?);
        }
        self.commit(tx).await?;
        Ok(due)
    }

    async fn invitations_of(&self, tenant: &Tenant, client_ids: &[String]) -> StoreResult<Vec<Invitation>> {
        let mut found = Vec::new();
        for chunk in client_ids.chunks(ROWS_PER_STATEMENT) {
            let mut qb = QueryBuilder::new(concat!("SELECT ", invitation_columns!(), " FROM invitations WHERE org_id = "));
            qb.push_bind(tenant.org_id.clone()).push(" AND env = ").push_bind(tenant.env.as_str()).push(" AND client_id IN");
            push_bind_list(&mut qb, chunk.iter().cloned());
            for row in qb.build().fetch_all(self.reader()).await? {
                found.push(invitation_from_row(&row)?);
            }
        }
        Ok(found)
    }

    async fn due_invitation(&self, tenant: &Tenant, client_id: &str) -> StoreResult<Option<DueInvitation>> {
        let mut conn = self.reader().acquire().await?;
        due_in(&mut conn, tenant, client_id).await
    }

    async fn record_invitation_send(
        &self,
        tenant: &Tenant,
        client_id: &str,
        send: InvitationSend<'_>,
        idempotency: Option<IdempotentResponse<'_, Invitation>>,
    ) -> StoreResult<Option<Invitation>> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        let row = query(concat!(
            "UPDATE invitations SET sends = sends + 1, last_sent_at = $1, next_send_at = $2, updated_at = $1
             WHERE client_id = $3 AND org_id = $4 AND env = $5 AND status = 'invited' AND sends = $6
             RETURNING ",
            invitation_columns!()
        ))
        .bind(send.at.as_millis())
        .bind(send.next_send_at.map(Timestamp::as_millis))
        .bind(client_id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(send.sends_before)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let invitation = invitation_from_row(&row)?;
        query("INSERT INTO invitation_links (token_hash, client_id, created_at) VALUES ($1, $2, $3)")
            .bind(send.token_hash)
            .bind(client_id)
            .bind(send.at.as_millis())
            .execute(&mut *tx)
            .await?;
        for m in send.messages {
            insert_message(&mut tx, tenant, m, MessageAbout::Client(client_id), send.at, send.message_event).await?;
        }
        insert_event(&mut tx, tenant, send.at, send.event).await?;
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &invitation).await?;
        Ok(Some(invitation))
    }
}
