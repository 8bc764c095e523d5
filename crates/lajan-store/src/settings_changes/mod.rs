//! Settings changes: every change of an environment's settings as the audit page lists it, and
//! the approval-policy changes that wait for a second person, decided (confirmed or cancelled)
//! under the settings' row lock with their events.

use crate::{IdempotentResponse, NewEvent, StoreResult};
use async_trait::async_trait;
use lajan_domain::settings::Settings;
use lajan_domain::settings_change::{Provenance, SettingsChange};
use lajan_domain::{Invalid, Tenant, Timestamp};

/// What a settings update comes to: the settings after it, the changes to record (none when
/// nothing changed), and their events.
#[derive(Debug, Clone)]
pub struct SettingsDecision {
    pub settings: Settings,
    pub changes: Vec<SettingsChange>,
    pub events: Vec<NewEvent>,
}

/// The service's rule for an update, given the settings as the transaction reads them (locked)
/// and how many console users and API keys of the environment may approve payouts.
pub type SettingsRule<'a> = &'a (dyn Fn(&Settings, u32) -> Result<SettingsDecision, Invalid> + Send + Sync);

/// The service's decision on a waiting change, given the change and the settings as the
/// transaction reads them: it updates the change (status, who, when) and answers the settings
/// after it (when it applies) and the events to write; or refuses.
/// A decision on a waiting change: given the change (locked), the settings as they are and where
/// the decider came from (the access trail: when and by whom their key or user was made), the
/// settings that then apply and the events to record.
pub type ChangeDecision<'a> = &'a (
        dyn Fn(
    &mut SettingsChange,
    &Settings,
    Option<&Provenance>,
) -> Result<(Option<Settings>, Vec<NewEvent>), Invalid>
            + Send
            + Sync
    );

#[async_trait]
pub trait SettingsChangeStore: Send + Sync {
    /// Applies `decide` to the change `id` of the tenant and stores what it decided with the
    /// request's idempotent answer; `NotFound` for an unknown id, `Rejected` for a refusal.
    async fn decide_settings_change(
        &self,
        tenant: &Tenant,
        id: &str,
        decide: ChangeDecision<'_>,
        at: Timestamp,
        idempotency: Option<IdempotentResponse<'_, SettingsChange>>,
    ) -> StoreResult<SettingsChange>;
    async fn get_settings_change(&self, tenant: &Tenant, id: &str) -> StoreResult<Option<SettingsChange>>;
    /// The change waiting for a second person, unless it lapsed before `now`.
    async fn pending_settings_change(&self, tenant: &Tenant, now: Timestamp) -> StoreResult<Option<SettingsChange>>;
    /// The organization's settings changes in both environments, newest first.
    async fn list_settings_changes(&self, org_id: &str, limit: u32) -> StoreResult<Vec<SettingsChange>>;
}
