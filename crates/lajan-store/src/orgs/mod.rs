//! Organizations, their API keys and their per-environment settings: who may call the API, and
//! the defaults every other area reads.

use crate::StoreResult;
use crate::settings_changes::SettingsRule;
use async_trait::async_trait;
use lajan_domain::apikey::ApiKey;
use lajan_domain::org::Organization;
use lajan_domain::settings::Settings;
use lajan_domain::stellar_profile::StellarProfile;
use lajan_domain::{Actor, Environment, Tenant, Timestamp};

/// An organization found by the domain it points at Lajan, and how it presents itself there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeDomainOrg {
    pub org: Organization,
    pub profile: StellarProfile,
}

/// A fresh API key to store: the record and the SHA-256 hex digest of its secret.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    pub key: ApiKey,
    pub secret_hash: String,
}

#[async_trait]
pub trait OrgStore: Send + Sync {
    async fn create_organization(&self, org: &Organization) -> StoreResult<()>;
    async fn list_organizations(&self) -> StoreResult<Vec<Organization>>;
    async fn get_organization(&self, id: &str) -> StoreResult<Option<Organization>>;
    /// Names the organization `name`, recorded on the access trail as done `by` in the same
    /// transaction (nothing recorded when the name is already that). `NotFound` for an unknown id.
    async fn rename_organization(&self, id: &str, name: &str, by: &Actor, at: Timestamp) -> StoreResult<Organization>;
    /// On an empty database, creates `org` and `key` and returns true; otherwise does nothing.
    async fn bootstrap(&self, org: &Organization, key: &NewApiKey) -> StoreResult<bool>;
    /// `NotFound` when the key's organization does not exist. Recorded in the access trail as
    /// made `by` (the bootstrap key as made by `setup`).
    async fn create_api_key(&self, key: &NewApiKey, by: &Actor) -> StoreResult<()>;
    async fn list_api_keys(&self, org_id: Option<&str>) -> StoreResult<Vec<ApiKey>>;
    /// `NotFound` for an unknown id; revoking twice keeps, and records, the first time.
    async fn revoke_api_key(&self, key_id: &str, at: Timestamp, by: &Actor) -> StoreResult<ApiKey>;
    /// The live (unrevoked) key with this secret digest, and its organization.
    async fn authenticate(&self, secret_hash: &str) -> StoreResult<Option<(ApiKey, Organization)>>;
    async fn touch_api_key(&self, key_id: &str, at: Timestamp) -> StoreResult<()>;

    /// The tenant's settings, or the defaults when never set.
    async fn get_settings(&self, tenant: &Tenant) -> StoreResult<Settings>;
    async fn put_settings(&self, tenant: &Tenant, settings: &Settings, at: Timestamp) -> StoreResult<()>;
    /// Applies `rule` to the tenant's settings as this transaction reads them (locked, so two
    /// partial updates never lose one another's fields) and stores what it decided (the
    /// settings, the changes for the audit trail, their events); a refusal is `Rejected`.
    async fn update_settings(&self, tenant: &Tenant, rule: SettingsRule<'_>, at: Timestamp) -> StoreResult<Settings>;
    /// The organization whose `env` settings name `domain` as their home domain and who proved
    /// it (at most one: a second proof is `Conflict`).
    async fn home_domain_org(&self, env: Environment, domain: &str) -> StoreResult<Option<HomeDomainOrg>>;
}
