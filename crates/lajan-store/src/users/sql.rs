// Console users, for both backends; included after `shared.rs`.

use crate::users::UserStore;
use lajan_domain::user::User;

const USER_COLUMNS: &str = "id, org_id, email, name, role, created_at, disabled_at, language, must_set_password";

fn user_from_row(row: &DbRow) -> StoreResult<User> {
    Ok(User {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        email: row.try_get("email")?,
        name: row.try_get("name")?,
        role: row.try_get::<String, _>("role")?.parse().map_err(corrupt)?,
        created_at: ts(row.try_get("created_at")?),
        disabled_at: row.try_get::<Option<i64>, _>("disabled_at")?.map(ts),
        language: row.try_get("language")?,
        must_set_password: row.try_get("must_set_password")?,
    })
}

#[async_trait]
impl UserStore for ThisStore {
    async fn create_user(&self, user: &User, password_hash: &str, by: &Actor) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        query(
            "INSERT INTO users (id, org_id, email, name, role, password_hash, created_at, disabled_at, language,
                                must_set_password)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&user.id)
        .bind(&user.org_id)
        .bind(&user.email)
        .bind(&user.name)
        .bind(user.role.as_str())
        .bind(password_hash)
        .bind(user.created_at.as_millis())
        .bind(user.disabled_at.map(|t| t.as_millis()))
        .bind(&user.language)
        .bind(user.must_set_password)
        .execute(&mut *tx)
        .await?;
        record_access(&mut tx, &AccessChange::of_user(user, AccessAction::UserCreated, by, user.created_at)).await?;
        self.commit(tx).await
    }

    async fn list_users(&self, org_id: Option<&str>) -> StoreResult<Vec<User>> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE ($1 IS NULL OR org_id = $1) ORDER BY created_at, id"
        );
        let rows = query(&sql).bind(org_id).fetch_all(self.reader()).await?;
        rows.iter().map(user_from_row).collect()
    }

    async fn user_by_email(&self, email: &str) -> StoreResult<Option<(User, String)>> {
        let sql = format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE email = $1");
        let row = query(&sql).bind(email).fetch_optional(self.reader()).await?;
        row.map(|row| Ok((user_from_row(&row)?, row.try_get("password_hash")?))).transpose()
    }

    async fn disable_user(&self, email: &str, at: Timestamp, by: &Actor) -> StoreResult<User> {
        let mut tx = self.begin_write().await?;
        let disabled = query("UPDATE users SET disabled_at = $1 WHERE email = $2 AND disabled_at IS NULL")
            .bind(at.as_millis())
            .bind(email)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE email = $1");
        let row = query(&sql).bind(email).fetch_optional(&mut *tx).await?.ok_or(StoreError::NotFound)?;
        let user = user_from_row(&row)?;
        if disabled > 0 {
            record_access(&mut tx, &AccessChange::of_user(&user, AccessAction::UserDisabled, by, at)).await?;
        }
        self.commit(tx).await?;
        Ok(user)
    }

    async fn set_user_language(&self, user_id: &str, language: Option<&str>) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        let changed = query("UPDATE users SET language = $1 WHERE id = $2")
            .bind(language)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if changed == 0 {
            return Err(StoreError::NotFound);
        }
        self.commit(tx).await
    }

    async fn set_own_password(&self, user_id: &str, password_hash: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        let changed = query("UPDATE users SET password_hash = $1, must_set_password = $2 WHERE id = $3")
            .bind(password_hash)
            .bind(false)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if changed == 0 {
            return Err(StoreError::NotFound);
        }
        self.commit(tx).await
    }

    async fn list_access_changes(&self, org_id: &str, limit: u32) -> StoreResult<Vec<AccessChange>> {
        let rows = query(
            "SELECT id, org_id, at, actor_type, actor_id, action, subject_id, subject FROM access_changes
             WHERE org_id = $1 ORDER BY at DESC, id DESC LIMIT $2",
        )
        .bind(org_id)
        .bind(i64::from(limit))
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(access_change_from_row).collect()
    }
}
