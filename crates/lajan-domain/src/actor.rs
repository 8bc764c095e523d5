//! Who made a change: an API key, a console user, or Lajan itself. Every event records one, so
//! the audit trail answers "who" for every change.

use serde::Serialize;

/// The maker of a change, as events show it: `{ "type": "api_key" | "user" | "system", "id" }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", content = "id", rename_all = "snake_case")]
pub enum Actor {
    /// The key's id (`key_...`), never its secret.
    ApiKey(String),
    /// The console user's id (`usr_...`).
    User(String),
    /// Lajan acting on its own: [`Actor::WORKER`] for the background workers, or the part of
    /// Lajan that acted for someone without an account (the payment page for a payer).
    System(String),
}

impl Actor {
    /// The background workers: payouts sent, webhooks disabled, invoices gone overdue.
    pub const WORKER: &'static str = "worker";
    /// The hosted payment page, acting for a payer who has no account.
    pub const PAYMENT_PAGE: &'static str = "payment_page";
    /// The registration page, acting for a receiver who holds an invitation's link.
    pub const REGISTRATION_PAGE: &'static str = "registration_page";
    /// An operator at the server's command line (`lajan users ...`, `lajan keys ...`).
    pub const CLI: &'static str = "cli";
    /// The first start, which creates an organization and a key when there is none.
    pub const SETUP: &'static str = "setup";
    /// What events written before actors were recorded show as their maker.
    pub const UNRECORDED: &'static str = "unrecorded";

    pub fn worker() -> Self {
        Actor::System(Self::WORKER.to_owned())
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Actor::ApiKey(_) => "api_key",
            Actor::User(_) => "user",
            Actor::System(_) => "system",
        }
    }

    pub fn id(&self) -> &str {
        match self {
            Actor::ApiKey(id) | Actor::User(id) | Actor::System(id) => id,
        }
    }

    /// The actor stored as its [`Actor::kind`] and [`Actor::id`].
    pub fn from_parts(kind: &str, id: String) -> Result<Self, String> {
        match kind {
            "api_key" => Ok(Actor::ApiKey(id)),
            "user" => Ok(Actor::User(id)),
            "system" => Ok(Actor::System(id)),
            other => Err(format!("unknown actor type {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Actor;

    #[test]
    fn an_actor_reads_back_from_what_is_stored_and_shows_as_type_and_id() {
        for actor in [Actor::ApiKey("key_1".into()), Actor::User("usr_1".into()), Actor::worker()] {
            assert_eq!(Actor::from_parts(actor.kind(), actor.id().to_owned()), Ok(actor.clone()));
        }
        assert!(Actor::from_parts("robot", "r".into()).is_err());
        let shown = serde_json::to_value(Actor::User("usr_1".into())).unwrap();
        assert_eq!(shown, serde_json::json!({ "type": "user", "id": "usr_1" }));
    }
}
