//! Settings use case: a partial update of the tenant's settings.

use crate::{ServiceResult, Services};
use lajan_domain::settings::{Settings, SettingsInput};
use lajan_domain::{Tenant, Timestamp};

impl Services {
    /// Applies the fields given over the current settings (every bad field refused at once) and
    /// stores the result.
    pub async fn update_settings(&self, tenant: &Tenant, input: SettingsInput) -> ServiceResult<Settings> {
        let next = self.store.get_settings(tenant).await?.updated(input)?;
        self.store.put_settings(tenant, &next, Timestamp::now()).await?;
        Ok(next)
    }
}
