//! The interactive page of a wallet's SEP-24 deposit: the receiver gives the phone number (or
//! email) the organization knows, confirms it with a code and answers the organization's
//! question, exactly as on their invitation's page; then the account the wallet authenticated is
//! registered, with no address typed, and the deposit follows the payout that was waiting.

use crate::Services;
use crate::error::{ServiceError, ServiceResult};
use crate::invitations::token_hash;
use crate::registration::Registration;
use lajan_domain::client::{Email, PhoneNumber};
use lajan_domain::invitation::Step;
use lajan_domain::payout::{ApprovalStatus, ExecStatus};
use lajan_domain::wallet_deposit::WalletDeposit;
use lajan_domain::{Invalid, Timestamp};
use lajan_store::LinkedDeposit;

/// The most contacts one deposit's page takes: enough for a typo or two, too few to search
/// for whose phone has an invitation.
pub const CONTACT_TRIES: i64 = 5;

/// What a deposit's page link opens.
#[derive(Debug)]
pub struct WalletRegistration {
    pub deposit: WalletDeposit,
    /// The receiver's registration, once a contact given matched their open invitation.
    pub registration: Option<Registration>,
    /// Whether a contact was given: the page then asks for the code, matched or not, so it never
    /// tells which contacts have an invitation.
    pub contact_given: bool,
    pub contact_tries: i64,
}

fn refused(code: &'static str, message: &str) -> ServiceError {
    ServiceError::Invalid(Invalid::new(code, message))
}

/// A phone number as clients' are kept (E.164; eight digits alone are a Haitian number, spaces,
/// dots, dashes and brackets dropped, `00` read as `+`), or an email; `None` for neither.
fn contact(raw: &str) -> Option<(Option<String>, Option<String>)> {
    let raw = raw.trim();
    if raw.contains('@') {
        return Email::parse(raw).ok().map(|_| (None, Some(raw.to_lowercase())));
    }
    let kept: String = raw.chars().filter(|c| !matches!(c, ' ' | '.' | '-' | '(' | ')' | '\u{a0}')).collect();
    let e164 = match kept.strip_prefix("00") {
        Some(rest) => format!("+{rest}"),
        None if kept.len() == 8 && kept.bytes().all(|b| b.is_ascii_digit()) => format!("+509{kept}"),
        None => kept,
    };
    PhoneNumber::parse(&e164).ok().map(|p| (Some(p.as_str().to_owned()), None))
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
        let Some(LinkedDeposit { deposit, receiver, contact_tries }) =
            self.store.wallet_deposit_by_link(&token_hash(token)).await?
        else {
            return Ok(None);
        };
        let expired = Timestamp::now().as_millis() > deposit.link_expires_at.as_millis();
        if deposit.registered_at.is_none() && expired {
            return Ok(None);
        }
        let registration = match &receiver {
            Some((tenant, client_id)) => self.registration_of(tenant, client_id).await?,
            None => None,
        };
        Ok(Some(WalletRegistration { deposit, registration, contact_given: contact_tries > 0, contact_tries }))
    }

    /// Takes the contact the receiver gives: when it is an open invitation's, the deposit is
    /// bound to it and a code goes to that phone (or email). The answer is the same either way.
    pub async fn give_wallet_contact(&self, w: &WalletRegistration, raw: &str) -> ServiceResult<()> {
        if w.registration.is_some() || w.deposit.registered_at.is_some() {
            return Err(refused("wrong_step", "This step is done already"));
        }
        if w.contact_tries >= CONTACT_TRIES {
            return Err(refused("too_many_contacts", "Too many contacts were tried: start again from the wallet"));
        }
        let (phone, email) = contact(raw)
            .ok_or_else(|| refused("invalid_contact", "Enter a phone number like +509 3700 0000, or an email"))?;
        let found = self.store.invited_by_contact(w.deposit.env, phone.as_deref(), email.as_deref()).await?;
        let now = Timestamp::now();
        self.store.give_deposit_contact(&w.deposit.id, found.as_ref().map(|(t, c)| (t, c.as_str())), now).await?;
        if let Some((tenant, client_id)) = found
            && let Some(r) = self.registration_of(&tenant, &client_id).await?
            && r.step == Step::ConfirmContact
        {
            match self.send_registration_code(&r).await {
                // A code sent a moment ago (from the invitation's page) still works.
                Ok(()) | Err(ServiceError::TooSoon { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Registers the wallet's account (with the id memo its token named) for the receiver, once
    /// their contact is confirmed and their answer given; the deposit then follows the oldest
    /// payout that was waiting for them.
    pub async fn finish_wallet_registration(&self, w: &WalletRegistration) -> ServiceResult<()> {
        let Some(r) = &w.registration else { return Err(refused("wrong_step", "Confirm your contact first")) };
        let memo = w.deposit.memo.map(|m| m.to_string()).unwrap_or_default();
        self.register_receiver_wallet(r, &w.deposit.account, &memo).await?;
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
