//! Console users: a new user from what an operator or an admin gives (the email, role, name and
//! password checked; the password hashed with Argon2id), a password generated when none is
//! given, the check of a password against its stored hash, and an admin inviting and disabling
//! the users of their organization.
//!
//! Argon2id through the RustCrypto `argon2` crate with its default parameters (19 MiB, two
//! passes, one lane: OWASP's recommendation), stored as a PHC string, so the parameters travel
//! with each hash and can be raised later without invalidating the old ones.

use crate::password_gate::{Caller, PasswordGate};
use crate::{ServiceError, ServiceResult, Services};
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use lajan_domain::id::IdKind;
use lajan_domain::user::{LANGUAGES, Role, User, check_new_password, parse_email, parse_user_name};
use lajan_domain::{Actor, Timestamp};
use lajan_store::StoreError;

/// Characters of generated passwords: no lookalikes (0/O, 1/l/I), so they survive being read
/// aloud or copied by hand.
const PASSWORD_ALPHABET: &[u8] = b"23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
/// 20 characters of 56: about 116 bits.
const GENERATED_PASSWORD_CHARS: usize = 20;

/// A new user of `org_id` and the hash of their password, or which field is wrong and why.
/// `must_set_password` when someone else chose the password (an invitation): the user sets
/// their own at first sign-in.
pub fn new_user(
    (org_id, organization): (&str, Option<&str>),
    email: &str,
    role: Role,
    name: Option<&str>,
    password: &str,
    must_set_password: bool,
) -> Result<(User, String), (&'static str, String)> {
    let email = parse_email(email).map_err(|rule| ("email", rule))?;
    let name = parse_user_name(name.unwrap_or("")).map_err(|rule| ("name", rule))?;
    check_password(password, &email, name.as_deref(), organization).map_err(|rule| ("password", rule))?;
    let hash = hash_password(password).map_err(|e| ("password", e))?;
    let user = User {
        id: IdKind::User.generate(),
        org_id: org_id.to_owned(),
        email,
        name,
        role,
        created_at: Timestamp::now(),
        disabled_at: None,
        language: None,
        must_set_password,
    };
    Ok((user, hash))
}

/// The fewest guesses (as a power of ten) zxcvbn must estimate for a password: a billion, past
/// a word and a year with a symbol (`Summer2026!!`, about 10^8) and the organization's name with
/// digits (`Fonkoze12345`), which the first rule (score 2, 10^6) let through.
const LEAST_GUESSES_LOG10: f64 = 9.0;

/// The domain's rules for a new password, and then how guessable it is: zxcvbn's estimate,
/// knowing the user's email, name and organization, must be at least 10^9 guesses, which
/// refuses the common passwords, names, dates, keyboard walks, repeats and seasons-with-a-year
/// it knows. A refusal says what zxcvbn found.
pub fn check_password(
    password: &str,
    email: &str,
    name: Option<&str>,
    organization: Option<&str>,
) -> Result<(), String> {
    check_new_password(password)?;
    let local = email.split('@').next().unwrap_or(email);
    let mut known: Vec<String> = [email, local, "lajan", "console"].map(str::to_lowercase).into();
    known.extend(local.split(['.', '_', '-', '+']).map(str::to_lowercase));
    known.extend(name.into_iter().flat_map(str::split_whitespace).map(str::to_lowercase));
    if let Some(organization) = organization {
        known.push(organization.to_lowercase());
        known.extend(organization.split_whitespace().map(str::to_lowercase));
    }
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    let estimate = zxcvbn::zxcvbn(password, &known);
    if estimate.guesses_log10() < LEAST_GUESSES_LOG10 {
        let found = estimate.feedback().and_then(|f| f.warning()).map(|w| format!(" ({w})")).unwrap_or_default();
        return Err(format!(
            "is too easy to guess{found}: about 10^{:.0} tries would find it; use a longer phrase of unrelated words",
            estimate.guesses_log10().floor()
        ));
    }
    Ok(())
}

/// A PHC string of `password` under Argon2id with a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no randomness for a salt: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| e.to_string())
}

/// Whether `password` is the one `hash` (a PHC string) was made from; a malformed hash matches
/// nothing.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

/// [`hash_password`] through the gate: Argon2 takes 19 MiB and tens of milliseconds of CPU.
/// For passwords, and for the answers receivers prove who they are with.
pub(crate) async fn slow_hash(gate: &PasswordGate, caller: Caller, secret: String) -> ServiceResult<String> {
    gate.run(caller, move || hash_password(&secret)).await?.map_err(ServiceError::Unavailable)
}

/// [`verify_password`] through the gate.
pub(crate) async fn password_matches(
    gate: &PasswordGate,
    caller: Caller,
    password: &str,
    hash: &str,
) -> ServiceResult<bool> {
    let (password, hash) = (password.to_owned(), hash.to_owned());
    gate.run(caller, move || verify_password(&password, &hash)).await
}

/// A random password of [`GENERATED_PASSWORD_CHARS`] characters, for a user created without one.
pub fn generate_password() -> Result<String, String> {
    let mut bytes = [0u8; GENERATED_PASSWORD_CHARS * 2];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for a password: {e}"))?;
    // Two bytes per character, so the modulo's bias is below 0.1 %.
    Ok(bytes
        .chunks(2)
        .map(|pair| {
            let n = usize::from(u16::from_be_bytes([pair[0], pair[1]]));
            char::from(PASSWORD_ALPHABET[n % PASSWORD_ALPHABET.len()])
        })
        .collect())
}

impl Services {
    /// A new user of `org_id` with a generated password, which the answer carries once (an
    /// admin passes it on; the user cannot be told it again). `Invalid` names the field; an
    /// email in use anywhere is `email: is in use already`. Recorded as made `by`.
    pub async fn invite_user(
        &self,
        by: &Actor,
        org_id: &str,
        email: &str,
        role: &str,
        name: &str,
    ) -> ServiceResult<(User, String)> {
        let (user, generated) = self.create_user(by, org_id, email, role, Some(name), None).await?;
        Ok((user, generated.unwrap_or_default()))
    }

    /// A new user of `org_id`: with `password` when one is given (held to
    /// [`check_password`]), else with a generated one, which the answer carries once and the
    /// user must replace. The rules and the refusals of [`Services::invite_user`]; the
    /// command line's `lajan users create` comes here too.
    pub async fn create_user(
        &self,
        by: &Actor,
        org_id: &str,
        email: &str,
        role: &str,
        name: Option<&str>,
        password: Option<&str>,
    ) -> ServiceResult<(User, Option<String>)> {
        let role: Role = role.parse().map_err(|e| ServiceError::field("role", e))?;
        let generated = match password {
            Some(_) => None,
            None => Some(generate_password().map_err(ServiceError::Unavailable)?),
        };
        let password = password.or(generated.as_deref()).unwrap_or_default();
        let organization = self.store.get_organization(org_id).await?.map(|o| o.name);
        let (user, hash) =
            new_user((org_id, organization.as_deref()), email, role, name, password, generated.is_some())
                .map_err(|(field, rule)| ServiceError::field(field, rule))?;
        match self.store.create_user(&user, &hash, by).await {
            Err(StoreError::Conflict(_)) => Err(ServiceError::field("email", "is in use already")),
            other => other.map(|()| (user, generated)).map_err(Into::into),
        }
    }

    /// `user` sets their own password: typed twice the same, within the rules of
    /// [`check_password`], and not the one they were given. Clears `must_set_password`.
    pub async fn set_own_password(&self, user: &User, password: &str, repeated: &str) -> ServiceResult<()> {
        if password != repeated {
            return Err(ServiceError::field("repeat", "must be the same password again"));
        }
        let organization = self.store.get_organization(&user.org_id).await?.map(|o| o.name);
        check_password(password, &user.email, user.name.as_deref(), organization.as_deref())
            .map_err(|rule| ServiceError::field("password", rule))?;
        let (_, current) = self.store.user_by_email(&user.email).await?.ok_or(ServiceError::NotFound("user"))?;
        let gate = &self.password_gate;
        if password_matches(gate, Caller::Organization, password, &current).await? {
            return Err(ServiceError::field("password", "must differ from the password you were given"));
        }
        let hash = slow_hash(gate, Caller::Organization, password.to_owned()).await?;
        self.store.set_own_password(&user.id, &hash).await.map_err(ServiceError::not_found_as("user"))
    }

    /// Sets the console language `user_id` chose (`None` or empty: their browser's); one the
    /// console does not speak is `language: ...`.
    pub async fn set_console_language(&self, user_id: &str, language: Option<&str>) -> ServiceResult<()> {
        let language = language.filter(|l| !l.is_empty());
        if let Some(code) = language
            && !LANGUAGES.contains(&code)
        {
            return Err(ServiceError::field("language", format!("must be one of {}", LANGUAGES.join(", "))));
        }
        self.store.set_user_language(user_id, language).await.map_err(ServiceError::not_found_as("user"))
    }

    /// Disables a user of `org_id` (their sessions end with it); another organization's user
    /// is `NotFound`, and an admin cannot disable themself (someone must be left to undo it).
    pub async fn disable_org_user(&self, org_id: &str, user_id: &str, by: &User) -> ServiceResult<User> {
        let users = self.store.list_users(Some(org_id)).await?;
        let user = users.into_iter().find(|u| u.id == user_id).ok_or(ServiceError::NotFound("user"))?;
        if user.id == by.id {
            return Err(ServiceError::field("user", "you cannot disable yourself; another admin can"));
        }
        Ok(self.store.disable_user(&user.email, Timestamp::now(), &Actor::User(by.id.clone())).await?)
    }

    /// Disables the user with `email`, whatever their organization: an operator's
    /// `lajan users disable`. Their sessions end with it.
    pub async fn disable_user_by_email(&self, email: &str, by: &Actor) -> ServiceResult<User> {
        let email = parse_email(email).map_err(|rule| ServiceError::field("email", rule))?;
        self.store.disable_user(&email, Timestamp::now(), by).await.map_err(ServiceError::not_found_as("user"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_anyone_would_guess_are_refused() {
        for common in [
            "password1234",
            "123456789012",
            "qwertyuiopasdf",
            "iloveyou1234",
            "amara@example.ht",
            "joseph123456",
            "Password2026!",
            "Summer2026!!",
            "Welcome@2026",
            "Fonkoze12345",
        ] {
            let refused = check_password(common, "amara@example.ht", Some("Amara Joseph"), Some("Fonkoze"));
            assert!(refused.as_ref().is_err_and(|r| r.starts_with("is too easy to guess")), "{common}: {refused:?}");
        }
        for good in ["correct horse battery", "twelve chars", "a long passphrase", "Mango tree by the well"] {
            assert_eq!(
                check_password(good, "amara@example.ht", Some("Amara Joseph"), Some("Fonkoze")),
                Ok(()),
                "{good}"
            );
        }
        assert_eq!(
            check_password("zzzzzzzzzzzzzz", "a@b.ht", None, None).unwrap_err(),
            "must not be one character repeated"
        );
    }

    #[test]
    fn a_password_verifies_against_its_argon2id_hash_only() {
        let hash = hash_password("correct horse battery").unwrap();
        assert!(hash.starts_with("$argon2id$v=19$"), "{hash}");
        assert!(verify_password("correct horse battery", &hash));
        assert!(!verify_password("correct horse batterx", &hash));
        assert!(!verify_password("correct horse battery", "not a hash"));
        assert_ne!(hash, hash_password("correct horse battery").unwrap(), "a fresh salt each time");
    }

    #[test]
    fn new_users_are_checked_field_by_field() {
        let (user, hash) =
            new_user(("org_1", None), " Amara@Example.ht", Role::Maker, Some("Amara"), "twelve chars", false).unwrap();
        assert_eq!(
            (user.email.as_str(), user.role, user.name.as_deref()),
            ("amara@example.ht", Role::Maker, Some("Amara"))
        );
        assert!(user.id.starts_with("usr_") && verify_password("twelve chars", &hash));
        assert_eq!(
            new_user(("org_1", None), "amara", Role::Maker, None, "twelve chars", false).unwrap_err().0,
            "email"
        );
        assert_eq!(
            new_user(("org_1", None), "a@b.ht", Role::Maker, None, "eleven char", false).unwrap_err().0,
            "password"
        );
        let generated = generate_password().unwrap();
        assert_eq!(generated.len(), GENERATED_PASSWORD_CHARS);
        assert!(check_password(&generated, "a@b.ht", None, None).is_ok());
        assert_ne!(generated, generate_password().unwrap());
    }
}
