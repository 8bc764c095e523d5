//! Tenancy: every row belongs to one organization and one environment (test or live).

use crate::Actor;
use serde::Serialize;

/// Sandbox (`test`) or production (`live`). Data never crosses between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    Test,
    Live,
}

str_enum!(Environment {
    Test => "test",
    Live => "live",
});

impl Environment {
    /// Secret keys of this environment start with this prefix.
    pub const fn key_prefix(self) -> &'static str {
        match self {
            Environment::Test => "sk_test_",
            Environment::Live => "sk_live_",
        }
    }

    pub const fn is_live(self) -> bool {
        matches!(self, Environment::Live)
    }
}

/// The organization and environment a request acts in, and who acts. Every store query is
/// scoped by the first two; every event the store writes records the third, so no change can
/// reach the store without saying who made it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tenant {
    pub org_id: String,
    pub env: Environment,
    pub actor: Actor,
}

impl Tenant {
    /// Lajan's own workers acting in `org_id` and `env`; see [`Tenant::acting_as`].
    pub fn new(org_id: impl Into<String>, env: Environment) -> Self {
        Tenant { org_id: org_id.into(), env, actor: Actor::worker() }
    }

    pub fn acting_as(self, actor: Actor) -> Self {
        Tenant { actor, ..self }
    }
}
