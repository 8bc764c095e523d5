// The access trail (console users and API keys created or disabled), for both backends;
// included after `shared.rs`. `users/sql.rs` and `orgs/sql.rs` record into it.

use lajan_domain::access::{AccessAction, AccessChange};

/// Records `change` in the caller's transaction: the trail commits with the change or not at all.
async fn record_access(tx: &mut Tx, change: &AccessChange) -> StoreResult<()> {
    query(
        "INSERT INTO access_changes (id, org_id, at, actor_type, actor_id, action, subject_id, subject)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&change.id)
    .bind(&change.org_id)
    .bind(change.at.as_millis())
    .bind(change.actor.kind())
    .bind(change.actor.id())
    .bind(change.action.as_str())
    .bind(&change.subject_id)
    .bind(&change.subject)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn access_change_from_row(row: &DbRow) -> StoreResult<AccessChange> {
    Ok(AccessChange {
        id: row.try_get("id")?,
        org_id: row.try_get("org_id")?,
        at: ts(row.try_get("at")?),
        actor: actor_of(row)?,
        action: row.try_get::<String, _>("action")?.parse().map_err(corrupt)?,
        subject_id: row.try_get("subject_id")?,
        subject: row.try_get("subject")?,
    })
}
