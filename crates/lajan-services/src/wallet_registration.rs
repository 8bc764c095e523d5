//! The interactive page of a wallet's SEP-24 deposit: the receiver gives the phone number (or
//! email) the organization knows, confirms it with a code and answers the organization's
//! question, exactly as on their invitation's page; then the account the wallet authenticated is
//! registered, with no address typed, and the deposit follows the payout that was waiting.
//!
//! Anyone with a SEP-10 token opens such a page, so it proves everything itself: its own code
//! (bound to the deposit), its own confirmation and answer. It never inherits what the receiver
//! proved on their own link, and until its code is confirmed it answers the same whether or not
//! the contact has an invitation.

use crate::Services;
use crate::error::{ServiceError, ServiceResult};
use crate::invitations::token_hash;
use crate::registration::{CheckPage, Registration, code_message, six_digits};
use lajan_domain::client::Email;
use lajan_domain::invitation::{RegistrationChecks, Step};
use lajan_domain::payout::{ApprovalStatus, ExecStatus};
use lajan_domain::phone::{PhoneCountry, PhoneNumber};
use lajan_domain::wallet_deposit::WalletDeposit;
use lajan_domain::{Invalid, Timestamp};
use lajan_store::messages::Outgoing;
use lajan_store::{CodeSend, DepositCode, LinkedDeposit};

/// The most contacts one deposit's page takes: enough for a typo or two, too few to search
/// for whose phone has an invitation.
pub const CONTACT_TRIES: i64 = 5;

/// What a deposit's page link opens.
#[derive(Debug)]
pub struct WalletRegistration {
    pub deposit: WalletDeposit,
    /// The receiver's registration, once a contact given matched their open invitation; its
    /// step is where this page stands (its own checks), not where the invitation's link does.
    pub registration: Option<Registration>,
    /// Whether a contact was given: the page then asks for the code, matched or not, so it never
    /// tells which contacts have an invitation.
    pub contact_given: bool,
    pub contact_tries: i64,
    /// What this page proved itself.
    pub checks: RegistrationChecks,
    contact_hash: Option<String>,
}

impl WalletRegistration {
    /// Whether this page confirmed its contact with its own code: until then it shows nothing
    /// of the receiver it may be bound to.
    pub fn contact_confirmed(&self) -> bool {
        self.checks.contact_confirmed_at.is_some()
    }

    fn page(&self) -> CheckPage<'_> {
        CheckPage::Deposit(&self.deposit.id)
    }
}

fn refused(code: &'static str, message: &str) -> ServiceError {
    ServiceError::Invalid(Invalid::new(code, message))
}

/// A phone number as clients' are kept (read as a Haitian number when written without its
/// country code: the page is open before it knows whose invitation it answers), or an email;
/// `None` for neither.
fn contact(raw: &str) -> Option<(Option<String>, Option<String>)> {
    let raw = raw.trim();
    if raw.contains('@') {
        return Email::parse(raw).ok().map(|_| (None, Some(raw.to_lowercase())));
    }
    PhoneNumber::parse_in(raw, PhoneCountry::HAITI).ok().map(|p| (Some(p.into_string()), None))
}

impl Services {
    /// What the page link `token` opens; `None` for a link Lajan never made, or one that expired
    /// before its registration was finished.
    pub async fn wallet_registration(&self, token: &str) -> ServiceResult<Option<WalletRegistration>> {
        let Some(w) = self.read_wallet_registration(token).await? else { return Ok(None) };
        // Registered with this wallet's account, but the deposit was not marked (the process
        // stopped between the two): mark it now, so the wallet sees it.
        let unmarked = w.deposit.registered_at.is_none()
            && w.registration.as_ref().is_some_and(|r| {
                r.step == Step::Registered
                    && r.due.client.wallet_account_id.as_ref().is_some_and(|a| a.as_str() == w.deposit.account)
            });
        if !unmarked {
            return Ok(Some(w));
        }
        self.follow_payout(&w).await?;
        self.read_wallet_registration(token).await
    }

    async fn read_wallet_registration(&self, token: &str) -> ServiceResult<Option<WalletRegistration>> {
        let Some(LinkedDeposit { deposit, receiver, contact_tries, checks, contact_hash }) =
            self.store.wallet_deposit_by_link(&token_hash(token)).await?
        else {
            return Ok(None);
        };
        let expired = Timestamp::now().as_millis() > deposit.link_expires_at.as_millis();
        if deposit.registered_at.is_none() && expired {
            return Ok(None);
        }
        let mut registration = match &receiver {
            Some((tenant, client_id)) => self.registration_of(tenant, client_id).await?,
            None => None,
        };
        if let Some(r) = registration.as_mut() {
            r.step = r.due.invitation.step_on(&checks, r.due.client.verification.is_some());
        }
        let contact_given = contact_hash.is_some();
        Ok(Some(WalletRegistration { deposit, registration, contact_given, contact_tries, checks, contact_hash }))
    }

    /// Takes the contact the receiver gives and sends a code for this page to it when it is an
    /// open invitation's (binding the page to it). The answer, and the work done, are the same
    /// whether or not it matched: a code is made and kept either way, and only sent on a match.
    pub async fn give_wallet_contact(&self, w: &WalletRegistration, raw: &str) -> ServiceResult<()> {
        if w.deposit.registered_at.is_some() || w.contact_confirmed() {
            return Err(refused("wrong_step", "This step is done already"));
        }
        if w.contact_tries >= CONTACT_TRIES {
            return Err(refused("too_many_contacts", "Too many contacts were tried: start again from the wallet"));
        }
        let (phone, email) = contact(raw)
            .ok_or_else(|| refused("invalid_contact", "Enter a phone number like +509 3700 0000, or an email"))?;
        let contact_hash = token_hash(phone.as_deref().or(email.as_deref()).unwrap_or_default());
        let found = self.store.invited_by_contact(w.deposit.env, phone.as_deref(), email.as_deref()).await?;
        let receiver = match &found {
            Some((tenant, client_id)) => self.registration_of(tenant, client_id).await?,
            None => None,
        };
        let receiver = receiver.filter(|r| r.step != Step::Registered);
        self.send_wallet_code(w, &contact_hash, receiver.as_ref(), true).await
    }

    /// Another code for this page's contact (sent only when it matched).
    pub async fn resend_wallet_code(&self, w: &WalletRegistration) -> ServiceResult<()> {
        let Some(contact_hash) = w.contact_hash.as_deref().filter(|_| !w.contact_confirmed()) else {
            return Err(refused("wrong_step", "This step is done already"));
        };
        self.send_wallet_code(w, contact_hash, w.registration.as_ref(), false).await
    }

    async fn send_wallet_code(
        &self,
        w: &WalletRegistration,
        contact_hash: &str,
        receiver: Option<&Registration>,
        new_contact: bool,
    ) -> ServiceResult<()> {
        let code = six_digits()?;
        let message = receiver.map(|r| code_message(r, &code)).transpose()?;
        let client_id = receiver.map_or("", |r| r.due.client.id.as_str());
        let code_hash = w.page().code_hash(client_id, &code);
        let send = DepositCode {
            contact_hash,
            receiver: receiver.map(|r| (r.tenant(), r.due.client.id.as_str())),
            code_hash: &code_hash,
            message: message.as_ref().map(|m| Outgoing { message: m, event: &crate::events::message_event }),
            new_contact,
        };
        match self.store.send_deposit_code(&w.deposit.id, send, Timestamp::now()).await? {
            CodeSend::Sent => {
                self.nudges.messages_queued();
                Ok(())
            }
            CodeSend::TooSoon(seconds) => Err(ServiceError::TooSoon {
                message: "A code was sent less than a minute ago",
                retry_after_seconds: u64::try_from(seconds).unwrap_or(1),
            }),
            CodeSend::ContactBusy => {
                Err(refused("contact_busy", "Too many codes went to this contact: try again in an hour"))
            }
            CodeSend::Gone => Err(refused("wrong_step", "This step is done already")),
        }
    }

    /// Confirms this page's contact with the code sent for it.
    pub async fn confirm_wallet_code(&self, w: &WalletRegistration, entered: &str) -> ServiceResult<()> {
        if !w.contact_given || w.contact_confirmed() {
            return Err(refused("wrong_step", "This step is done already"));
        }
        self.confirm_registration_code(w.registration.as_ref(), w.page(), entered).await
    }

    /// The organization's question, answered on this page once its contact is confirmed.
    pub async fn answer_wallet_question(&self, w: &WalletRegistration, raw: &str) -> ServiceResult<()> {
        match &w.registration {
            Some(r) if w.contact_confirmed() => self.answer_registration_question(r, w.page(), raw).await,
            _ => Err(refused("wrong_step", "Confirm your contact first")),
        }
    }

    /// Registers the wallet's account (with the id memo its token named) for the receiver, once
    /// their contact is confirmed and their answer given; the deposit then follows the oldest
    /// payout that was waiting for them.
    pub async fn finish_wallet_registration(&self, w: &WalletRegistration) -> ServiceResult<()> {
        let Some(r) = w.registration.as_ref().filter(|_| w.contact_confirmed()) else {
            return Err(refused("wrong_step", "Confirm your contact first"));
        };
        let memo = w.deposit.memo.map(|m| m.to_string()).unwrap_or_default();
        self.register_receiver_wallet(r, w.page(), &w.deposit.account, &memo).await?;
        self.follow_payout(w).await
    }

    /// Marks the deposit registered, following the receiver's oldest approved payout not yet
    /// sent (else their latest).
    async fn follow_payout(&self, w: &WalletRegistration) -> ServiceResult<()> {
        let Some(r) = &w.registration else { return Ok(()) };
        let payouts = self.store.receiver_payouts(r.tenant(), &r.due.client.id, 20).await?;
        let followed = payouts
            .iter()
            .rev()
            .find(|d| d.payout.approval == ApprovalStatus::Approved && d.payout.exec != ExecStatus::Sent)
            .or_else(|| payouts.last());
        let payout_id = followed.map(|d| d.payout.id.as_str());
        Ok(self.store.register_wallet_deposit(&w.deposit.id, payout_id, Timestamp::now()).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::contact;

    #[test]
    fn a_contact_is_read_as_clients_keep_theirs() {
        let phone = |p: &str| Some((Some(p.to_owned()), None));
        assert_eq!(contact("+509 37 00-0001"), phone("+50937000001"));
        assert_eq!(contact("3700 0001"), phone("+50937000001"), "eight digits: Haiti");
        assert_eq!(contact("00509 (37) 00.00.01"), phone("+50937000001"));
        assert_eq!(contact("Rose@Example.ht"), Some((None, Some("rose@example.ht".to_owned()))));
        for bad in ["", "12", "hello", "+0123456789", "rose@"] {
            assert_eq!(contact(bad), None, "{bad}");
        }
    }
}
