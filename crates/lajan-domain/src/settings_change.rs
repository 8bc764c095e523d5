//! A change of an organization's settings, as the audit trail keeps it, and the four-eyes rule
//! for the approval policy: a change that lets a payout go with fewer people (approval off, or
//! its maker allowed to approve) waits for a second person with approval rights, who confirms
//! it within 72 hours; the asker, or any approver, may cancel it. Where nobody else could
//! confirm, it applies at once and says so.

use crate::settings::Settings;
use crate::{Actor, Environment, Timestamp};

/// How long a change may wait for its confirmation before it lapses.
pub const CONFIRM_WITHIN_MS: i64 = 72 * 60 * 60 * 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeStatus {
    /// Applied when asked: it relaxed nothing.
    Applied,
    /// Relaxed the approval policy and applied at once: nobody else had approval rights.
    Unconfirmed,
    /// Waits for a second person.
    Pending,
    /// A second person confirmed it, and it applied.
    Confirmed,
    /// The asker or an approver cancelled it.
    Cancelled,
    /// A later change of the approval policy replaced it before anyone confirmed it.
    Superseded,
    /// Nobody confirmed it within [`CONFIRM_WITHIN_MS`].
    Lapsed,
}

str_enum!(ChangeStatus {
    Applied => "applied",
    Unconfirmed => "unconfirmed",
    Pending => "pending",
    Confirmed => "confirmed",
    Cancelled => "cancelled",
    Superseded => "superseded",
    Lapsed => "lapsed",
});

/// One change of one environment's settings: who asked, when, the settings before and the
/// settings asked for, and what came of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsChange {
    pub id: String,
    pub env: Environment,
    pub requested_by: Actor,
    pub requested_at: Timestamp,
    pub before: Settings,
    pub after: Settings,
    /// As stored: a pending change past its expiry reads as [`ChangeStatus::Lapsed`] through
    /// [`SettingsChange::status_at`].
    pub status: ChangeStatus,
    pub expires_at: Option<Timestamp>,
    pub decided_by: Option<Actor>,
    pub decided_at: Option<Timestamp>,
}

/// Why a change cannot be decided as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecisionRefused {
    /// It was confirmed, cancelled, replaced or has lapsed.
    NotPending(ChangeStatus),
    /// The asker cannot be the second person.
    OwnChange,
    /// The confirmer is not another person: a key or user that came after the request, a key
    /// the asker made, or a user the asker made shortly before asking.
    NotSecondPerson,
}

/// How long before a request a user the asker created stays unable to confirm it: an admin who
/// invites an approver and is shown their first password could otherwise confirm as them.
pub const SECOND_PERSON_SETTLE_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// Where a key or user with approval rights came from: when, and who made it (`None` when the
/// access trail does not say, for keys and users older than it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    pub at: Timestamp,
    pub by: Option<Actor>,
}

impl SettingsChange {
    /// The status as of `now`: a pending change past its expiry has lapsed.
    pub fn status_at(&self, now: Timestamp) -> ChangeStatus {
        match (self.status, self.expires_at) {
            (ChangeStatus::Pending, Some(expires)) if expires.as_millis() <= now.as_millis() => ChangeStatus::Lapsed,
            (status, _) => status,
        }
    }

    /// Whether it touches who must approve a payout; a later such change replaces a pending one.
    pub fn touches_approval_policy(&self) -> bool {
        self.before.changes_approval_policy(&self.after)
    }

    /// `by`, which came to have approval rights as `provenance` says, confirms it at `now`: the
    /// settings `current` then become, with the policy asked for. A second person is another
    /// human: a key only if it existed before the request and someone else made it; a user only
    /// if they existed before it and were not made by the asker within [`SECOND_PERSON_SETTLE_MS`].
    pub fn confirm(
        &mut self,
        by: &Actor,
        provenance: Option<&Provenance>,
        now: Timestamp,
        current: &Settings,
    ) -> Result<Settings, DecisionRefused> {
        if let Some(p) = provenance {
            let after_request = p.at.as_millis() >= self.requested_at.as_millis();
            let made_by_asker = p.by.as_ref() == Some(&self.requested_by);
            let settled = self.requested_at.as_millis() - p.at.as_millis() >= SECOND_PERSON_SETTLE_MS;
            let refused = match by {
                Actor::ApiKey(_) => after_request || made_by_asker,
                _ => after_request || (made_by_asker && !settled),
            };
            if refused && *by != self.requested_by {
                return Err(DecisionRefused::NotSecondPerson);
            }
        }
        self.decide(by, now, ChangeStatus::Confirmed)?;
        Ok(current.with_policy_of(&self.after))
    }

    /// `by` (the asker or another approver) cancels it at `now`.
    pub fn cancel(&mut self, by: &Actor, now: Timestamp) -> Result<(), DecisionRefused> {
        self.decide(by, now, ChangeStatus::Cancelled)
    }

    fn decide(&mut self, by: &Actor, now: Timestamp, outcome: ChangeStatus) -> Result<(), DecisionRefused> {
        match self.status_at(now) {
            ChangeStatus::Pending => {}
            other => return Err(DecisionRefused::NotPending(other)),
        }
        if outcome == ChangeStatus::Confirmed && *by == self.requested_by {
            return Err(DecisionRefused::OwnChange);
        }
        self.status = outcome;
        self.decided_by = Some(by.clone());
        self.decided_at = Some(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(at: i64) -> SettingsChange {
        let before = Settings::default();
        let after = Settings { payout_approval_required: false, ..Settings::default() };
        SettingsChange {
            id: "stc_1".into(),
            env: Environment::Live,
            requested_by: Actor::User("usr_asker".into()),
            requested_at: Timestamp::from_millis(at),
            before,
            after,
            status: ChangeStatus::Pending,
            expires_at: Some(Timestamp::from_millis(at + CONFIRM_WITHIN_MS)),
            decided_by: None,
            decided_at: None,
        }
    }

    #[test]
    fn a_second_person_confirms_within_72_hours() {
        let (asker, other) = (Actor::User("usr_asker".into()), Actor::ApiKey("key_other".into()));
        let current = Settings { timezone: "America/Port-au-Prince".into(), ..Settings::default() };
        let mut change = pending(1_000);
        assert!(change.touches_approval_policy());
        assert_eq!(
            change.confirm(&asker, None, Timestamp::from_millis(2_000), &current),
            Err(DecisionRefused::OwnChange)
        );
        let applied = change.confirm(&other, None, Timestamp::from_millis(2_000), &current).unwrap();
        assert!(!applied.payout_approval_required && applied.timezone == current.timezone, "{applied:?}");
        assert_eq!((change.status, change.decided_by.as_ref()), (ChangeStatus::Confirmed, Some(&other)));
        let again = change.cancel(&asker, Timestamp::from_millis(3_000));
        assert_eq!(again, Err(DecisionRefused::NotPending(ChangeStatus::Confirmed)));

        let mut late = pending(1_000);
        let expiry = Timestamp::from_millis(1_000 + CONFIRM_WITHIN_MS);
        assert_eq!(late.status_at(Timestamp::from_millis(999 + CONFIRM_WITHIN_MS)), ChangeStatus::Pending);
        assert_eq!(late.status_at(expiry), ChangeStatus::Lapsed);
        assert_eq!(
            late.confirm(&other, None, expiry, &current),
            Err(DecisionRefused::NotPending(ChangeStatus::Lapsed))
        );

        let mut cancelled = pending(1_000);
        assert_eq!(cancelled.cancel(&asker, Timestamp::from_millis(2_000)), Ok(()));
        assert_eq!(cancelled.status, ChangeStatus::Cancelled);
    }

    #[test]
    fn the_second_person_existed_before_the_request_and_was_not_made_by_the_asker() {
        let requested_at = Timestamp::from_millis(10 * SECOND_PERSON_SETTLE_MS);
        let asker = Actor::User("usr_admin".into());
        let pending = SettingsChange {
            requested_by: asker.clone(),
            requested_at,
            expires_at: Some(requested_at.plus_millis(1_000_000)),
            ..pending(0)
        };
        let now = requested_at.plus_millis(10);
        let current = Settings::default();
        let made = |at: i64, by: &Actor| Provenance { at: Timestamp::from_millis(at), by: Some(by.clone()) };
        let cli = Actor::System("cli".into());
        let key = Actor::ApiKey("key_new".into());
        let user = Actor::User("usr_new".into());
        let before = requested_at.as_millis() - 1;
        for (who, provenance, allowed) in [
            (&key, made(requested_at.as_millis() + 1, &cli), false),
            (&key, made(before, &asker), false),
            (&key, made(before, &cli), true),
            (&user, made(requested_at.as_millis(), &cli), false),
            (&user, made(before, &asker), false),
            (&user, made(requested_at.as_millis() - SECOND_PERSON_SETTLE_MS, &asker), true),
            (&user, made(before, &cli), true),
        ] {
            let confirmed = pending.clone().confirm(who, Some(&provenance), now, &current);
            assert_eq!(confirmed.is_ok(), allowed, "{who:?} {provenance:?}");
            if !allowed {
                assert_eq!(confirmed, Err(DecisionRefused::NotSecondPerson));
            }
        }
    }
}
