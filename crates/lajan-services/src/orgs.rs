//! Organizations, as an operator makes them: at the command line (`lajan orgs create`), and
//! `lajan serve` on an empty database, which makes organization "Default" with a sandbox key;
//! and their name, which payers read on pages, emails and SMS (`lajan orgs rename`, or an admin
//! on the console's settings page).

use crate::keys::issue_key;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::id::IdKind;
use lajan_domain::org::{Organization, Tier, parse_org_name};
use lajan_domain::scope::Scope;
use lajan_domain::{Actor, Environment, Timestamp};
use lajan_store::StoreError;

impl Services {
    /// A new organization named `name` (its rules: [`parse_org_name`]) on `tier` (`standard` or
    /// `enterprise`); `Invalid` names each bad field.
    pub async fn create_organization(&self, name: &str, tier: &str) -> ServiceResult<Organization> {
        let name = parse_org_name(name).map_err(|rule| ServiceError::field("name", rule));
        let tier = tier.parse::<Tier>().map_err(|rule| ServiceError::field("tier", rule));
        let (name, tier) = (name?, tier?);
        let org = Organization { id: IdKind::Organization.generate(), name, tier, created_at: Timestamp::now() };
        self.store.create_organization(&org).await?;
        Ok(org)
    }

    /// Names organization `id` `name` (the rules of [`parse_org_name`]; `Invalid` on field
    /// `name`), on the access trail as done `by`. Pages, emails and SMS made from then on say it.
    pub async fn rename_organization(&self, id: &str, name: &str, by: &Actor) -> ServiceResult<Organization> {
        let name = parse_org_name(name).map_err(|rule| ServiceError::field("name", rule))?;
        match self.store.rename_organization(id, &name, by, Timestamp::now()).await {
            Err(StoreError::NotFound) => Err(ServiceError::NotFound("organization")),
            renamed => Ok(renamed?),
        }
    }

    /// On an empty database only: organization "Default" and a sandbox key with every scope,
    /// whose secret the answer carries once. `None` when any organization exists (another
    /// process may have made it first: the store decides in one transaction).
    pub async fn create_first_organization(&self) -> ServiceResult<Option<(Organization, String)>> {
        let org = Organization {
            id: IdKind::Organization.generate(),
            name: "Default".into(),
            tier: Tier::Standard,
            created_at: Timestamp::now(),
        };
        let (secret, key) = issue_key(&org.id, Environment::Test, vec![Scope::All], "sandbox (created on first run)");
        Ok(self.store.bootstrap(&org, &key).await?.then_some((org, secret)))
    }
}
