//! Settings use cases: a partial update of the tenant's settings, recorded as `settings.updated`
//! and on the audit trail; and four eyes on the approval policy. A change that lets payouts go
//! with fewer people waits for a second person with approval rights (`settings.change_requested`),
//! who confirms it (`settings.updated` naming both) within 72 hours, or it is cancelled
//! (`settings.change_cancelled`). Where nobody else has approval rights it applies at once, and
//! the event and the audit trail say no second person confirmed it.

use crate::events::{SecondPerson, settings_change_event, settings_event};
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::id::IdKind;
use lajan_domain::settings::{Settings, SettingsInput};
use lajan_domain::settings_change::{CONFIRM_WITHIN_MS, ChangeStatus, DecisionRefused, Provenance, SettingsChange};
use lajan_domain::{Invalid, Tenant, Timestamp};
use lajan_store::{ChangeDecision, IdempotentResponse, SettingsDecision, StoreError};

const APPROVAL_POLICY_NEEDS_APPROVER: &str = "Changing payoutApprovalRequired or requireDistinctApprover needs the \
     payouts:approve scope: the approval policy is the approvers' to set";

const NOT_SECOND_PERSON: &str = "A second person is someone else: a key made before the change was asked for, by \
                                 someone other than the asker, or a user with approval rights before it who was not \
                                 made by the asker in the week before";
const OWN_CHANGE: &str = "The person or key that asked for a change cannot be its second person: another \
     with approval rights confirms it";

impl Services {
    /// Applies the fields given over the current settings (every bad field refused at once) in
    /// one unit of work with its events and audit record. A change of the approval policy by a
    /// caller that may not approve payouts is 403 and changes nothing. A change that relaxes the
    /// policy applies its other fields now and leaves the policy waiting for a second person,
    /// unless nobody else could confirm it.
    pub async fn update_settings(
        &self,
        tenant: &Tenant,
        may_set_approval_policy: bool,
        input: SettingsInput,
    ) -> ServiceResult<(Settings, Option<SettingsChange>)> {
        let now = Timestamp::now();
        let rule = |current: &Settings, approvers: u32| {
            let asked = current.updated(input.clone())?;
            if !may_set_approval_policy && current.changes_approval_policy(&asked) {
                return Err(Invalid::new("forbidden", APPROVAL_POLICY_NEEDS_APPROVER));
            }
            Ok(decide_update(tenant, current, &asked, approvers, now))
        };
        if input.stellar.home_domain.as_deref().is_some_and(|d| d.trim() == self.home_domain()) {
            return Err(ServiceError::field("homeDomain", "is in use already"));
        }
        let settings = match self.store.update_settings(tenant, &rule, now).await {
            Err(StoreError::Rejected(refusal)) if refusal.code == "forbidden" => {
                return Err(ServiceError::Forbidden(APPROVAL_POLICY_NEEDS_APPROVER));
            }
            // The one unique field of the settings: another organization's home domain.
            Err(StoreError::Conflict(_)) => return Err(ServiceError::field("homeDomain", "is in use already")),
            updated => updated?,
        };
        let pending = self.store.pending_settings_change(tenant, now).await?;
        Ok((settings, pending))
    }

    /// The caller confirms the change waiting for a second person: its policy applies over the
    /// settings as they are now, with `settings.updated` naming who asked and who confirmed.
    /// The caller must have approval rights (the route's or the page's check) and not be the
    /// one who asked (403).
    pub async fn confirm_settings_change(
        &self,
        tenant: &Tenant,
        id: &str,
        idempotency: Option<IdempotentResponse<'_, SettingsChange>>,
    ) -> ServiceResult<SettingsChange> {
        let now = Timestamp::now();
        let decide = |change: &mut SettingsChange, current: &Settings, provenance: Option<&Provenance>| {
            let next = change.confirm(&tenant.actor, provenance, now, current).map_err(refusal)?;
            let second = SecondPerson::Confirmed { requested_by: &change.requested_by };
            Ok((Some(next.clone()), vec![settings_event(&tenant.actor, current, &next, second)]))
        };
        self.decide_settings_change(tenant, id, &decide, now, idempotency).await
    }

    /// The asker, or another with approval rights, cancels the change waiting for a second
    /// person (`settings.change_cancelled`); the settings stay as they are.
    pub async fn cancel_settings_change(
        &self,
        tenant: &Tenant,
        id: &str,
        idempotency: Option<IdempotentResponse<'_, SettingsChange>>,
    ) -> ServiceResult<SettingsChange> {
        let now = Timestamp::now();
        let decide = |change: &mut SettingsChange, _: &Settings, _: Option<&Provenance>| {
            change.cancel(&tenant.actor, now).map_err(refusal)?;
            Ok((None, vec![settings_change_event("settings.change_cancelled", change, now)]))
        };
        self.decide_settings_change(tenant, id, &decide, now, idempotency).await
    }

    async fn decide_settings_change(
        &self,
        tenant: &Tenant,
        id: &str,
        decide: ChangeDecision<'_>,
        now: Timestamp,
        idempotency: Option<IdempotentResponse<'_, SettingsChange>>,
    ) -> ServiceResult<SettingsChange> {
        match self.store.decide_settings_change(tenant, id, decide, now, idempotency).await {
            Err(StoreError::Rejected(refusal)) if refusal.code == "forbidden" => {
                Err(ServiceError::Forbidden(OWN_CHANGE))
            }
            Err(StoreError::Rejected(refusal)) if refusal.code == "not_second_person" => {
                Err(ServiceError::Forbidden(NOT_SECOND_PERSON))
            }
            decided => decided.map_err(ServiceError::not_found_as("settings change")),
        }
    }
}

fn refusal(refused: DecisionRefused) -> Invalid {
    match refused {
        DecisionRefused::OwnChange => Invalid::new("forbidden", OWN_CHANGE),
        DecisionRefused::NotSecondPerson => Invalid::new("not_second_person", NOT_SECOND_PERSON),
        DecisionRefused::NotPending(status) => Invalid::new(
            "settings_change_not_pending",
            format!("This change is {status}: only a pending change can be confirmed or cancelled"),
        ),
    }
}

/// What an update asking for `asked` over `current` comes to, when `approvers` people or keys
/// could approve payouts: the fields that apply now (a tightened rule among them) with their
/// record and event, and a relaxation of the policy waiting for a second person when there
/// could be one.
fn decide_update(
    tenant: &Tenant,
    current: &Settings,
    asked: &Settings,
    approvers: u32,
    now: Timestamp,
) -> SettingsDecision {
    let record = |before: &Settings, after: &Settings, status: ChangeStatus| SettingsChange {
        id: IdKind::SettingsChange.generate(),
        env: tenant.env,
        requested_by: tenant.actor.clone(),
        requested_at: now,
        before: before.clone(),
        after: after.clone(),
        status,
        expires_at: (status == ChangeStatus::Pending).then(|| now.plus_millis(CONFIRM_WITHIN_MS)),
        decided_by: None,
        decided_at: None,
    };
    let mut decision = SettingsDecision { settings: current.clone(), changes: Vec::new(), events: Vec::new() };
    if asked == current {
        return decision;
    }
    let relaxes = current.relaxes_approval_policy(asked);
    // The asker is one of the approvers; a second person exists when someone else is.
    let waits = relaxes && approvers > 1;
    let applied = if waits { asked.keeping_rules_of(current) } else { asked.clone() };
    if applied != *current {
        let (status, second) = match relaxes {
            true if !waits => (ChangeStatus::Unconfirmed, SecondPerson::NoneAvailable),
            _ => (ChangeStatus::Applied, SecondPerson::NotNeeded),
        };
        decision.changes.push(record(current, &applied, status));
        decision.events.push(settings_event(&tenant.actor, current, &applied, second));
    }
    if waits {
        let pending = record(&applied, &applied.with_policy_of(asked), ChangeStatus::Pending);
        decision.events.push(settings_change_event("settings.change_requested", &pending, now));
        decision.changes.push(pending);
    }
    decision.settings = applied;
    decision
}
