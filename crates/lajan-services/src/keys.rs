//! API keys: issuing them (`sk_test_` / `sk_live_` plus 32 random base62 characters, of which
//! only the SHA-256 digest is kept), and an organization's keys listed, created and revoked from
//! the console and from the command line alike.

use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::apikey::{ApiKey, SECRET_RANDOM_LEN, parse_scopes, secret_hint};
use lajan_domain::hex::encode as hex;
use lajan_domain::id::IdKind;
use lajan_domain::scope::Scope;
use lajan_domain::validation::required_text;
use lajan_domain::{Actor, Environment, Tenant, Timestamp};
use lajan_store::NewApiKey;
use rand::Rng;
use rand::distr::Alphanumeric;
use sha2::{Digest, Sha256};

/// The lowercase hex SHA-256 of a secret, the only form in which keys are stored.
pub fn hash_secret(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// A fresh secret and the record to store for it. The secret is shown once and never again.
pub fn issue_key(org_id: &str, env: Environment, scopes: Vec<Scope>, name: &str) -> (String, NewApiKey) {
    let random: String = rand::rng().sample_iter(&Alphanumeric).take(SECRET_RANDOM_LEN).map(char::from).collect();
    let secret = format!("{}{random}", env.key_prefix());
    let key = ApiKey {
        id: IdKind::ApiKey.generate(),
        org_id: org_id.to_owned(),
        env,
        name: name.to_owned(),
        hint: secret_hint(&secret),
        scopes,
        created_at: Timestamp::now(),
        last_used_at: None,
        revoked_at: None,
    };
    let secret_hash = hash_secret(&secret);
    (secret, NewApiKey { key, secret_hash })
}

/// The longest name a key may have, in characters.
pub const MAX_KEY_NAME_CHARS: usize = 100;

impl Services {
    /// The keys of the tenant's organization in the tenant's environment, oldest first.
    pub async fn list_keys(&self, tenant: &Tenant) -> ServiceResult<Vec<ApiKey>> {
        let keys = self.store.list_api_keys(Some(&tenant.org_id)).await?;
        Ok(keys.into_iter().filter(|k| k.env == tenant.env).collect())
    }

    /// A new key of the tenant's organization and environment, named and scoped as asked; its
    /// secret is in the answer and nowhere else.
    pub async fn create_key<S: AsRef<str>>(
        &self,
        tenant: &Tenant,
        name: &str,
        scopes: &[S],
    ) -> ServiceResult<(String, ApiKey)> {
        let name = required_text(Some(name), MAX_KEY_NAME_CHARS, false).map_err(|e| ServiceError::field("name", e))?;
        let scopes = parse_scopes(scopes).map_err(|e| ServiceError::field("scopes", e))?;
        let (secret, key) = issue_key(&tenant.org_id, tenant.env, scopes, &name);
        self.store.create_api_key(&key, &tenant.actor).await?;
        Ok((secret, key.key))
    }

    /// Revokes a key of the tenant's organization and environment (revoking twice keeps the
    /// first time); any other key is `NotFound`, as a missing one is.
    pub async fn revoke_key(&self, tenant: &Tenant, key_id: &str) -> ServiceResult<ApiKey> {
        let keys = self.list_keys(tenant).await?;
        if !keys.iter().any(|k| k.id == key_id) {
            return Err(ServiceError::NotFound("key"));
        }
        let revoked = self.store.revoke_api_key(key_id, Timestamp::now(), &tenant.actor).await?;
        self.key_was_revoked();
        Ok(revoked)
    }

    /// Revokes the key `key_id` of whichever organization and environment holds it, as `by`:
    /// an operator's `lajan keys revoke`.
    pub async fn revoke_any_key(&self, key_id: &str, by: &Actor) -> ServiceResult<ApiKey> {
        let keys = self.store.list_api_keys(None).await?;
        let key = keys.into_iter().find(|k| k.id == key_id).ok_or(ServiceError::NotFound("key"))?;
        let tenant = Tenant { org_id: key.org_id, env: key.env, actor: by.clone() };
        self.revoke_key(&tenant, key_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issued_keys_are_well_formed_and_hashed() {
        let (secret, new) = issue_key("org_1", Environment::Live, vec![Scope::All], "ci");
        assert_eq!(lajan_domain::apikey::secret_environment(&secret), Some(Environment::Live));
        assert_eq!(new.secret_hash, hash_secret(&secret));
        assert_eq!(new.secret_hash.len(), 64);
        assert!(!new.key.hint.contains(&secret[12..]));
        assert_eq!(hash_secret("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
