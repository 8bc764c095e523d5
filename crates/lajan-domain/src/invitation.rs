//! A receiver's invitation to register a wallet: its states, when it is sent again, and how
//! often a person may send it by hand.

use crate::receiver::ReceiverSettings;
use crate::{Invalid, Tenant, Timestamp};

const DAY_MS: i64 = 86_400_000;
/// The least time between two sends of one invitation asked for by hand: a clerk's second
/// click, or a loop in an integration, must not flood a receiver's phone.
pub const MANUAL_SEND_GAP_MS: i64 = 10 * 60 * 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvitationStatus {
    /// A payout waits for the receiver; the invitation is (or is about to be) on their phone.
    Invited,
    /// The receiver gave a wallet; nothing more is sent.
    Registered,
    /// Too many wrong answers to the organization's question: the link works again only when the
    /// organization unlocks it.
    Locked,
    /// No payout waits any more (each was sent elsewhere or cancelled); the links are dead.
    Expired,
}

str_enum!(InvitationStatus {
    Invited => "invited",
    Registered => "registered",
    Locked => "locked",
    Expired => "expired",
});

/// One client's invitation: there is at most one per client, sent again (with a new link each
/// time; every link of a live invitation works) until the receiver registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub tenant: Tenant,
    pub client_id: String,
    pub status: InvitationStatus,
    /// How many times it was sent, by the schedule or by hand.
    pub sends: i64,
    pub last_sent_at: Option<Timestamp>,
    /// When the schedule sends it next; `None` once the resends are spent or it is not live.
    pub next_send_at: Option<Timestamp>,
    pub created_at: Timestamp,
    pub registered_at: Option<Timestamp>,
    pub locked_at: Option<Timestamp>,
    /// The checks passed on the invitation's own link; a wallet's deposit page keeps its own.
    pub checks: RegistrationChecks,
    /// Wrong answers to the organization's question, from any page; [`VERIFY_TRIES`] lock it.
    pub verify_failures: i64,
    /// Wrong codes over the invitation's life, from any page; [`CODE_FAILURES_TO_LOCK`] lock it,
    /// so asking for new codes cannot grind the million codes down.
    pub code_failures: i64,
}

/// How far a receiver got on one page: the invitation's link, or a wallet's deposit page. Each
/// page proves the contact with its own code, so one page never inherits another's confirmation
/// and wrong tries on one never burn the code another holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegistrationChecks {
    /// SHA-256 (hex) of the last code sent to the receiver's phone (or email), until used.
    pub code_hash: Option<String>,
    pub code_sent_at: Option<Timestamp>,
    /// Wrong codes entered against the last code.
    pub code_tries: i64,
    pub contact_confirmed_at: Option<Timestamp>,
    pub verified_at: Option<Timestamp>,
}

impl RegistrationChecks {
    /// Whether a code entered now as `entered_hash` confirms the contact.
    pub fn check_code(&self, entered_hash: &str, now: Timestamp) -> Result<(), CodeRefusal> {
        match &self.code_hash {
            Some(hash) if self.code_live(now) && self.code_tries < CODE_TRIES => {
                if hash == entered_hash {
                    Ok(())
                } else {
                    Err(CodeRefusal::Wrong)
                }
            }
            _ => Err(CodeRefusal::Expired),
        }
    }

    /// Whether the last code sent still works by its age.
    pub fn code_live(&self, now: Timestamp) -> bool {
        self.code_hash.is_some()
            && self.code_sent_at.is_some_and(|sent| now.as_millis() < sent.as_millis() + CODE_TTL_MS)
    }

    /// Seconds until another code may be sent, when one went out less than [`CODE_GAP_MS`] ago.
    pub fn code_wait(&self, now: Timestamp) -> Option<i64> {
        let sent = self.code_sent_at?;
        let wait_ms = sent.as_millis() + CODE_GAP_MS - now.as_millis();
        (wait_ms > 0).then(|| wait_ms.div_euclid(1000) + 1)
    }
}

/// How long a code works.
pub const CODE_TTL_MS: i64 = 10 * 60 * 1000;
/// Wrong codes before the code stops working (a new one may be asked for).
pub const CODE_TRIES: i64 = 5;
/// The least time between two codes, so the page cannot be used to flood a phone.
pub const CODE_GAP_MS: i64 = 60 * 1000;
/// Wrong answers to the organization's question before the invitation locks.
pub const VERIFY_TRIES: i64 = 5;
/// Wrong codes over an invitation's life, on every page together, before it locks: a guesser
/// who asks for a new code every minute gets 20 of the million, not 7,200 a day.
pub const CODE_FAILURES_TO_LOCK: i64 = 20;
/// Codes sent to one contact from wallets' deposit pages in an hour, all pages together.
pub const CONTACT_CODES_PER_HOUR: i64 = 5;
/// Wrong codes given for one contact on wallets' deposit pages in a day, all pages together.
pub const CONTACT_WRONG_CODES_PER_DAY: i64 = 10;

/// What the registration page asks next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Confirm the phone (or email) with a code.
    ConfirmContact,
    /// Answer the organization's question.
    Verify,
    /// Give a Stellar address.
    Wallet,
    /// Done: the page shows the payouts.
    Registered,
    Locked,
    Expired,
}

/// Why a code was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeRefusal {
    /// None was sent, or it is older than [`CODE_TTL_MS`], or it took [`CODE_TRIES`] wrong tries.
    Expired,
    Wrong,
}

impl Invitation {
    /// What the invitation's own link asks next; `asks_verification`: the client has a question
    /// to answer.
    pub fn step(&self, asks_verification: bool) -> Step {
        self.step_on(&self.checks, asks_verification)
    }

    /// What a page that passed `checks` asks next.
    pub fn step_on(&self, checks: &RegistrationChecks, asks_verification: bool) -> Step {
        match self.status {
            InvitationStatus::Registered => Step::Registered,
            InvitationStatus::Locked => Step::Locked,
            InvitationStatus::Expired => Step::Expired,
            InvitationStatus::Invited if checks.contact_confirmed_at.is_none() => Step::ConfirmContact,
            InvitationStatus::Invited if asks_verification && checks.verified_at.is_none() => Step::Verify,
            InvitationStatus::Invited => Step::Wallet,
        }
    }

    /// Counts a wrong code given on any page; whether it locked the invitation.
    pub fn count_wrong_code(&mut self, now: Timestamp) -> bool {
        self.code_failures += 1;
        self.lock_at_limit(self.code_failures >= CODE_FAILURES_TO_LOCK, now)
    }

    /// Counts a wrong answer to the organization's question; whether it locked the invitation.
    pub fn count_wrong_answer(&mut self, now: Timestamp) -> bool {
        self.verify_failures += 1;
        self.lock_at_limit(self.verify_failures >= VERIFY_TRIES, now)
    }

    fn lock_at_limit(&mut self, reached: bool, now: Timestamp) -> bool {
        if !reached || self.status != InvitationStatus::Invited {
            return false;
        }
        self.status = InvitationStatus::Locked;
        self.locked_at = Some(now);
        true
    }

    /// Seconds until another code may be sent on the invitation's own link.
    pub fn code_wait(&self, now: Timestamp) -> Option<i64> {
        self.checks.code_wait(now)
    }

    /// When the schedule sends it again after a send at `at` that makes `sends_after` in all:
    /// `invitationResendDays` later while fewer than `invitationResends` resends went out.
    pub fn next_send_after(sends_after: i64, at: Timestamp, settings: &ReceiverSettings) -> Option<Timestamp> {
        let resends_done = sends_after - 1;
        (resends_done < i64::from(settings.invitation_resends))
            .then(|| at.plus_millis(i64::from(settings.invitation_resend_days) * DAY_MS))
    }

    /// Whether a person may send it now: only a live invitation, and not twice within
    /// [`MANUAL_SEND_GAP_MS`].
    pub fn check_manual_send(&self, now: Timestamp) -> Result<(), ManualSendRefused> {
        match self.status {
            InvitationStatus::Invited => {}
            InvitationStatus::Registered => return Err(ManualSendRefused::Invalid(already_registered())),
            InvitationStatus::Locked => {
                return Err(ManualSendRefused::Invalid(Invalid::new(
                    "invitation_locked",
                    "The receiver gave too many wrong answers: unlock the invitation before sending it again",
                )));
            }
            InvitationStatus::Expired => return Err(ManualSendRefused::Invalid(nothing_waiting())),
        }
        match self.last_sent_at.map(|last| last.as_millis() + MANUAL_SEND_GAP_MS - now.as_millis()) {
            Some(wait_ms) if wait_ms > 0 => Err(ManualSendRefused::TooSoon { seconds: wait_ms.div_euclid(1000) + 1 }),
            _ => Ok(()),
        }
    }
}

/// Why an invitation cannot be sent by hand now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManualSendRefused {
    Invalid(Invalid),
    /// Sent less than [`MANUAL_SEND_GAP_MS`] ago: try again in `seconds`.
    TooSoon {
        seconds: i64,
    },
}

pub fn already_registered() -> Invalid {
    Invalid::new("already_registered", "The client has a wallet already: there is nothing to invite them to")
}

pub fn nothing_waiting() -> Invalid {
    Invalid::new(
        "nothing_waiting",
        "No approved payout waits for this client's wallet: an invitation is sent once one does",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Environment;

    fn invited(last_sent_at: Option<i64>) -> Invitation {
        Invitation {
            tenant: Tenant::new("org_1", Environment::Test),
            client_id: "cli_1".into(),
            status: InvitationStatus::Invited,
            sends: 1,
            last_sent_at: last_sent_at.map(Timestamp::from_millis),
            next_send_at: None,
            created_at: Timestamp::from_millis(0),
            registered_at: None,
            locked_at: None,
            checks: RegistrationChecks::default(),
            verify_failures: 0,
            code_failures: 0,
        }
    }

    #[test]
    fn the_schedule_stops_after_the_resends() {
        let settings = ReceiverSettings { invitation_resends: 2, invitation_resend_days: 3, ..Default::default() };
        let at = Timestamp::from_millis(1_000);
        assert_eq!(Invitation::next_send_after(1, at, &settings), Some(at.plus_millis(3 * DAY_MS)));
        assert_eq!(Invitation::next_send_after(2, at, &settings), Some(at.plus_millis(3 * DAY_MS)));
        assert_eq!(Invitation::next_send_after(3, at, &settings), None);
        let none = ReceiverSettings { invitation_resends: 0, ..Default::default() };
        assert_eq!(Invitation::next_send_after(1, at, &none), None);
    }

    #[test]
    fn the_page_asks_for_the_code_then_the_answer_then_the_wallet() {
        let mut i = invited(Some(0));
        assert_eq!(i.step(true), Step::ConfirmContact);
        let now = Timestamp::from_millis(1_000_000);
        i.checks.code_hash = Some("h".into());
        i.checks.code_sent_at = Some(now);
        assert_eq!(i.checks.check_code("x", now), Err(CodeRefusal::Wrong));
        assert_eq!(i.checks.check_code("h", now.plus_millis(CODE_TTL_MS - 1)), Ok(()));
        assert_eq!(i.checks.check_code("h", now.plus_millis(CODE_TTL_MS)), Err(CodeRefusal::Expired));
        assert_eq!(i.code_wait(now.plus_millis(1_000)), Some(CODE_GAP_MS / 1000));
        assert_eq!(i.code_wait(now.plus_millis(CODE_GAP_MS)), None);
        i.checks.code_tries = CODE_TRIES;
        assert_eq!(i.checks.check_code("h", now), Err(CodeRefusal::Expired), "too many wrong tries");
        i.checks.contact_confirmed_at = Some(now);
        assert_eq!((i.step(true), i.step(false)), (Step::Verify, Step::Wallet));
        i.checks.verified_at = Some(now);
        assert_eq!(i.step(true), Step::Wallet);
        assert_eq!(Invitation { status: InvitationStatus::Locked, ..i }.step(true), Step::Locked);
    }

    #[test]
    fn wrong_codes_over_the_life_lock_it_whatever_the_codes() {
        let mut i = invited(Some(0));
        let now = Timestamp::from_millis(1_000);
        for _ in 1..CODE_FAILURES_TO_LOCK {
            assert!(!i.count_wrong_code(now));
        }
        assert!(i.count_wrong_code(now), "the twentieth locks it");
        assert_eq!((i.status, i.locked_at), (InvitationStatus::Locked, Some(now)));
        assert!(!i.count_wrong_code(now), "locked once");
        let mut j = invited(Some(0));
        for _ in 1..VERIFY_TRIES {
            assert!(!j.count_wrong_answer(now));
        }
        assert!(j.count_wrong_answer(now));
    }

    #[test]
    fn a_person_waits_between_sends() {
        let now = Timestamp::from_millis(MANUAL_SEND_GAP_MS * 2);
        assert_eq!(invited(None).check_manual_send(now), Ok(()));
        assert_eq!(invited(Some(now.as_millis() - MANUAL_SEND_GAP_MS)).check_manual_send(now), Ok(()));
        assert_eq!(
            invited(Some(now.as_millis() - 1_000)).check_manual_send(now),
            Err(ManualSendRefused::TooSoon { seconds: MANUAL_SEND_GAP_MS / 1000 })
        );
        let registered = Invitation { status: InvitationStatus::Registered, ..invited(None) };
        assert!(
            matches!(registered.check_manual_send(now), Err(ManualSendRefused::Invalid(i)) if i.code == "already_registered")
        );
    }
}
