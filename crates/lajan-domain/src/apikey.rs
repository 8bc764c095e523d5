//! API keys: `sk_test_` / `sk_live_` plus 32 base62 characters, stored only as a SHA-256 digest.

use crate::scope::Scope;
use crate::{Environment, Timestamp};

/// Length of the random part of a secret key.
pub const SECRET_RANDOM_LEN: usize = 32;

/// A stored API key. The secret itself is never stored, only its digest and a display hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub id: String,
    pub org_id: String,
    pub env: Environment,
    pub name: String,
    /// The first characters of the secret (`sk_test_AbCd`), enough to recognise it in a list.
    pub hint: String,
    pub scopes: Vec<Scope>,
    pub created_at: Timestamp,
    pub last_used_at: Option<Timestamp>,
    pub revoked_at: Option<Timestamp>,
}

/// The environment a presented secret claims by its prefix, if it is well formed at all.
pub fn secret_environment(secret: &str) -> Option<Environment> {
    let (env, rest) = if let Some(rest) = secret.strip_prefix(Environment::Test.key_prefix()) {
        (Environment::Test, rest)
    } else if let Some(rest) = secret.strip_prefix(Environment::Live.key_prefix()) {
        (Environment::Live, rest)
    } else {
        return None;
    };
    (rest.len() == SECRET_RANDOM_LEN && rest.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(env)
}

/// The display hint kept for a secret: its prefix and the first four random characters.
pub fn secret_hint(secret: &str) -> String {
    secret.chars().take(12).collect()
}

/// Parses the scopes of a key, refusing an empty list.
pub fn parse_scopes<S: AsRef<str>>(raw: &[S]) -> Result<Vec<Scope>, String> {
    if raw.is_empty() {
        return Err("a key needs at least one scope".into());
    }
    let mut scopes: Vec<Scope> = Vec::with_capacity(raw.len());
    for s in raw {
        let scope: Scope = s.as_ref().parse()?;
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    Ok(scopes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_well_formed_secrets_only() {
        let ok = format!("sk_test_{}", "a".repeat(32));
        assert_eq!(secret_environment(&ok), Some(Environment::Test));
        let live = format!("sk_live_{}", "Z9".repeat(16));
        assert_eq!(secret_environment(&live), Some(Environment::Live));
        assert_eq!(secret_environment(&format!("sk_test_{}", "a".repeat(31))), None);
        assert_eq!(secret_environment(&format!("sk_prod_{}", "a".repeat(32))), None);
        assert_eq!(secret_environment(&format!("sk_test_{}-", "a".repeat(31))), None);
        assert_eq!(secret_hint(&ok), "sk_test_aaaa");
    }
}
