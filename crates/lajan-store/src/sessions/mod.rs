//! Console sign-ins and sessions: every attempt recorded (the lockout reads them), and the
//! sessions they open, found by their token's digest.

use crate::StoreResult;
use async_trait::async_trait;
use lajan_domain::console::{ConsoleSession, SignIn, SignInOutcome};
use lajan_domain::{Environment, Timestamp};

/// A session to open with a successful sign-in.
#[derive(Debug, Clone)]
pub struct NewSession {
    /// SHA-256 of the cookie's token, hex.
    pub token_digest: String,
    pub environment: Environment,
    pub csrf: String,
}

#[async_trait]
pub trait SessionStore: Send + Sync {
    /// Starts a sign-in attempt for `attempt.email`: under a lock on the user with that email
    /// (when there is one), so parallel attempts are counted one after another, it reads the
    /// failures since the email's last success. Locked out (per
    /// [`lajan_domain::console::locked_until`]): records the attempt as `locked` and answers
    /// until when. Otherwise records it `pending` and answers `None`.
    async fn start_sign_in(&self, attempt: &SignIn) -> StoreResult<Option<Timestamp>>;

    /// Records how a pending attempt ended; a success opens `session` for its user in the same
    /// transaction.
    async fn finish_sign_in(
        &self,
        attempt_id: &str,
        outcome: SignInOutcome,
        session: Option<&NewSession>,
    ) -> StoreResult<()>;

    /// The sign-in attempts that named users of `org_id`, newest first, at most `limit`.
    async fn list_sign_ins(&self, org_id: &str, limit: u32) -> StoreResult<Vec<SignIn>>;

    /// The session whose token has this digest, with its user as now stored, unless it was
    /// ended (whether it is still live is [`ConsoleSession::is_live`]'s to say).
    async fn session(&self, token_digest: &str) -> StoreResult<Option<ConsoleSession>>;

    /// Marks the session used at `at`.
    async fn touch_session(&self, token_digest: &str, at: Timestamp) -> StoreResult<()>;

    /// Shows `environment` in this session from now on.
    async fn switch_session_environment(&self, token_digest: &str, environment: Environment) -> StoreResult<()>;

    /// Ends the session (ending it twice keeps the first time).
    async fn end_session(&self, token_digest: &str, at: Timestamp) -> StoreResult<()>;
}
