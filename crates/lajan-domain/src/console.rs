//! Console sessions and sign-in attempts: how long a session lives, when too many failed
//! sign-ins for one email lock it out, and when too many from one client address (across emails:
//! password spraying) refuse that address.

use crate::user::User;
use crate::{Actor, Environment, Tenant, Timestamp};

const MINUTE_MS: i64 = 60_000;
/// A session unused for this long has ended.
pub const SESSION_IDLE_MS: i64 = 30 * MINUTE_MS;
/// No session lasts longer than this, however busy.
pub const SESSION_MAX_MS: i64 = 12 * 60 * MINUTE_MS;
/// Failed sign-ins for one email, within [`LOCKOUT_WINDOW_MS`], that lock it out.
pub const LOCKOUT_FAILURES: usize = 5;
pub const LOCKOUT_WINDOW_MS: i64 = 15 * MINUTE_MS;
/// How long a lockout lasts, from the failure that caused it.
pub const LOCKOUT_MS: i64 = 15 * MINUTE_MS;
/// Failed sign-ins from one client address, whatever the email, within [`ADDRESS_WINDOW_MS`],
/// that refuse every sign-in from it until the oldest of them leaves the window.
pub const ADDRESS_FAILURES: usize = 20;
pub const ADDRESS_WINDOW_MS: i64 = 15 * MINUTE_MS;
/// A session's last use is written at most this often: a page view is a read, not a write.
pub const SESSION_TOUCH_MS: i64 = MINUTE_MS;
/// Sign-in attempts older than this are forgotten: every lock reads the last quarter hour, and
/// an admin's audit reads the last weeks.
pub const SIGN_IN_RETENTION_MS: i64 = 90 * 24 * 60 * MINUTE_MS;

/// What became of one sign-in attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignInOutcome {
    /// The password is being checked (or the process stopped while it was): counts as a failure
    /// for the lockout, so parallel guesses cannot outrun it.
    Pending,
    Succeeded,
    /// Unknown email, wrong password or disabled user: the form says the same for all three.
    Failed,
    /// Refused without looking at the password: the email is locked out.
    Locked,
}

str_enum!(SignInOutcome { Pending => "pending", Succeeded => "succeeded", Failed => "failed", Locked => "locked" });

/// One sign-in attempt as recorded: the lockout counts them, and admins read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignIn {
    pub id: String,
    /// As typed, normalized the way [`crate::user::parse_email`] would (trimmed, lowercased).
    pub email: String,
    /// The user it named, when it named one.
    pub user_id: Option<String>,
    pub org_id: Option<String>,
    pub outcome: SignInOutcome,
    pub at: Timestamp,
    /// The client's address (behind trusted proxies, the one they forwarded), when known.
    pub client_address: Option<String>,
    /// The attempts this record stands for: one, except a `locked` one, which counts every
    /// refusal of its lock that followed it (from its address, or for its email), so a refused
    /// caller cannot grow the table by asking again.
    pub refusals: u32,
}

/// A signed-in user's session. The browser holds a random token; the store keeps its digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsoleSession {
    pub user: User,
    /// The environment the console shows (sandbox first).
    pub environment: Environment,
    /// The value every state-changing form of this session must carry.
    pub csrf: String,
    pub created_at: Timestamp,
    pub last_seen_at: Timestamp,
}

impl ConsoleSession {
    /// Whether the session may still be used at `now`: not idle too long, not too old, and its
    /// user not disabled.
    pub fn is_live(&self, now: Timestamp) -> bool {
        let now = now.as_millis();
        self.user.disabled_at.is_none()
            && now - self.last_seen_at.as_millis() < SESSION_IDLE_MS
            && now - self.created_at.as_millis() < SESSION_MAX_MS
    }

    /// The organization and environment the console acts in, with its user as the actor.
    pub fn tenant(&self) -> Tenant {
        Tenant::new(self.user.org_id.clone(), self.environment).acting_as(Actor::User(self.user.id.clone()))
    }
}

/// Until when sign-in for an email is refused, given its failures since its last success
/// (newest first; only the first [`LOCKOUT_FAILURES`] are read). Locked when that many
/// failures fall within [`LOCKOUT_WINDOW_MS`], for [`LOCKOUT_MS`] after the newest of them.
pub fn locked_until(failures_newest_first: &[Timestamp], now: Timestamp) -> Option<Timestamp> {
    let newest = failures_newest_first.first()?;
    let fifth = failures_newest_first.get(LOCKOUT_FAILURES - 1)?;
    let until = newest.plus_millis(LOCKOUT_MS);
    (newest.as_millis() - fifth.as_millis() <= LOCKOUT_WINDOW_MS && now.as_millis() < until.as_millis())
        .then_some(until)
}

/// What a refused sign-in was refused for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockedBy {
    /// Its client address failed too often, whatever the emails.
    Address,
    /// Its email is locked.
    Email,
}

/// Until when a sign-in is refused, and which lock refuses it, given the email's failures since
/// its last success (as for [`locked_until`]) and the client address's failures with any email
/// (newest first; `None` when the address is unknown). The address is refused while
/// [`ADDRESS_FAILURES`] of its failures fall within [`ADDRESS_WINDOW_MS`]. A locked email is
/// refused to an unknown address and to one that failed within [`LOCKOUT_WINDOW_MS`]; from an
/// address that has not failed lately, its owner's right password still gets through, so a
/// stranger's guesses cannot lock them out. The refusals of one lock are counted on one record
/// (see [`SignIn::refusals`]).
pub fn refusal(
    email_failures: &[Timestamp],
    address_failures: Option<&[Timestamp]>,
    now: Timestamp,
) -> Option<(Timestamp, LockedBy)> {
    if let Some(oldest) = address_failures.and_then(|f| f.get(ADDRESS_FAILURES - 1)) {
        let until = oldest.plus_millis(ADDRESS_WINDOW_MS);
        if now.as_millis() < until.as_millis() {
            return Some((until, LockedBy::Address));
        }
    }
    let until = locked_until(email_failures, now)?;
    let failed_lately =
        |f: &[Timestamp]| f.first().is_some_and(|t| now.as_millis() - t.as_millis() < LOCKOUT_WINDOW_MS);
    address_failures.is_none_or(failed_lately).then_some((until, LockedBy::Email))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::user::Role;

    fn refused_until(email: &[Timestamp], address: Option<&[Timestamp]>, now: Timestamp) -> Option<Timestamp> {
        refusal(email, address, now).map(|(until, _)| until)
    }

    #[test]
    fn an_address_that_guesses_across_emails_is_refused_and_the_owner_is_not_locked_out() {
        let now = at(20);
        let spraying: Vec<Timestamp> = (0..ADDRESS_FAILURES as i64).map(|i| at(19).plus_millis(-i)).collect();
        assert_eq!(
            refused_until(&[], Some(&spraying), now),
            Some(spraying[ADDRESS_FAILURES - 1].plus_millis(ADDRESS_WINDOW_MS))
        );
        assert_eq!(refused_until(&[], Some(&spraying[..ADDRESS_FAILURES - 1]), now), None, "one short");
        assert_eq!(refused_until(&[], Some(&spraying), at(40)), None, "the window has passed");
        assert_eq!(refusal(&[], Some(&spraying), now).map(|(_, by)| by), Some(LockedBy::Address));

        let locked_email = failures(&[10, 11, 12, 13, 14]);
        let until = Some(at(14).plus_millis(LOCKOUT_MS));
        assert_eq!(refused_until(&locked_email, None, now), until, "an unknown address");
        assert_eq!(refusal(&locked_email, None, now).map(|(_, by)| by), Some(LockedBy::Email));
        assert_eq!(refused_until(&locked_email, Some(&failures(&[14])), now), until, "the guesser's address");
        assert_eq!(refused_until(&locked_email, Some(&[]), now), None, "the owner's clean address");
        assert_eq!(refused_until(&locked_email, Some(&failures(&[-30])), now), None, "failed, but not lately");
    }

    fn at(minutes: i64) -> Timestamp {
        Timestamp::from_millis(1_800_000_000_000 + minutes * MINUTE_MS)
    }

    /// Failures at these minutes, newest first as the store answers.
    fn failures(minutes: &[i64]) -> Vec<Timestamp> {
        let mut list: Vec<Timestamp> = minutes.iter().map(|m| at(*m)).collect();
        list.reverse();
        list
    }

    #[test]
    fn five_failures_within_fifteen_minutes_lock_for_fifteen_minutes() {
        let five = failures(&[0, 1, 2, 3, 4]);
        assert_eq!(locked_until(&five, at(4)), Some(at(19)));
        assert_eq!(locked_until(&five, at(18)), Some(at(19)));
        assert_eq!(locked_until(&five, at(19)), None, "the lockout ends 15 minutes after the fifth failure");
        assert_eq!(locked_until(&failures(&[0, 1, 2, 3]), at(4)), None, "four are not enough");
        assert_eq!(locked_until(&failures(&[0, 5, 10, 14, 15]), at(15)), Some(at(30)), "15 minutes apart counts");
        assert_eq!(locked_until(&failures(&[0, 5, 10, 14, 16]), at(16)), None, "16 minutes apart does not");
        assert_eq!(locked_until(&[], at(0)), None);
    }

    #[test]
    fn sessions_end_when_idle_old_or_disabled() {
        let user = User {
            id: "usr_1".into(),
            org_id: "org_1".into(),
            email: "amara@example.ht".into(),
            name: None,
            role: Role::Viewer,
            created_at: at(0),
            disabled_at: None,
            language: None,
            must_set_password: false,
        };
        let session = |created: i64, seen: i64| ConsoleSession {
            user: user.clone(),
            environment: Environment::Test,
            csrf: "c".into(),
            created_at: at(created),
            last_seen_at: at(seen),
        };
        assert!(session(0, 0).is_live(at(29)));
        assert!(!session(0, 0).is_live(at(30)), "30 minutes idle");
        assert!(session(0, 700).is_live(at(719)));
        assert!(!session(0, 719).is_live(at(720)), "12 hours in all, however busy");
        let mut disabled = session(0, 0);
        disabled.user.disabled_at = Some(at(1));
        assert!(!disabled.is_live(at(2)));
        let acting = Tenant::new("org_1", Environment::Test).acting_as(Actor::User(user.id.clone()));
        assert_eq!(session(0, 0).tenant(), acting);
    }
}
