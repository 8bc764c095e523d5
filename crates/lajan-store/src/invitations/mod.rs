//! Invitations to register a wallet: the transactions that approve a payout to a client without
//! one record the client's invitation as due (`queue_invitations` in `sql.rs`); the
//! notification worker claims what is due, and each send records its link (hashed), its
//! messages, its `client.invited` event and the next resend in one transaction.

use crate::messages::Outgoing;
use crate::{ClientWallet, EventFor, IdempotentResponse, NewEvent, StoreResult};
use async_trait::async_trait;
use lajan_domain::Invalid;
use lajan_domain::client::Client;
use lajan_domain::invitation::Invitation;
use lajan_domain::message::{Message, NewMessage};
use lajan_domain::payout::PayoutDetail;
use lajan_domain::receiver::ReceiverSettings;
use lajan_domain::{Tenant, Timestamp};

/// An invitation with what its message says: the client, the organization's name, its receiver
/// settings and the approved payouts waiting for the wallet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueInvitation {
    pub invitation: Invitation,
    pub client: Client,
    pub organization: String,
    pub settings: ReceiverSettings,
    /// The total waiting per asset code, in the asset's minor units (7 decimals), largest first.
    pub waiting: Vec<(String, i64)>,
}

/// One send of an invitation, as the send's transaction writes it.
pub struct InvitationSend<'a> {
    /// SHA-256 (hex) of the new link's token; the token itself is only in the messages.
    pub token_hash: &'a str,
    pub messages: &'a [NewMessage],
    /// The messages' view, for their `message.*` events.
    pub message_event: EventFor<'a, Message>,
    /// The sends the invitation had when it was read: another send since makes this one a no-op.
    pub sends_before: i64,
    pub next_send_at: Option<Timestamp>,
    pub at: Timestamp,
    /// `client.invited`.
    pub event: &'a NewEvent,
}

#[async_trait]
pub trait InvitationStore: Send + Sync {
    /// Claims up to `limit` invitations whose send is due by `now`, moving their next send
    /// `lease_ms` on so no other worker sends them meanwhile (a worker that dies before
    /// recording the send leaves it due again after the lease).
    async fn claim_due_invitations(&self, now: Timestamp, lease_ms: i64, limit: i64)
    -> StoreResult<Vec<DueInvitation>>;

    /// The invitations of the clients among `client_ids` that were ever invited: what a page of
    /// clients shows beside each.
    async fn invitations_of(&self, tenant: &Tenant, client_ids: &[String]) -> StoreResult<Vec<Invitation>>;

    /// Client `client_id`'s invitation with what its message says; `None` when it was never
    /// invited.
    async fn due_invitation(&self, tenant: &Tenant, client_id: &str) -> StoreResult<Option<DueInvitation>>;

    /// Records `send` when the invitation is still `invited` and still has `sends_before` sends:
    /// the link, the messages (queued when live), the event and the schedule. `None` when it
    /// had moved on (registered, expired, or sent by someone else first): nothing is written.
    /// A send a person asked for records its answer under their `Idempotency-Key` with it.
    async fn record_invitation_send(
        &self,
        tenant: &Tenant,
        client_id: &str,
        send: InvitationSend<'_>,
        idempotency: Option<IdempotentResponse<'_, Invitation>>,
    ) -> StoreResult<Option<Invitation>>;
}

/// One step on the registration page, as its transaction applies it to the invitation (locked).
pub struct RegistrationChange<'a> {
    /// Changes the invitation's checks (or status); whether it changed anything worth a message
    /// or an event. A refusal changes nothing.
    pub change: &'a (dyn Fn(&mut Invitation) -> Result<bool, Invalid> + Send + Sync),
    /// Queued with the change (a code to the receiver's phone).
    pub message: Option<Outgoing<'a>>,
    /// Recorded with the change (`client.verification_locked`).
    pub event: Option<EventFor<'a, Invitation>>,
    /// With a change (an unlock): the client's approved payouts waiting for the registration go
    /// back to pending approval, each with this event (`payout.approval_withdrawn`).
    pub withdrawn: Option<EventFor<'a, PayoutDetail>>,
}

/// Which page's checks a registration stands on.
#[derive(Debug, Clone, Copy)]
pub struct RegistrationProof<'a> {
    /// The wallet's deposit page the receiver passed the checks on (locked and read in the
    /// registration's transaction); `None`: the invitation's own link.
    pub deposit: Option<&'a str>,
    /// The client has a question to answer.
    pub asks_verification: bool,
}

/// The registration page's writes: a receiver who holds a link confirms their contact, answers
/// the organization's question and gives a wallet; the organization unlocks a locked one.
#[async_trait]
pub trait RegistrationStore: Send + Sync {
    /// The invitation a link opens (by the SHA-256 of its token), whatever its status; `None`
    /// for a link Lajan never sent.
    async fn invitation_by_link(&self, token_hash: &str) -> StoreResult<Option<DueInvitation>>;

    /// Applies `step` to client `client_id`'s invitation in one transaction. `NotFound` when the
    /// client was never invited.
    async fn registration_step(
        &self,
        tenant: &Tenant,
        client_id: &str,
        at: Timestamp,
        step: RegistrationChange<'_>,
    ) -> StoreResult<Invitation>;

    /// The receiver's wallet, once their checks are passed: the client takes it, the payouts
    /// waiting for it are released (as `update_client` does), the invitation is `registered`,
    /// and `event` (`client.registered`) is recorded, in one transaction. Refused
    /// (`registration_incomplete`) when the invitation, or the page `proof` names, is not at
    /// that step.
    async fn register_receiver_wallet(
        &self,
        tenant: &Tenant,
        client_id: &str,
        wallet: ClientWallet<'_>,
        proof: RegistrationProof<'_>,
        at: Timestamp,
        event: EventFor<'_, (Client, Invitation)>,
    ) -> StoreResult<(Client, Invitation)>;

    /// The client's approved payouts, newest first: what the page shows a registered receiver.
    async fn receiver_payouts(&self, tenant: &Tenant, client_id: &str, limit: i64) -> StoreResult<Vec<PayoutDetail>>;
}
