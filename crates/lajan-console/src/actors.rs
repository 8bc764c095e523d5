//! Who made a change, as a person reads it: a user by name and email, a key by name and hint,
//! Lajan's own work by what did it; in the language the request is answered in.

use lajan_domain::{Actor, Tenant};
use lajan_i18n::{say, say_with};
use lajan_services::{ServiceResult, Services};
use std::collections::HashMap;

/// The names of the organization's users and of the environment's keys, loaded once per page.
pub(crate) struct Names(HashMap<String, String>);

impl Names {
    pub(crate) async fn of(services: &Services, tenant: &Tenant) -> ServiceResult<Names> {
        let users = services.store.list_users(Some(&tenant.org_id)).await?;
        let keys = services.list_keys(tenant).await?;
        let users = users.into_iter().map(|u| {
            let shown = match &u.name {
                Some(name) => format!("{name} ({})", u.email),
                None => u.email.clone(),
            };
            (u.id, shown)
        });
        let keys = keys.into_iter().map(|k| (k.id, say_with("actor-api-key", &[("name", k.name), ("hint", k.hint)])));
        Ok(Names(users.chain(keys).collect()))
    }

    /// `actor` in words; an id no longer known (another environment's key) shows as the id.
    pub(crate) fn label(&self, actor: &Actor) -> String {
        match actor {
            Actor::ApiKey(id) | Actor::User(id) => self.0.get(id).cloned().unwrap_or_else(|| match actor {
                Actor::ApiKey(_) => say_with("actor-api-key-id", &[("id", id.clone())]),
                _ => say_with("actor-user-id", &[("id", id.clone())]),
            }),
            Actor::System(what) => match what.as_str() {
                Actor::WORKER => say("actor-worker"),
                Actor::PAYMENT_PAGE => say("actor-payment-page"),
                Actor::REGISTRATION_PAGE => say("actor-registration-page"),
                Actor::UNRECORDED => say("actor-unrecorded"),
                other => say_with("actor-system", &[("what", other.to_owned())]),
            },
        }
    }
}
