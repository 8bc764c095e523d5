// Settings changes (the audit trail of settings and the changes waiting for a second person),
// for both backends; included after `shared.rs` and `orgs/sql.rs`, whose update writes them.

use crate::settings_changes::{ChangeDecision, SettingsChangeStore};
use lajan_domain::settings_change::{Provenance, SettingsChange};

/// Settings as a change row keeps them (before and after), in the store's own JSON.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredSettings {
    currency: String,
    tax_rate_thousandths: i64,
    approval_required: bool,
    distinct_approver: bool,
    timezone: String,
    /// Absent in changes recorded before organizations had a country: they were Haitian.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    country: Option<String>,
    /// Absent in changes recorded before receivers had settings: those were the defaults.
    #[serde(default)]
    receivers: Option<StoredReceivers>,
    /// Absent in changes recorded before organizations had a home domain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    home_domain: Option<String>,
    #[serde(default)]
    documentation: StoredDocumentation,
    #[serde(default)]
    invoicing: StoredInvoicing,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct StoredReceivers {
    language: String,
    resend_days: u32,
    resends: u32,
    window_days: u32,
    whatsapp: bool,
    wallets: Vec<StoredWallet>,
}

fn settings_text(s: &Settings) -> StoreResult<String> {
    let stored = StoredSettings {
        currency: s.default_currency.code().to_owned(),
        tax_rate_thousandths: s.default_tax_rate.thousandths(),
        approval_required: s.payout_approval_required,
        distinct_approver: s.require_distinct_approver,
        timezone: s.timezone.clone(),
        country: Some(s.country.code()),
        receivers: Some(StoredReceivers {
            language: s.receivers.default_client_language.as_str().to_owned(),
            resend_days: s.receivers.invitation_resend_days,
            resends: s.receivers.invitation_resends,
            window_days: s.receivers.registration_window_days,
            whatsapp: s.receivers.whatsapp_invitations,
            wallets: s.receivers.recommended_wallets.iter().map(StoredWallet::of).collect(),
        }),
        home_domain: s.stellar.home_domain.clone(),
        documentation: StoredDocumentation::of(&s.stellar),
        invoicing: StoredInvoicing::of(&s.invoicing),
    };
    serde_json::to_string(&stored).map_err(corrupt)
}

fn settings_of_text(text: &str) -> StoreResult<Settings> {
    let s: StoredSettings = serde_json::from_str(text).map_err(corrupt)?;
    Ok(Settings {
        default_currency: s.currency.parse().map_err(corrupt)?,
        default_tax_rate: TaxRate::from_thousandths(s.tax_rate_thousandths),
        payout_approval_required: s.approval_required,
        require_distinct_approver: s.distinct_approver,
        timezone: s.timezone,
        country: match s.country {
            None => PhoneCountry::HAITI,
            Some(code) => PhoneCountry::parse(&code).map_err(corrupt)?,
        },
        receivers: match s.receivers {
            None => ReceiverSettings::default(),
            Some(r) => ReceiverSettings {
                default_client_language: r.language.parse().map_err(corrupt)?,
                invitation_resend_days: r.resend_days,
                invitation_resends: r.resends,
                registration_window_days: r.window_days,
                whatsapp_invitations: r.whatsapp,
                recommended_wallets: r.wallets.into_iter().map(StoredWallet::wallet).collect::<StoreResult<_>>()?,
            },
        },
        stellar: s.documentation.profile(s.home_domain),
        invoicing: s.invoicing.settings()?,
    })
}

macro_rules! settings_change_columns {
    () => {
        "id, env, requested_at, actor_type, actor_id, before_settings, after_settings, status, expires_at,
         decided_at, decided_by_type, decided_by_id"
    };
}

fn settings_change_from_row(row: &DbRow) -> StoreResult<SettingsChange> {
    let decided_by = match (row.try_get::<Option<String>, _>("decided_by_type")?, row.try_get("decided_by_id")?) {
        (Some(kind), Some(id)) => Some(Actor::from_parts(&kind, id).map_err(corrupt)?),
        _ => None,
    };
    Ok(SettingsChange {
        id: row.try_get("id")?,
        env: env_of(row)?,
        requested_by: actor_of(row)?,
        requested_at: ts(row.try_get("requested_at")?),
        before: settings_of_text(&row.try_get::<String, _>("before_settings")?)?,
        after: settings_of_text(&row.try_get::<String, _>("after_settings")?)?,
        status: row.try_get::<String, _>("status")?.parse().map_err(corrupt)?,
        expires_at: opt_ts(row.try_get("expires_at")?),
        decided_by,
        decided_at: opt_ts(row.try_get("decided_at")?),
    })
}

/// Records `change` for `tenant` in the caller's transaction. A change of the approval policy
/// replaces the one waiting, if any: the last word on who approves is the one that stands.
async fn record_settings_change(tx: &mut Tx, tenant: &Tenant, change: &SettingsChange) -> StoreResult<()> {
    if change.touches_approval_policy() {
        query(
            "UPDATE settings_changes
             SET status = CASE WHEN expires_at <= $3 THEN 'lapsed' ELSE 'superseded' END, decided_at = $3
             WHERE org_id = $1 AND env = $2 AND status = 'pending'",
        )
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(change.requested_at.as_millis())
        .execute(&mut **tx)
        .await?;
    }
    query(
        "INSERT INTO settings_changes (id, org_id, env, requested_at, actor_type, actor_id, before_settings,
                                       after_settings, status, expires_at, decided_at, decided_by_type, decided_by_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&change.id)
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(change.requested_at.as_millis())
    .bind(change.requested_by.kind())
    .bind(change.requested_by.id())
    .bind(settings_text(&change.before)?)
    .bind(settings_text(&change.after)?)
    .bind(change.status.as_str())
    .bind(change.expires_at.map(|t| t.as_millis()))
    .bind(change.decided_at.map(|t| t.as_millis()))
    .bind(change.decided_by.as_ref().map(Actor::kind))
    .bind(change.decided_by.as_ref().map(|a| a.id().to_owned()))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Console users who may approve payouts (approvers and admins, not disabled) and the
/// environment's unrevoked API keys with `payouts:approve` or `*`: the people or keys that could
/// be a second person.
async fn count_approvers(tx: &mut Tx, tenant: &Tenant) -> StoreResult<u32> {
    let users: i64 = query_scalar(
        "SELECT COUNT(*) FROM users WHERE org_id = $1 AND disabled_at IS NULL AND role IN ('approver', 'admin')",
    )
    .bind(&tenant.org_id)
    .fetch_one(&mut **tx)
    .await?;
    let keys: i64 = query_scalar(
        "SELECT COUNT(*) FROM api_keys WHERE org_id = $1 AND env = $2 AND revoked_at IS NULL
           AND (' ' || scopes || ' ' LIKE '% payouts:approve %' OR ' ' || scopes || ' ' LIKE '% * %')",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .fetch_one(&mut **tx)
    .await?;
    Ok(u32::try_from(users.saturating_add(keys)).unwrap_or(u32::MAX))
}

/// Where `actor` came from: when its key or user was made and by whom (the access trail), or
/// when it was made alone for one older than the trail; `None` for Lajan itself.
async fn provenance_of(tx: &mut Tx, tenant: &Tenant, actor: &Actor) -> StoreResult<Option<Provenance>> {
    let (table, id) = match actor {
        Actor::ApiKey(id) => ("api_keys", id),
        Actor::User(id) => ("users", id),
        Actor::System(_) => return Ok(None),
    };
    let made = query(
        "SELECT at, actor_type, actor_id FROM access_changes
         WHERE subject_id = $1 AND org_id = $2 AND action IN ('user.created', 'api_key.created')
         ORDER BY at LIMIT 1",
    )
    .bind(id)
    .bind(&tenant.org_id)
    .fetch_optional(&mut **tx)
    .await?;
    if let Some(row) = made {
        return Ok(Some(Provenance { at: ts(row.try_get("at")?), by: Some(actor_of(&row)?) }));
    }
    let created: Option<i64> = query_scalar(&format!("SELECT created_at FROM {table} WHERE id = $1"))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(created.map(|at| Provenance { at: ts(at), by: None }))
}

#[async_trait]
impl SettingsChangeStore for ThisStore {
    async fn decide_settings_change(
        &self,
        tenant: &Tenant,
        id: &str,
        decide: ChangeDecision<'_>,
        at: Timestamp,
        idempotency: Option<IdempotentResponse<'_, SettingsChange>>,
    ) -> StoreResult<SettingsChange> {
        let mut tx = self.begin_keyed(tenant, idempotency.as_ref()).await?;
        // The settings' lock first, as an update takes it: a decision and an update queue.
        let settings = locked_settings(&mut tx, tenant, at).await?;
        let row = query(concat!(
            "SELECT ",
            settings_change_columns!(),
            " FROM settings_changes WHERE id = $1 AND org_id = $2 AND env = $3",
            for_update!()
        ))
        .bind(id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Err(StoreError::NotFound) };
        let mut change = settings_change_from_row(&row)?;
        let provenance = provenance_of(&mut tx, tenant, &tenant.actor).await?;
        let (next, events) = decide(&mut change, &settings, provenance.as_ref()).map_err(StoreError::Rejected)?;
        query(
            "UPDATE settings_changes SET status = $2, decided_at = $3, decided_by_type = $4, decided_by_id = $5
             WHERE id = $1",
        )
        .bind(&change.id)
        .bind(change.status.as_str())
        .bind(change.decided_at.map(|t| t.as_millis()))
        .bind(change.decided_by.as_ref().map(Actor::kind))
        .bind(change.decided_by.as_ref().map(|a| a.id().to_owned()))
        .execute(&mut *tx)
        .await?;
        if let Some(next) = next {
            upsert_settings(&mut tx, tenant, &next, at).await?;
        }
        for event in &events {
            insert_event(&mut tx, tenant, at, event).await?;
        }
        self.commit_keyed(tx, tenant, idempotency.as_ref(), &change).await?;
        Ok(change)
    }

    async fn get_settings_change(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<SettingsChange>> {
        let row = query(concat!(
            "SELECT ",
            settings_change_columns!(),
            " FROM settings_changes WHERE id = $1 AND org_id = $2 AND env = $3"
        ))
        .bind(id)
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(self.reader())
        .await?;
        row.as_ref().map(settings_change_from_row).transpose()
    }

    async fn pending_settings_change(&self, tenant: &Tenant, now: Timestamp) -> StoreResult<Option<SettingsChange>> {
        let row = query(concat!(
            "SELECT ",
            settings_change_columns!(),
            " FROM settings_changes WHERE org_id = $1 AND env = $2 AND status = 'pending' AND expires_at > $3"
        ))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .bind(now.as_millis())
        .fetch_optional(self.reader())
        .await?;
        row.as_ref().map(settings_change_from_row).transpose()
    }

    async fn list_settings_changes(&self, org_id: &str, limit: u32) -> StoreResult<Vec<SettingsChange>> {
        let rows = query(concat!(
            "SELECT ",
            settings_change_columns!(),
            " FROM settings_changes WHERE org_id = $1 ORDER BY requested_at DESC, id DESC LIMIT $2"
        ))
        .bind(org_id)
        .bind(i64::from(limit))
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(settings_change_from_row).collect()
    }
}
