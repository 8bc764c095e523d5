//! Console sign-in and sessions: a password checked (the same work whether or not the email
//! names a user), the lockout applied, and sessions opened, looked up, switched and ended by
//! the browser's token.

use crate::keys::hash_secret;
use crate::password_gate::Caller;
use crate::users::{hash_password, verify_password};
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::console::{ConsoleSession, SESSION_TOUCH_MS, SignIn, SignInOutcome};
use lajan_domain::hex::encode as hex;
use lajan_domain::id::IdKind;
use lajan_domain::network::ClientAddress;
use lajan_domain::user::{MAX_EMAIL_CHARS, parse_email};
use lajan_domain::{Environment, Timestamp};
use lajan_store::NewSession;
use std::sync::OnceLock;

/// A session just opened: the token goes to the browser (once), the session to the page.
#[derive(Debug)]
pub struct SignedIn {
    pub token: String,
    pub session: ConsoleSession,
}

/// Why a sign-in was refused. `Invalid` covers an unknown email, a wrong password and a
/// disabled user alike, so the form cannot tell anyone which emails have accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInRefusal {
    Invalid,
    Locked { until: Timestamp },
}

/// 256 random bits from the operating system, hex: session tokens and CSRF values.
pub fn random_token() -> ServiceResult<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ServiceError::Unavailable(format!("no randomness for a token: {e}")))?;
    Ok(hex(&bytes))
}

/// A hash no password matches, checked when the email names no user, so that answer takes as
/// long as a wrong password's.
fn unknown_user_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let secret = random_token().unwrap_or_else(|_| "no user has this password".to_owned());
        hash_password(&secret).unwrap_or_default()
    })
}

impl Services {
    /// Signs in with an email and a password from `client`: locked out (5 failures in 15
    /// minutes lock an email for 15 minutes, right password or not, except from an address that
    /// has not failed lately; 20 failures from one address, whatever the emails, refuse it for
    /// 15 minutes), refused, or a new session in the sandbox. Every attempt is recorded.
    pub async fn sign_in(
        &self,
        email: &str,
        password: &str,
        client: Option<ClientAddress>,
    ) -> ServiceResult<Result<SignedIn, SignInRefusal>> {
        let now = Timestamp::now();
        let email = parse_email(email).unwrap_or_else(|_| email.trim().to_lowercase());
        let email: String = email.chars().take(MAX_EMAIL_CHARS).collect();
        let known = self.store.user_by_email(&email).await?;
        let attempt = SignIn {
            id: IdKind::SignIn.generate(),
            email,
            user_id: known.as_ref().map(|(user, _)| user.id.clone()),
            org_id: known.as_ref().map(|(user, _)| user.org_id.clone()),
            outcome: SignInOutcome::Pending,
            at: now,
            client_address: client.map(|c| c.0.to_string()),
            refusals: 1,
        };
        // A place for the check first: a sign-in refused as busy is not an attempt.
        let place = self.password_gate.enter(Caller::Anonymous)?;
        if let Some(until) = self.store.start_sign_in(&attempt).await? {
            return Ok(Err(SignInRefusal::Locked { until }));
        }
        let (password, hash) =
            (password.to_owned(), known.as_ref().map_or(unknown_user_hash(), |(_, hash)| hash.as_str()).to_owned());
        let matches = place.run(move || verify_password(&password, &hash)).await?;
        let user = known.map(|(user, _)| user).filter(|user| matches && user.disabled_at.is_none());
        let Some(user) = user else {
            self.store.finish_sign_in(&attempt.id, SignInOutcome::Failed, None).await?;
            return Ok(Err(SignInRefusal::Invalid));
        };
        let token = random_token()?;
        let session =
            NewSession { token_digest: hash_secret(&token), environment: Environment::Test, csrf: random_token()? };
        self.store.finish_sign_in(&attempt.id, SignInOutcome::Succeeded, Some(&session)).await?;
        let session = ConsoleSession {
            user,
            environment: session.environment,
            csrf: session.csrf,
            created_at: now,
            last_seen_at: now,
        };
        Ok(Ok(SignedIn { token, session }))
    }

    /// The live session of this token, marked used; `None` when there is none, it was ended,
    /// it idled or aged out, or its user was disabled.
    pub async fn console_session(&self, token: &str) -> ServiceResult<Option<ConsoleSession>> {
        let now = Timestamp::now();
        // The store keeps a session token as it keeps API keys: its SHA-256.
        let digest = hash_secret(token);
        let Some(mut session) = self.store.session(&digest).await? else {
            return Ok(None);
        };
        if !session.is_live(now) {
            return Ok(None);
        }
        if now.as_millis() - session.last_seen_at.as_millis() >= SESSION_TOUCH_MS {
            self.store.touch_session(&digest, now).await?;
            session.last_seen_at = now;
        }
        Ok(Some(session))
    }

    /// Shows `environment` in the token's session from now on.
    pub async fn switch_console_environment(&self, token: &str, environment: Environment) -> ServiceResult<()> {
        Ok(self.store.switch_session_environment(&hash_secret(token), environment).await?)
    }

    /// Ends the token's session.
    pub async fn sign_out(&self, token: &str) -> ServiceResult<()> {
        Ok(self.store.end_session(&hash_secret(token), Timestamp::now()).await?)
    }
}
