// Console users, for both backends; included after `shared.rs`.

use crate::users::UserStore;
use lajan_domain::user::User;

const USER_COLUMNS: &str = "id, org_id, email, name, role, created_at, disabled_at";

fn user_from_row(row: &DbRow) -> StoreResult<User> {
    Ok(User {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        email: row.try_get("email")?,
        name: row.try_get("name")?,
        role: row.try_get::<String, _>("role")?.parse().map_err(corrupt)?,
        created_at: ts(row.try_get("created_at")?),
        disabled_at: row.try_get::<Option<i64>, _>("disabled_at")?.map(ts),
    })
}

#[async_trait]
impl UserStore for ThisStore {
    async fn create_user(&self, user: &User, password_hash: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO users (id, org_id, email, name, role, password_hash, created_at, disabled_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&user.id)
        .bind(&user.org_id)
        .bind(&user.email)
        .bind(&user.name)
        .bind(user.role.as_str())
        .bind(password_hash)
        .bind(user.created_at.as_millis())
        .bind(user.disabled_at.map(|t| t.as_millis()))
        .execute(&mut *tx)
        .await?;
        self.commit(tx).await
    }

    async fn list_users(&self, org_id: Option<&str>) -> StoreResult<Vec<User>> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE ($1 IS NULL OR org_id = $1) ORDER BY created_at, id"
        );
        let rows = sqlx::query(&sql).bind(org_id).fetch_all(self.reader()).await?;
        rows.iter().map(user_from_row).collect()
    }

    async fn user_by_email(&self, email: &str) -> StoreResult<Option<(User, String)>> {
        let sql = format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE email = $1");
        let row = sqlx::query(&sql).bind(email).fetch_optional(self.reader()).await?;
        row.map(|row| Ok((user_from_row(&row)?, row.try_get("password_hash")?))).transpose()
    }

    async fn disable_user(&self, email: &str, at: Timestamp) -> StoreResult<User> {
        let mut tx = self.begin_write().await?;
        sqlx::query("UPDATE users SET disabled_at = COALESCE(disabled_at, $1) WHERE email = $2")
            .bind(at.as_millis())
            .bind(email)
            .execute(&mut *tx)
            .await?;
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE email = $1");
        let row = sqlx::query(&sql).bind(email).fetch_optional(&mut *tx).await?.ok_or(StoreError::NotFound)?;
        let user = user_from_row(&row)?;
        self.commit(tx).await?;
        Ok(user)
    }
}
