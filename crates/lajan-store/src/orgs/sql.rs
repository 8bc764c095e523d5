// Organizations, API keys and settings, for both backends; included after `shared.rs`.

use crate::settings_changes::SettingsRule;
use crate::{HomeDomainOrg, NewApiKey, OrgStore};
use lajan_domain::apikey::ApiKey;
use lajan_domain::org::Organization;
use lajan_domain::phone::PhoneCountry;
use lajan_domain::receiver::{ReceiverSettings, RecommendedWallet};
use lajan_domain::reminder::{ReminderSettings, parse_time_of_day, time_of_day_text};
use lajan_domain::stellar_profile::StellarProfile;
use lajan_domain::settings::{InvoicingSettings, Settings};

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
    query("INSERT INTO organizations (id, name, tier, created_at) VALUES ($1, $2, $3, $4)")
        .bind(&org.id)
        .bind(&org.name)
        .bind(org.tier.as_str())
        .bind(org.created_at.as_millis())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Stores `new`, recorded in the access trail as made `by`.
async fn insert_key(tx: &mut Tx, new: &NewApiKey, by: &Actor) -> StoreResult<()> {
    let k = &new.key;
    let scopes: Vec<String> = k.scopes.iter().map(ToString::to_string).collect();
    query(
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
    record_access(tx, &AccessChange::of_key(k, AccessAction::KeyCreated, by, k.created_at)).await
}

macro_rules! settings_select {
    () => {
        "SELECT default_currency, default_tax_rate, payout_approval_required, require_distinct_approver, timezone,
                default_client_language, invitation_resend_days, invitation_resends, registration_window_days,
                whatsapp_invitations, recommended_wallets, home_domain, documentation, invoicing, country
         FROM settings WHERE org_id = $1 AND env = $2"
    };
}

/// The tenant's settings (the defaults when never set) from their row.
fn settings_from_row(row: Option<&DbRow>) -> StoreResult<Settings> {
    let Some(row) = row else { return Ok(Settings::default()) };
    Ok(Settings {
        default_currency: row.try_get::<String, _>("default_currency")?.parse().map_err(corrupt)?,
        default_tax_rate: TaxRate::from_thousandths(row.try_get("default_tax_rate")?),
        payout_approval_required: row.try_get("payout_approval_required")?,
        require_distinct_approver: row.try_get("require_distinct_approver")?,
        timezone: row.try_get("timezone")?,
        country: PhoneCountry::parse(&row.try_get::<String, _>("country")?).map_err(corrupt)?,
        invoicing: serde_json::from_str::<StoredInvoicing>(&row.try_get::<String, _>("invoicing")?)
            .map_err(corrupt)?
            .settings()?,
        receivers: ReceiverSettings {
            default_client_language: row.try_get::<String, _>("default_client_language")?.parse().map_err(corrupt)?,
            invitation_resend_days: small_number(row.try_get::<i64, _>("invitation_resend_days")?)?,
            invitation_resends: small_number(row.try_get::<i64, _>("invitation_resends")?)?,
            registration_window_days: small_number(row.try_get::<i64, _>("registration_window_days")?)?,
            whatsapp_invitations: row.try_get("whatsapp_invitations")?,
            recommended_wallets: wallets_of_text(&row.try_get::<String, _>("recommended_wallets")?)?,
        },
        stellar: profile_of(row.try_get("home_domain")?, &row.try_get::<String, _>("documentation")?)?,
    })
}

/// How invoices are paid, as the settings row and a settings change keep it: a field left out
/// (rows written before it existed) is its default.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredInvoicing {
    #[serde(default = "allowed")]
    allow_partial_payments: bool,
    #[serde(default)]
    reminders: Option<StoredReminders>,
    #[serde(default = "allowed")]
    payment_receipts: bool,
    /// Absent in settings kept before receipts waited: the default.
    #[serde(default)]
    receipt_grace_minutes: Option<u32>,
}

/// The reminder schedule in the settings' JSON; absent: the default schedule.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredReminders {
    offset_days: Vec<i32>,
    channels: Vec<String>,
    time_of_day: String,
}

fn allowed() -> bool {
    true
}

impl Default for StoredInvoicing {
    fn default() -> Self {
        StoredInvoicing::of(&InvoicingSettings::default())
    }
}

impl StoredInvoicing {
    fn of(s: &InvoicingSettings) -> Self {
        let r = &s.reminders;
        StoredInvoicing {
            allow_partial_payments: s.allow_partial_payments,
            reminders: Some(StoredReminders {
                offset_days: r.offset_days.clone(),
                channels: r.channels.iter().map(|c| c.as_str().to_owned()).collect(),
                time_of_day: time_of_day_text(r.time_of_day),
            }),
            payment_receipts: s.payment_receipts,
            receipt_grace_minutes: Some(s.receipt_grace_minutes),
        }
    }

    fn settings(self) -> StoreResult<InvoicingSettings> {
        let reminders = match self.reminders {
            None => ReminderSettings::default(),
            Some(r) => ReminderSettings {
                offset_days: r.offset_days,
                channels: r.channels.iter().map(|c| c.parse()).collect::<Result<_, _>>().map_err(corrupt)?,
                time_of_day: parse_time_of_day(&r.time_of_day).map_err(corrupt)?,
            },
        };
        Ok(InvoicingSettings {
            allow_partial_payments: self.allow_partial_payments,
            reminders,
            payment_receipts: self.payment_receipts,
            receipt_grace_minutes: self
                .receipt_grace_minutes
                .unwrap_or_else(|| InvoicingSettings::default().receipt_grace_minutes),
        })
    }
}

/// The SEP-1 `[DOCUMENTATION]` fields an organization gave, as the settings row keeps them.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct StoredDocumentation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    logo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    official_email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    support_email: Option<String>,
}

impl StoredDocumentation {
    fn of(p: &StellarProfile) -> Self {
        StoredDocumentation {
            url: p.org_url.clone(),
            logo: p.org_logo.clone(),
            description: p.org_description.clone(),
            official_email: p.org_official_email.clone(),
            support_email: p.org_support_email.clone(),
        }
    }

    fn profile(self, home_domain: Option<String>) -> StellarProfile {
        StellarProfile {
            home_domain,
            org_url: self.url,
            org_logo: self.logo,
            org_description: self.description,
            org_official_email: self.official_email,
            org_support_email: self.support_email,
        }
    }
}

fn profile_of(home_domain: Option<String>, documentation: &str) -> StoreResult<StellarProfile> {
    let stored: StoredDocumentation = serde_json::from_str(documentation).map_err(corrupt)?;
    Ok(stored.profile(home_domain))
}

fn small_number(stored: i64) -> StoreResult<u32> {
    u32::try_from(stored).map_err(corrupt)
}

/// A recommended wallet as the settings row and a settings change keep it, in the store's JSON.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredWallet {
    name: String,
    url: String,
    assets: Vec<String>,
    /// Absent in rows written before wallets had deep links.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deep_link: Option<String>,
}

impl StoredWallet {
    fn of(wallet: &RecommendedWallet) -> Self {
        StoredWallet {
            name: wallet.name.clone(),
            url: wallet.url.clone(),
            assets: wallet.assets.iter().map(|a| a.as_str().to_owned()).collect(),
            deep_link: wallet.deep_link.clone(),
        }
    }

    fn wallet(self) -> StoreResult<RecommendedWallet> {
        let assets = self.assets.iter().map(|a| lajan_domain::payout::AssetCode::parse(a).map_err(corrupt));
        let assets = assets.collect::<StoreResult<_>>()?;
        Ok(RecommendedWallet { name: self.name, url: self.url, assets, deep_link: self.deep_link })
    }
}

fn wallets_text(wallets: &[RecommendedWallet]) -> StoreResult<String> {
    serde_json::to_string(&wallets.iter().map(StoredWallet::of).collect::<Vec<_>>()).map_err(corrupt)
}

fn wallets_of_text(text: &str) -> StoreResult<Vec<RecommendedWallet>> {
    let stored: Vec<StoredWallet> = serde_json::from_str(text).map_err(corrupt)?;
    stored.into_iter().map(StoredWallet::wallet).collect()
}

async fn upsert_settings(tx: &mut Tx, tenant: &Tenant, s: &Settings, at: Timestamp) -> StoreResult<()> {
    query(
        "INSERT INTO settings (org_id, env, default_currency, default_tax_rate, payout_approval_required,
                               require_distinct_approver, timezone, updated_at, default_client_language,
                               invitation_resend_days, invitation_resends, registration_window_days,
                               whatsapp_invitations, recommended_wallets, home_domain, documentation, invoicing,
                               country)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
         ON CONFLICT (org_id, env) DO UPDATE SET
            default_currency = excluded.default_currency,
            default_tax_rate = excluded.default_tax_rate,
            payout_approval_required = excluded.payout_approval_required,
            require_distinct_approver = excluded.require_distinct_approver,
            timezone = excluded.timezone,
            updated_at = excluded.updated_at,
            default_client_language = excluded.default_client_language,
            invitation_resend_days = excluded.invitation_resend_days,
            invitation_resends = excluded.invitation_resends,
            registration_window_days = excluded.registration_window_days,
            whatsapp_invitations = excluded.whatsapp_invitations,
            recommended_wallets = excluded.recommended_wallets,
            home_domain = excluded.home_domain,
            documentation = excluded.documentation,
            invoicing = excluded.invoicing,
            country = excluded.country",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(s.default_currency.code())
    .bind(s.default_tax_rate.thousandths())
    .bind(s.payout_approval_required)
    .bind(s.require_distinct_approver)
    .bind(&s.timezone)
    .bind(at.as_millis())
    .bind(s.receivers.default_client_language.as_str())
    .bind(i64::from(s.receivers.invitation_resend_days))
    .bind(i64::from(s.receivers.invitation_resends))
    .bind(i64::from(s.receivers.registration_window_days))
    .bind(s.receivers.whatsapp_invitations)
    .bind(wallets_text(&s.receivers.recommended_wallets)?)
    .bind(&s.stellar.home_domain)
    .bind(serde_json::to_string(&StoredDocumentation::of(&s.stellar)).map_err(corrupt)?)
    .bind(serde_json::to_string(&StoredInvoicing::of(&s.invoicing)).map_err(corrupt)?)
    .bind(s.country.code())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The tenant's settings as a write transaction sees them, so a rule they set (approval, a
/// distinct approver) applies to the change made in that same transaction; a settings change
/// waits for the transaction instead of slipping in between the read and the commit.
async fn settings_in(tx: &mut Tx, tenant: &Tenant) -> StoreResult<Settings> {
    let row = query(concat!(settings_select!(), for_share!()))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut **tx)
        .await?;
    settings_from_row(row.as_ref())
}

/// The tenant's settings under the write lock that orders every change of them, with a row to
/// lock even before the first change (so two first changes queue instead of the later one
/// overwriting the other's fields with defaults).
async fn locked_settings(tx: &mut Tx, tenant: &Tenant, at: Timestamp) -> StoreResult<Settings> {
    let defaults = Settings::default();
    query(
        "INSERT INTO settings (org_id, env, default_currency, default_tax_rate, payout_approval_required,
                               require_distinct_approver, timezone, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (org_id, env) DO NOTHING",
    )
    .bind(&tenant.org_id)
    .bind(tenant.env.as_str())
    .bind(defaults.default_currency.code())
    .bind(defaults.default_tax_rate.thousandths())
    .bind(defaults.payout_approval_required)
    .bind(defaults.require_distinct_approver)
    .bind(&defaults.timezone)
    .bind(at.as_millis())
    .execute(&mut **tx)
    .await?;
    let row = query(concat!(settings_select!(), for_update!()))
        .bind(&tenant.org_id)
        .bind(tenant.env.as_str())
        .fetch_optional(&mut **tx)
        .await?;
    settings_from_row(row.as_ref())
}

#[async_trait]
impl OrgStore for ThisStore {
    async fn create_organization(&self, org: &Organization) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        insert_org(&mut tx, org).await?;
        self.commit(tx).await
    }

    async fn list_organizations(&self) -> StoreResult<Vec<Organization>> {
        let sql = format!("SELECT {ORG_COLUMNS} FROM organizations ORDER BY created_at, id");
        let rows = query(&sql).fetch_all(self.reader()).await?;
        rows.iter().map(org_from_row).collect()
    }

    async fn get_organization(&self, id: &str) -> StoreResult<Option<Organization>> {
        let sql = format!("SELECT {ORG_COLUMNS} FROM organizations WHERE id = $1");
        let row = query(&sql).bind(id).fetch_optional(self.reader()).await?;
        row.as_ref().map(org_from_row).transpose()
    }

    async fn rename_organization(&self, id: &str, name: &str, by: &Actor, at: Timestamp) -> StoreResult<Organization> {
        let mut tx = self.begin_write().await?;
        let sql = format!("SELECT {ORG_COLUMNS} FROM organizations WHERE id = $1{}", for_update!());
        let row = query(&sql).bind(id).fetch_optional(&mut *tx).await?;
        let mut org = row.as_ref().map(org_from_row).transpose()?.ok_or(StoreError::NotFound)?;
        if org.name != name {
            query("UPDATE organizations SET name = $1 WHERE id = $2").bind(name).bind(id).execute(&mut *tx).await?;
            record_access(&mut tx, &AccessChange::of_rename(id, &org.name, name, by, at)).await?;
            org.name = name.to_owned();
        }
        self.commit(tx).await?;
        Ok(org)
    }

    async fn bootstrap(&self, org: &Organization, key: &NewApiKey) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        Self::lock_bootstrap(&mut tx).await?;
        let existing: i64 = query_scalar("SELECT COUNT(*) FROM organizations").fetch_one(&mut *tx).await?;
        if existing > 0 {
            return Ok(false);
        }
        insert_org(&mut tx, org).await?;
        insert_key(&mut tx, key, &Actor::System(Actor::SETUP.to_owned())).await?;
        self.commit(tx).await?;
        Ok(true)
    }

    async fn create_api_key(&self, key: &NewApiKey, by: &Actor) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        insert_key(&mut tx, key, by).await?;
        self.commit(tx).await
    }

    async fn list_api_keys(&self, org_id: Option<&str>) -> StoreResult<Vec<ApiKey>> {
        let rows = query(concat!(
            "SELECT ",
            key_columns!(),
            " FROM api_keys k WHERE ($1 IS NULL OR k.org_id = $1) ORDER BY k.created_at, k.id"
        ))
        .bind(org_id)
        .fetch_all(self.reader())
        .await?;
        rows.iter().map(key_from_row).collect()
    }

    async fn revoke_api_key(&self, key_id: &str, at: Timestamp, by: &Actor) -> StoreResult<ApiKey> {
        let mut tx = self.begin_write().await?;
        let revoked = query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
            .bind(at.as_millis())
            .bind(key_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let row = query(concat!("SELECT ", key_columns!(), " FROM api_keys k WHERE k.id = $1"))
            .bind(key_id)
            .fetch_optional(&mut *tx)
            .await?;
        let key = key_from_row(&row.ok_or(StoreError::NotFound)?)?;
        if revoked > 0 {
            record_access(&mut tx, &AccessChange::of_key(&key, AccessAction::KeyRevoked, by, at)).await?;
        }
        self.commit(tx).await?;
        Ok(key)
    }

    async fn authenticate(&self, secret_hash: &str) -> StoreResult<Option<(ApiKey, Organization)>> {
        let row = query(concat!(
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
        query(
            "UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)",
        )
        .bind(at.as_millis())
        .bind(key_id)
        .execute(&mut *tx)
        .await?;
        Ok(tx.commit().await?)
    }

    async fn get_settings(&self, tenant: &Tenant) -> StoreResult<Settings> {
        let row = query(settings_select!())
            .bind(&tenant.org_id)
            .bind(tenant.env.as_str())
            .fetch_optional(self.reader())
            .await?;
        settings_from_row(row.as_ref())
    }

    async fn home_domain_org(&self, env: Environment, domain: &str) -> StoreResult<Option<HomeDomainOrg>> {
        // Served only once proved (`home_domain_proofs`): a domain set and not proved is nobody's.
        let sql = "SELECT o.id, o.name, o.tier, o.created_at, s.home_domain, s.documentation
                   FROM settings s JOIN organizations o ON o.id = s.org_id
                   JOIN home_domain_proofs p ON p.org_id = s.org_id AND p.env = s.env AND p.domain = s.home_domain
                   WHERE s.env = $1 AND s.home_domain = $2 AND p.verified_at IS NOT NULL";
        let row = query(sql).bind(env.as_str()).bind(domain).fetch_optional(self.reader()).await?;
        let Some(row) = row else { return Ok(None) };
        let profile = profile_of(row.try_get("home_domain")?, &row.try_get::<String, _>("documentation")?)?;
        Ok(Some(HomeDomainOrg { org: org_from_row(&row)?, profile }))
    }

    async fn put_settings(&self, tenant: &Tenant, s: &Settings, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        upsert_settings(&mut tx, tenant, s, at).await?;
        self.commit(tx).await
    }

    async fn update_settings(&self, tenant: &Tenant, rule: SettingsRule<'_>, at: Timestamp) -> StoreResult<Settings> {
        let mut tx = self.begin_write().await?;
        let current = locked_settings(&mut tx, tenant, at).await?;
        let approvers = count_approvers(&mut tx, tenant).await?;
        let decision = rule(&current, approvers).map_err(StoreError::Rejected)?;
        if decision.settings != current {
            upsert_settings(&mut tx, tenant, &decision.settings, at).await?;
        }
        for change in &decision.changes {
            record_settings_change(&mut tx, tenant, change).await?;
        }
        for event in &decision.events {
            insert_event(&mut tx, tenant, at, event).await?;
        }
        self.commit(tx).await?;
        Ok(decision.settings)
    }
}
