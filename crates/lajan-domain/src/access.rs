//! The access trail: who changed who may act for an organization (its console users and API
//! keys) or the name it shows payers, and when. These are not events: no webhook carries them
//! and no environment owns them; the console's audit page lists them beside the sign-ins.

use crate::apikey::ApiKey;
use crate::id::IdKind;
use crate::user::User;
use crate::{Actor, Timestamp};

/// What changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessAction {
    UserCreated,
    UserDisabled,
    KeyCreated,
    KeyRevoked,
    OrganizationRenamed,
}

str_enum!(AccessAction {
    UserCreated => "user.created",
    UserDisabled => "user.disabled",
    KeyCreated => "api_key.created",
    KeyRevoked => "api_key.revoked",
    OrganizationRenamed => "organization.renamed",
});

/// One change of access, with what it was about as it stood then (a later rename or deletion
/// does not rewrite the trail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessChange {
    pub id: String,
    pub org_id: String,
    pub at: Timestamp,
    pub actor: Actor,
    pub action: AccessAction,
    /// The user's or the key's id.
    pub subject_id: String,
    /// The user as `email (role)`, the key as `name (environment, hint…)`, a rename as
    /// `old → new`.
    pub subject: String,
}

impl AccessChange {
    pub fn of_user(user: &User, action: AccessAction, by: &Actor, at: Timestamp) -> Self {
        let subject = format!("{} ({})", user.email, user.role);
        AccessChange::new(&user.org_id, action, &user.id, subject, by, at)
    }

    pub fn of_key(key: &ApiKey, action: AccessAction, by: &Actor, at: Timestamp) -> Self {
        let subject = format!("{} ({}, {}…)", key.name, key.env, key.hint);
        AccessChange::new(&key.org_id, action, &key.id, subject, by, at)
    }

    /// The organization's name changed from `old` to `new`: payers see it on pages, emails and
    /// SMS, so who changed it is on the trail.
    pub fn of_rename(org_id: &str, old: &str, new: &str, by: &Actor, at: Timestamp) -> Self {
        AccessChange::new(org_id, AccessAction::OrganizationRenamed, org_id, format!("{old} → {new}"), by, at)
    }

    fn new(org_id: &str, action: AccessAction, subject_id: &str, subject: String, by: &Actor, at: Timestamp) -> Self {
        AccessChange {
            id: IdKind::AccessChange.generate(),
            org_id: org_id.to_owned(),
            at,
            actor: by.clone(),
            action,
            subject_id: subject_id.to_owned(),
            subject,
        }
    }
}
