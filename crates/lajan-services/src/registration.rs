//! The registration page's steps, for whoever holds an invitation's link: confirm the phone (or
//! email) with a code, answer the organization's question, give a Stellar address that can take
//! what waits; and the organization's unlock of an invitation locked by wrong answers.

use crate::error::{ServiceError, ServiceResult};
use crate::events::{invitation_event, message_event};
use crate::invitations::token_hash;
use crate::password_gate::Caller;
use crate::users::password_matches;
use crate::wallet_links::WalletLink;
use crate::{Services, assets};
use lajan_domain::client::{Client, WalletAddress};
use lajan_domain::id::IdKind;
use lajan_domain::invitation::{
    CONTACT_WRONG_CODES_PER_DAY, CodeRefusal, Invitation, InvitationStatus, RegistrationChecks, Step,
};
use lajan_domain::message::{Channel, NewMessage};
use lajan_domain::payout::PayoutDetail;
use lajan_domain::stellar_memo::StellarMemo;
use lajan_domain::verification::VerificationAnswer;
use lajan_domain::{Actor, Invalid, Tenant, Timestamp};
use lajan_i18n::{Lang, text};
use lajan_ledger::Reach;
use lajan_store::messages::Outgoing;
use lajan_store::{
    ClientWallet, DepositChange, DueInvitation, NewEvent, PageChange, RegistrationChange, RegistrationProof,
};

/// The most payouts the page lists for a registered receiver.
const PAYOUTS_SHOWN: i64 = 20;

/// What a link opens: the invitation with what its page shows, and the step it is at.
#[derive(Debug)]
pub struct Registration {
    pub due: DueInvitation,
    pub step: Step,
    /// The receiver's approved payouts, newest first, once registered.
    pub payouts: Vec<PayoutDetail>,
    /// "Open in <wallet>" links, until the receiver is registered.
    pub wallet_links: Vec<WalletLink>,
}

impl Registration {
    pub fn tenant(&self) -> &Tenant {
        &self.due.invitation.tenant
    }

    pub fn lang(&self) -> Lang {
        Lang::parse(self.due.client.language.as_str()).unwrap_or(Lang::Ht)
    }
}

fn locked_refusal() -> ServiceError {
    refused("locked", "Too many wrong answers: the organization must unlock it")
}

/// Why a step was refused, for the page to say in the receiver's language (its `code` names the
/// words: `register-refused-<code>`).
fn refused(code: &'static str, message: &str) -> ServiceError {
    ServiceError::Invalid(Invalid::new(code, message))
}

/// An event about an invitation: the client with it (as `client.invited`).
fn invited_event<'a>(
    event_type: &'static str,
    client: &'a Client,
) -> impl Fn(&Invitation) -> NewEvent + Send + Sync + 'a {
    move |i| invitation_event(event_type, client, i)
}

/// The page a receiver passes the checks on: each proves the contact with its own code, and a
/// registration stands only on what its own page proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckPage<'a> {
    /// The invitation's link, which Lajan sent to the receiver.
    Link,
    /// A wallet's deposit page (its id), which anyone with a SEP-10 token can open.
    Deposit(&'a str),
}

impl CheckPage<'_> {
    /// What a code sent for this page is kept as: bound to the client on their link, to the
    /// deposit on a deposit's page, so a code never works on another page.
    pub(crate) fn code_hash(self, client_id: &str, code: &str) -> String {
        match self {
            CheckPage::Link => token_hash(&format!("{client_id}:{code}")),
            CheckPage::Deposit(id) => token_hash(&format!("{id}:{code}")),
        }
    }
}

/// Six digits, each of the million equally likely.
pub(crate) fn six_digits() -> ServiceResult<String> {
    loop {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).map_err(|e| ServiceError::Unavailable(format!("no randomness for a code: {e}")))?;
        let n = u32::from_le_bytes(bytes);
        // The largest multiple of a million below 2^32: above it, `% 1_000_000` would favour low codes.
        if n < 4_294_000_000 {
            return Ok(format!("{:06}", n % 1_000_000));
        }
    }
}

/// The message carrying a registration code to the receiver's phone (or email), in their
/// language.
pub(crate) fn code_message(r: &Registration, code: &str) -> ServiceResult<NewMessage> {
    let client = &r.due.client;
    let words = text(r.lang(), "register-code-sms", &[("org", r.due.organization.clone()), ("code", code.to_owned())]);
    let (channel, recipient, subject) = match (&client.phone_number, &client.email) {
        (Some(phone), _) => (Channel::Sms, phone.clone(), None),
        (None, Some(email)) => (Channel::Email, email.clone(), Some(text(r.lang(), "register-code-subject", &[]))),
        (None, None) => return Err(refused("no_channel_available", "The client has no phone number or email")),
    };
    Ok(NewMessage {
        id: IdKind::Message.generate(),
        template: "registration_code",
        language: r.lang().code().to_owned(),
        channel,
        recipient,
        subject,
        body_text: words,
        body_html: None,
    })
}

impl Services {
    /// What the link `token` opens; `None` for a link Lajan never sent.
    pub async fn registration(&self, token: &str) -> ServiceResult<Option<Registration>> {
        let Some(due) = self.store.invitation_by_link(&token_hash(token)).await? else { return Ok(None) };
        self.registration_from(due).await.map(Some)
    }

    /// The registration of `client_id`'s invitation, reached some other way than its link (a
    /// wallet's deposit page that found the client by contact); `None` once it is gone.
    pub async fn registration_of(&self, tenant: &Tenant, client_id: &str) -> ServiceResult<Option<Registration>> {
        let Some(due) = self.store.due_invitation(tenant, client_id).await? else { return Ok(None) };
        self.registration_from(due).await.map(Some)
    }

    async fn registration_from(&self, mut due: DueInvitation) -> ServiceResult<Registration> {
        let receiver = Actor::System(Actor::REGISTRATION_PAGE.to_owned());
        due.invitation.tenant = due.invitation.tenant.clone().acting_as(receiver);
        let step = due.invitation.step(due.client.verification.is_some());
        let payouts = if step == Step::Registered {
            self.store.receiver_payouts(&due.invitation.tenant, &due.client.id, PAYOUTS_SHOWN).await?
        } else {
            Vec::new()
        };
        let wallet_links = match step {
            Step::ConfirmContact | Step::Verify | Step::Wallet => self.wallet_links(&due).await?,
            Step::Registered | Step::Locked | Step::Expired => Vec::new(),
        };
        Ok(Registration { due, step, payouts, wallet_links })
    }

    /// Sends a code to the receiver's phone (or email), in their language; at most one a minute.
    pub async fn send_registration_code(&self, r: &Registration) -> ServiceResult<()> {
        if r.step != Step::ConfirmContact {
            return Err(refused("wrong_step", "This step is done already"));
        }
        let now = Timestamp::now();
        if let Some(seconds) = r.due.invitation.code_wait(now) {
            return Err(ServiceError::TooSoon {
                message: "A code was sent less than a minute ago",
                retry_after_seconds: u64::try_from(seconds).unwrap_or(1),
            });
        }
        let client = &r.due.client;
        let code = six_digits()?;
        let message = code_message(r, &code)?;
        let hash = CheckPage::Link.code_hash(&client.id, &code);
        let sent_before = r.due.invitation.checks.code_sent_at;
        let change = move |i: &mut Invitation| {
            // Another code went out since the page was read: that one stands.
            if i.status != InvitationStatus::Invited || i.checks.code_sent_at != sent_before {
                return Ok(false);
            }
            i.checks.code_hash = Some(hash.clone());
            i.checks.code_sent_at = Some(now);
            i.checks.code_tries = 0;
            Ok(true)
        };
        let step = RegistrationChange {
            change: &change,
            message: Some(Outgoing { message: &message, event: &message_event }),
            event: None,
            withdrawn: None,
        };
        self.store.registration_step(r.tenant(), &client.id, now, step).await?;
        self.nudges.messages_queued();
        Ok(())
    }

    /// Confirms the receiver's contact on `page` with the code sent for it. `r`: the receiver
    /// the page is for (a deposit's page whose contact matched nobody has none, and every code
    /// is wrong there, as a wrong one would be).
    pub async fn confirm_registration_code(
        &self,
        r: Option<&Registration>,
        page: CheckPage<'_>,
        entered: &str,
    ) -> ServiceResult<()> {
        if r.is_some_and(|r| r.step != Step::ConfirmContact) {
            return Err(refused("wrong_step", "This step is done already"));
        }
        let entered: String = entered.chars().filter(char::is_ascii_digit).collect();
        let hash = page.code_hash(r.map_or("", |r| r.due.client.id.as_str()), &entered);
        let now = Timestamp::now();
        let outcome = std::sync::Mutex::new(None);
        let change = |checks: &mut RegistrationChecks, i: Option<&mut Invitation>, wrong_today: i64| {
            // The contact's guesses on every deposit page together: past the day's, no code
            // is checked at all (a right one would tell the guesser it is right).
            let checked = if wrong_today >= CONTACT_WRONG_CODES_PER_DAY {
                Err(None)
            } else {
                checks.check_code(&hash, now).map_err(Some)
            };
            let mut locked = false;
            match checked {
                Ok(()) => {
                    checks.contact_confirmed_at = Some(now);
                    checks.code_hash = None;
                }
                Err(Some(CodeRefusal::Wrong)) => {
                    checks.code_tries += 1;
                    locked = i.is_some_and(|i| i.count_wrong_code(now));
                }
                Err(_) => {}
            }
            *outcome.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(checked);
            Ok(locked)
        };
        let locked = r.map(|r| invited_event("client.verification_locked", &r.due.client));
        let after = self.page_step(r, page, now, &change, locked.as_ref().map(|e| e as _)).await?;
        match outcome.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
            Some(Ok(())) => Ok(()),
            // A deposit's page that has not proved the contact never says whether it has an
            // invitation, locked or not: its wrong code reads as every wrong code does.
            _ if page == CheckPage::Link && after.is_some_and(|i| i.status == InvitationStatus::Locked) => {
                Err(locked_refusal())
            }
            Some(Err(Some(CodeRefusal::Wrong))) => Err(refused("wrong_code", "That is not the code we sent")),
            Some(Err(None)) => {
                Err(refused("too_many_codes", "Too many wrong codes for this contact: try again tomorrow"))
            }
            _ => Err(refused("code_expired", "The code expired: ask for a new one")),
        }
    }

    /// Applies `change` to `page`'s checks (and the invitation of `r`) in one transaction; the
    /// invitation after it.
    async fn page_step(
        &self,
        r: Option<&Registration>,
        page: CheckPage<'_>,
        now: Timestamp,
        change: &PageChange<'_>,
        event: Option<lajan_store::EventFor<'_, Invitation>>,
    ) -> ServiceResult<Option<Invitation>> {
        match (page, r) {
            (CheckPage::Deposit(id), _) => {
                let step = DepositChange { change, event };
                Ok(self.store.deposit_step(id, now, step).await?.1)
            }
            (CheckPage::Link, Some(r)) => {
                let on_link = |i: &mut Invitation| {
                    let mut checks = std::mem::take(&mut i.checks);
                    let changed = change(&mut checks, Some(&mut *i), 0);
                    i.checks = checks;
                    changed
                };
                let step = RegistrationChange { change: &on_link, message: None, event, withdrawn: None };
                Ok(Some(self.store.registration_step(r.tenant(), &r.due.client.id, now, step).await?))
            }
            (CheckPage::Link, None) => Err(ServiceError::NotFound("invitation")),
        }
    }

    /// Checks the receiver's answer to the organization's question on `page`; the fifth wrong
    /// answer, from any page, locks the invitation (`client.verification_locked`) until the
    /// organization unlocks it.
    pub async fn answer_registration_question(
        &self,
        r: &Registration,
        page: CheckPage<'_>,
        raw: &str,
    ) -> ServiceResult<()> {
        let client = &r.due.client;
        let Some(kept) = client.verification.as_ref().filter(|_| r.step == Step::Verify) else {
            return Err(refused("wrong_step", "There is no question to answer now"));
        };
        let now = Timestamp::now();
        let answer = VerificationAnswer::parse(kept.kind, raw, now).map_err(|rule| refused("invalid_answer", &rule))?;
        let right = password_matches(&self.password_gate, Caller::Anonymous, answer.secret(), &kept.hash).await?;
        let change = move |checks: &mut RegistrationChecks, i: Option<&mut Invitation>, _: i64| {
            let Some(i) = i.filter(|i| i.status == InvitationStatus::Invited) else { return Ok(false) };
            if right {
                checks.verified_at = Some(now);
                return Ok(false);
            }
            Ok(i.count_wrong_answer(now))
        };
        let locked = invited_event("client.verification_locked", client);
        let after = self.page_step(Some(r), page, now, &change, Some(&locked)).await?;
        match after.map(|i| i.status) {
            Some(InvitationStatus::Invited) if right => Ok(()),
            Some(InvitationStatus::Locked) => Err(locked_refusal()),
            // Right, but the invitation moved on in between (locked, expired) from another tab.
            _ if right => Err(refused("wrong_step", "There is no question to answer now")),
            _ => Err(refused("wrong_answer", "That answer does not match what the organization knows")),
        }
    }

    /// Takes the receiver's Stellar address (and the memo their wallet needs, when it gives
    /// one) once it can receive every asset waiting for them: the payouts go on their way
    /// (`client.registered`).
    pub async fn register_receiver_wallet(
        &self,
        r: &Registration,
        page: CheckPage<'_>,
        raw: &str,
        memo: &str,
    ) -> ServiceResult<Client> {
        if r.step != Step::Wallet {
            return Err(refused("wrong_step", "This invitation cannot take an address now"));
        }
        let wallet = WalletAddress::parse(raw.trim()).map_err(|rule| refused("invalid_address", &rule))?;
        let memo = match memo.trim() {
            "" => None,
            given => {
                Some(StellarMemo::parse(given, None).map_err(|rule| refused("invalid_memo", &format!("memo {rule}")))?)
            }
        };
        let tenant = r.tenant();
        let ledger = self.ledgers.of(tenant).ok_or_else(|| {
            ServiceError::Unavailable("No live Stellar network is configured to check the address on".into())
        })?;
        let assets: Vec<(String, Option<String>)> = r
            .due
            .waiting
            .iter()
            .map(|(code, _)| (code.clone(), assets::issuer(tenant.env, code, &self.config.live_asset_issuers)))
            .collect();
        match ledger.reach(wallet.as_str(), &assets).await.map_err(|e| ServiceError::Unavailable(e.to_string()))? {
            Reach::Ready => {}
            Reach::NoAccount => return Err(refused("no_account", "This account does not exist on the network yet")),
            Reach::NoTrustline(code) => {
                let message = format!("This account cannot hold {code} yet: add {code} in the wallet first");
                let asset = lajan_domain::FieldError::new("asset", code);
                return Err(ServiceError::Invalid(Invalid { code: "no_trustline", message, details: vec![asset] }));
            }
        }
        let event =
            |(client, invitation): &(Client, Invitation)| invitation_event("client.registered", client, invitation);
        let proof = RegistrationProof {
            deposit: match page {
                CheckPage::Link => None,
                CheckPage::Deposit(id) => Some(id),
            },
            asks_verification: r.due.client.verification.is_some(),
        };
        let given = ClientWallet { address: wallet.as_str(), memo: memo.as_ref() };
        let (client, _) = self
            .store
            .register_receiver_wallet(tenant, &r.due.client.id, given, proof, Timestamp::now(), &event)
            .await?;
        self.nudges.payouts_due();
        Ok(client)
    }

    /// The organization lets a receiver who gave too many wrong answers try again.
    pub async fn unlock_invitation(&self, tenant: &Tenant, client_id: &str) -> ServiceResult<Invitation> {
        let change = |i: &mut Invitation| {
            if i.status != InvitationStatus::Locked {
                return Err(Invalid::new("not_locked", "This invitation is not locked"));
            }
            i.status = InvitationStatus::Invited;
            i.locked_at = None;
            i.verify_failures = 0;
            i.code_failures = 0;
            Ok(true)
        };
        let client = self.store.get_client(tenant, client_id).await?.ok_or(ServiceError::NotFound("client"))?;
        let unlocked = invited_event("client.verification_unlocked", &client);
        // Letting a receiver try again decides who may register the wallet approved money goes
        // to: what waits goes back to an approver.
        let step = RegistrationChange {
            change: &change,
            message: None,
            event: Some(&unlocked),
            withdrawn: Some(&crate::events::payout_event),
        };
        self.store
            .registration_step(tenant, client_id, Timestamp::now(), step)
            .await
            .map_err(ServiceError::not_found_as("invitation"))
    }
}
