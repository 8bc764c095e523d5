//! Settings use case: a partial update of the tenant's settings, recorded as `settings.updated`.

use crate::events::settings_event;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::settings::{Settings, SettingsInput};
use lajan_domain::{Invalid, Tenant, Timestamp};
use lajan_store::StoreError;

const APPROVAL_POLICY_NEEDS_APPROVER: &str = "Changing payoutApprovalRequired or requireDistinctApprover needs the \
     payouts:approve scope: the approval policy is the approvers' to set";

impl Services {
    /// Applies the fields given over the current settings (every bad field refused at once) and
    /// stores the result with a `settings.updated` event (naming the key, for a key's change)
    /// and the previous values, in one unit of work. A change of the approval policy by a caller
    /// that may not approve payouts is 403 and changes nothing.
    pub async fn update_settings(
        &self,
        tenant: &Tenant,
        may_set_approval_policy: bool,
        input: SettingsInput,
    ) -> ServiceResult<Settings> {
        let change = |current: &Settings| {
            let next = current.updated(input.clone())?;
            if !may_set_approval_policy && current.changes_approval_policy(&next) {
                return Err(Invalid::new("forbidden", APPROVAL_POLICY_NEEDS_APPROVER));
            }
            let event = (next != *current).then(|| settings_event(&tenant.actor, current, &next));
            Ok((next, event))
        };
        match self.store.update_settings(tenant, &change, Timestamp::now()).await {
            Err(StoreError::Rejected(refusal)) if refusal.code == "forbidden" => {
                Err(ServiceError::Forbidden(APPROVAL_POLICY_NEEDS_APPROVER))
            }
            updated => Ok(updated?),
        }
    }
}
