//! Settings use case: a partial update of the tenant's settings.

use crate::{ServiceResult, Services};
use lajan_domain::settings::{Settings, SettingsInput};
use lajan_domain::{Tenant, Timestamp};

impl Services {
    /// Applies the fields given over the current settings (every bad field refused at once) and
    /// stores the result, in one unit of work.
    pub async fn update_settings(&self, tenant: &Tenant, input: SettingsInput) -> ServiceResult<Settings> {
        let change = |current: &Settings| current.updated(input.clone());
        Ok(self.store.update_settings(tenant, &change, Timestamp::now()).await?)
    }
}
