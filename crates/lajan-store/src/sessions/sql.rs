// Console sign-ins and sessions, for both backends; included after `users/sql.rs`.

use crate::sessions::{NewSession, SessionStore};
use lajan_domain::console::{
    ADDRESS_FAILURES, ADDRESS_WINDOW_MS, ConsoleSession, LOCKOUT_FAILURES, LOCKOUT_MS, LockedBy, SignIn,
    SignInOutcome, refusal,
};

fn sign_in_from_row(row: &DbRow) -> StoreResult<SignIn> {
    Ok(SignIn {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        user_id: row.try_get("user_id")?,
        org_id: row.try_get("org_id")?,
        outcome: row.try_get::<String, _>("outcome")?.parse().map_err(corrupt)?,
        at: ts(row.try_get("at")?),
        client_address: row.try_get("client_address")?,
        refusals: u32::try_from(row.try_get::<i64, _>("refusals")?).map_err(corrupt)?,
    })
}

async fn insert_sign_in(tx: &mut Tx, attempt: &SignIn) -> StoreResult<()> {
    query(
        "INSERT INTO sign_ins (id, email, user_id, org_id, outcome, at, client_address, refusals)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&attempt.id)
    .bind(&attempt.email)
    .bind(&attempt.user_id)
    .bind(&attempt.org_id)
    .bind(attempt.outcome.as_str())
    .bind(attempt.at.as_millis())
    .bind(&attempt.client_address)
    .bind(i64::from(attempt.refusals))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Counts a refusal on the record of the lock that refused it (the newest `locked` attempt from
/// its address, or for its email, within the lock's span); false when there is none yet.
async fn count_refusal(tx: &mut Tx, attempt: &SignIn, by: LockedBy) -> StoreResult<bool> {
    let (column, key, span) = match (by, &attempt.client_address) {
        (LockedBy::Address, Some(address)) => ("client_address", address, ADDRESS_WINDOW_MS),
        _ => ("email", &attempt.email, LOCKOUT_MS),
    };
    // `column` is one of two names above, never input.
    let sql = format!(
        "UPDATE sign_ins SET refusals = refusals + 1
         WHERE id = (SELECT id FROM sign_ins WHERE {column} = $1 AND at > $2 AND outcome = 'locked'
                     ORDER BY at DESC LIMIT 1)"
    );
    let counted =
        query(&sql).bind(key).bind(attempt.at.as_millis() - span).execute(&mut **tx).await?.rows_affected();
    Ok(counted > 0)
}

#[async_trait]
impl SessionStore for ThisStore {
    async fn start_sign_in(&self, attempt: &SignIn) -> StoreResult<Option<Timestamp>> {
        let mut tx = self.begin_write().await?;
        // Parallel attempts at one user's password queue here (PostgreSQL's row lock; SQLite's
        // one writer), so each sees the pending ones before it. No password matches an unknown
        // email, so racing guesses at one gain nothing.
        query(concat!("SELECT id FROM users WHERE email = $1", for_update!()))
            .bind(&attempt.email)
            .fetch_optional(&mut *tx)
            .await?;
        // Parallel attempts from one address, at any emails, queue too: its count is exact.
        if let Some(address) = &attempt.client_address {
            Self::lock_name(&mut tx, &format!("sign-in address {address}")).await?;
        }
        let failures: Vec<i64> = query_scalar(
            "SELECT at FROM sign_ins
             WHERE email = $1 AND outcome IN ('failed', 'pending')
               AND at > COALESCE((SELECT MAX(at) FROM sign_ins WHERE email = $1 AND outcome = 'succeeded'), -1)
             ORDER BY at DESC LIMIT $2",
        )
        .bind(&attempt.email)
        .bind(LOCKOUT_FAILURES as i64)
        .fetch_all(&mut *tx)
        .await?;
        let failures: Vec<Timestamp> = failures.into_iter().map(ts).collect();
        let from_address = match &attempt.client_address {
            Some(address) => {
                let at: Vec<i64> = query_scalar(
                    "SELECT at FROM sign_ins
                     WHERE client_address = $1 AND outcome IN ('failed', 'pending') AND at > $2
                     ORDER BY at DESC LIMIT $3",
                )
                .bind(address)
                .bind(attempt.at.as_millis() - ADDRESS_WINDOW_MS)
                .bind(ADDRESS_FAILURES as i64)
                .fetch_all(&mut *tx)
                .await?;
                Some(at.into_iter().map(ts).collect::<Vec<Timestamp>>())
            }
            None => None,
        };
        let refused = refusal(&failures, from_address.as_deref(), attempt.at);
        let counted = match refused {
            Some((_, by)) => count_refusal(&mut tx, attempt, by).await?,
            None => false,
        };
        if !counted {
            let outcome = if refused.is_some() { SignInOutcome::Locked } else { SignInOutcome::Pending };
            insert_sign_in(&mut tx, &SignIn { outcome, refusals: 1, ..attempt.clone() }).await?;
        }
        self.commit(tx).await?;
        Ok(refused.map(|(until, _)| until))
    }

    async fn finish_sign_in(
        &self,
        attempt_id: &str,
        outcome: SignInOutcome,
        session: Option<&NewSession>,
    ) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        let row = query("UPDATE sign_ins SET outcome = $1 WHERE id = $2 AND outcome = 'pending' RETURNING user_id, at")
            .bind(outcome.as_str())
            .bind(attempt_id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::NotFound)?;
        if let Some(session) = session {
            let user_id: Option<String> = row.try_get("user_id")?;
            let at: i64 = row.try_get("at")?;
            query(
                "INSERT INTO console_sessions (token_digest, user_id, environment, csrf, created_at, last_seen_at)
                 VALUES ($1, $2, $3, $4, $5, $5)",
            )
            .bind(&session.token_digest)
            .bind(user_id.ok_or_else(|| StoreError::Conflict("a session needs the attempt's user".into()))?)
            .bind(session.environment.as_str())
            .bind(&session.csrf)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        }
        self.commit(tx).await
    }

    async fn list_sign_ins(&self, org_id: &str, limit: u32) -> StoreResult<Vec<SignIn>> {
        let rows = query(
            "SELECT id, email, user_id, org_id, outcome, at, client_address, refusals FROM sign_ins WHERE org_id = $1
             ORDER BY at DESC, id DESC LIMIT $2",
        )
        .bind(org_id)
        .bind(i64::from(limit))
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(sign_in_from_row).collect()
    }

    async fn session(&self, token_digest: &str) -> StoreResult<Option<ConsoleSession>> {
        let sql = "SELECT u.id, u.org_id, u.email, u.name, u.role, u.created_at, u.disabled_at, u.language, u.must_set_password,
                          s.environment, s.csrf, s.created_at AS session_created_at, s.last_seen_at
                   FROM console_sessions s JOIN users u ON u.id = s.user_id
                   WHERE s.token_digest = $1 AND s.ended_at IS NULL";
        let Some(row) = query(sql).bind(token_digest).fetch_optional(self.reader()).await? else {
            return Ok(None);
        };
        Ok(Some(ConsoleSession {
            user: user_from_row(&row)?,
            environment: row.try_get::<String, _>("environment")?.parse().map_err(corrupt)?,
            csrf: row.try_get("csrf")?,
            created_at: ts(row.try_get("session_created_at")?),
            last_seen_at: ts(row.try_get("last_seen_at")?),
        }))
    }

    async fn touch_session(&self, token_digest: &str, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query("UPDATE console_sessions SET last_seen_at = $1 WHERE token_digest = $2 AND last_seen_at < $1")
            .bind(at.as_millis())
            .bind(token_digest)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await
    }

    async fn switch_session_environment(&self, token_digest: &str, environment: Environment) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query("UPDATE console_sessions SET environment = $1 WHERE token_digest = $2 AND ended_at IS NULL")
            .bind(environment.as_str())
            .bind(token_digest)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await
    }

    async fn end_session(&self, token_digest: &str, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query("UPDATE console_sessions SET ended_at = COALESCE(ended_at, $1) WHERE token_digest = $2")
            .bind(at.as_millis())
            .bind(token_digest)
            .execute(&mut *tx)
            .await?;
        self.commit(tx).await
    }
}
