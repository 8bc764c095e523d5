//! Console users: finance staff of an organization who sign in to the console, each with one
//! role, and the rules for their email addresses and passwords.

use crate::Timestamp;

/// What a console user may do. Each role may do what the roles before it may, except that a
/// maker prepares and an approver decides: an admin does both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Reads everything of the organization.
    Viewer,
    /// Prepares invoices, payouts and disbursements.
    Maker,
    /// Approves and rejects payouts and disbursements.
    Approver,
    /// Users, API keys, settings and webhook endpoints; everything else too.
    Admin,
}

str_enum!(Role { Viewer => "viewer", Maker => "maker", Approver => "approver", Admin => "admin" });

/// What a console page or action asks of its user's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duty {
    /// Every page that only shows.
    Read,
    /// Preparing invoices, payouts and disbursements.
    Prepare,
    /// Approving and rejecting payouts and disbursements.
    Approve,
    /// Users, API keys, settings and webhook endpoints.
    Administer,
}

impl Role {
    /// Whether a user with this role may do `duty`.
    pub fn may(self, duty: Duty) -> bool {
        matches!(
            (self, duty),
            (_, Duty::Read) | (Role::Admin, _) | (Role::Maker, Duty::Prepare) | (Role::Approver, Duty::Approve)
        )
    }
}

/// A console user as stored (never its password hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub org_id: String,
    /// Lowercase, as [`parse_email`] leaves it: one user per address across organizations, so
    /// the sign-in form needs nothing else.
    pub email: String,
    pub name: Option<String>,
    pub role: Role,
    pub created_at: Timestamp,
    /// Set when the user was disabled: they cannot sign in, and their sessions end.
    pub disabled_at: Option<Timestamp>,
    /// The console's language they chose, one of [`LANGUAGES`]; `None`: their browser's.
    pub language: Option<String>,
    /// Their password was chosen by someone else (an invitation): they set their own at their
    /// first sign-in, before anything else.
    pub must_set_password: bool,
}

/// The languages the console speaks: English, French, Haitian Creole.
pub const LANGUAGES: [&str; 3] = ["en", "fr", "ht"];

/// The shortest password a user may have, in characters.
pub const MIN_PASSWORD_CHARS: usize = 12;
/// The longest: hashing work stays bounded whatever a form posts.
pub const MAX_PASSWORD_CHARS: usize = 1024;
/// The longest email address (RFC 5321's path limit).
pub const MAX_EMAIL_CHARS: usize = 254;
/// The longest display name, in characters.
pub const MAX_USER_NAME_CHARS: usize = 200;

/// An email address as a sign-in name: trimmed and lowercased, one `@` with text on both sides,
/// a dot in the domain, no spaces or control characters, at most [`MAX_EMAIL_CHARS`].
pub fn parse_email(raw: &str) -> Result<String, String> {
    let email = raw.trim().to_lowercase();
    let rule = "must be an email address such as amara@example.ht";
    if email.is_empty() || email.chars().count() > MAX_EMAIL_CHARS {
        return Err(format!("{rule}, at most {MAX_EMAIL_CHARS} characters"));
    }
    if email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(rule.to_owned());
    }
    match email.split_once('@') {
        Some((local, domain))
            if !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.') =>
        {
            Ok(email)
        }
        _ => Err(rule.to_owned()),
    }
}

/// A new password: [`MIN_PASSWORD_CHARS`] to [`MAX_PASSWORD_CHARS`] characters, taken as given
/// (spaces included: a passphrase is a good password), but not only spaces nor one character
/// over and over. How guessable it is otherwise is checked above the domain.
pub fn check_new_password(password: &str) -> Result<(), String> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(format!("must be at least {MIN_PASSWORD_CHARS} characters"));
    }
    if chars > MAX_PASSWORD_CHARS {
        return Err(format!("must be at most {MAX_PASSWORD_CHARS} characters"));
    }
    if password.chars().all(char::is_whitespace) {
        return Err("must not be only spaces".into());
    }
    let mut each = password.chars();
    if let Some(first) = each.next()
        && each.all(|c| c == first)
    {
        return Err("must not be one character repeated".into());
    }
    Ok(())
}

/// A user's display name: trimmed, one line, at most [`MAX_USER_NAME_CHARS`]; empty is none.
pub fn parse_user_name(raw: &str) -> Result<Option<String>, String> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    crate::validation::required_text(Some(raw), MAX_USER_NAME_CHARS, false).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_long_enough_and_not_one_repeated_character_or_only_spaces() {
        assert!(check_new_password("correct horse battery").is_ok());
        assert_eq!(check_new_password("eleven char").unwrap_err(), "must be at least 12 characters");
        assert_eq!(check_new_password("aaaaaaaaaaaaaaaa").unwrap_err(), "must not be one character repeated");
        assert_eq!(check_new_password("éééééééééééé").unwrap_err(), "must not be one character repeated");
        assert_eq!(check_new_password(" \t          \u{a0}").unwrap_err(), "must not be only spaces");
    }

    #[test]
    fn emails_are_trimmed_lowercased_and_checked() {
        assert_eq!(parse_email("  Amara@Example.HT ").unwrap(), "amara@example.ht");
        for bad in ["", "amara", "@example.ht", "amara@", "amara@example", "a b@example.ht", "a@b@example.ht", "a@.ht"]
        {
            assert!(parse_email(bad).is_err(), "{bad:?}");
        }
        assert!(parse_email(&format!("{}@example.ht", "a".repeat(250))).is_err());
    }

    #[test]
    fn passwords_have_twelve_characters_at_least() {
        assert!(check_new_password("short pass").is_err());
        assert!(check_new_password("twelve chars").is_ok());
        assert!(check_new_password("ééééééééééé").is_err(), "characters, not bytes");
        assert!(check_new_password(&"x".repeat(MAX_PASSWORD_CHARS + 1)).is_err());
    }

    #[test]
    fn each_role_may_do_its_own_duties_and_an_admin_all() {
        let may = |role: Role| -> Vec<Duty> {
            [Duty::Read, Duty::Prepare, Duty::Approve, Duty::Administer].into_iter().filter(|d| role.may(*d)).collect()
        };
        assert_eq!(may(Role::Viewer), [Duty::Read]);
        assert_eq!(may(Role::Maker), [Duty::Read, Duty::Prepare]);
        assert_eq!(may(Role::Approver), [Duty::Read, Duty::Approve]);
        assert_eq!(may(Role::Admin), [Duty::Read, Duty::Prepare, Duty::Approve, Duty::Administer]);
    }

    #[test]
    fn roles_parse_from_their_names() {
        assert_eq!("approver".parse::<Role>().unwrap(), Role::Approver);
        assert!("owner".parse::<Role>().unwrap_err().contains("viewer, maker, approver, admin"));
        assert_eq!(parse_user_name("  ").unwrap(), None);
        assert_eq!(parse_user_name(" Amara Joseph ").unwrap().as_deref(), Some("Amara Joseph"));
    }
}
