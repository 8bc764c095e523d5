//! Invitations to register a wallet: the notification worker's step that sends what is due,
//! a send a person asks for (`POST /v1/clients/{id}/invite`), and the link each send carries.

use crate::error::{ServiceError, ServiceResult};
use crate::events::{invitation_event, message_event};
use crate::messages::invitation_messages;
use crate::{Services, error::error_chain};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use lajan_domain::invitation::{self, Invitation, ManualSendRefused};
use lajan_domain::{Tenant, Timestamp};
use lajan_store::{DueInvitation, IdempotentResponse, InvitationSend, StoreResult};
use sha2::{Digest, Sha256};

/// How long a claimed invitation belongs to the worker sending it.
const CLAIM_LEASE_MS: i64 = 5 * 60 * 1000;
/// Invitations one step sends at most; the next step takes the rest.
const CLAIM_SIZE: i64 = 100;

/// A new link's token (128 random bits, 22 URL-safe characters) and the SHA-256 the store keeps.
pub(crate) fn new_token() -> ServiceResult<(String, String)> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ServiceError::Unavailable(format!("no randomness for a link: {e}")))?;
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let hash = token_hash(&token);
    Ok((token, hash))
}

/// What the store keeps of a link's token, and looks a visited link up by.
pub fn token_hash(token: &str) -> String {
    lajan_domain::hex::encode(&Sha256::digest(token.as_bytes()))
}

impl Services {
    /// The notification worker's step: sends every invitation whose first send or resend is
    /// due by `now`, each in its own transaction; how many went out.
    pub async fn send_due_invitations(&self, now: Timestamp) -> StoreResult<usize> {
        let due = self.store.claim_due_invitations(now, CLAIM_LEASE_MS, CLAIM_SIZE).await?;
        let mut sent = 0;
        for d in &due {
            match self.send_invitation(&d.invitation.tenant, d, now, None).await {
                Ok(Some(_)) => sent += 1,
                Ok(None) => {}
                // Left due: it is tried again when the claim's lease ends (the client may get a
                // phone number meanwhile).
                Err(ServiceError::Store(e)) => return Err(e),
                Err(e) => {
                    tracing::warn!(client = %d.client.id, error = %error_chain(&e), "an invitation could not be sent")
                }
            }
        }
        if sent > 0 {
            self.nudges.messages_queued();
        }
        Ok(sent)
    }

    /// Sends client `client_id`'s invitation now, at a person's request: refused when no
    /// approved payout waits for the client's wallet, and within minutes of the last send.
    pub async fn invite_client(
        &self,
        tenant: &Tenant,
        client_id: &str,
        idempotency: Option<IdempotentResponse<'_, Invitation>>,
    ) -> ServiceResult<Invitation> {
        let client = self.store.get_client(tenant, client_id).await?.ok_or(ServiceError::NotFound("client"))?;
        if client.wallet_account_id.is_some() {
            return Err(invitation::already_registered().into());
        }
        let due = self.store.due_invitation(tenant, client_id).await?.ok_or_else(invitation::nothing_waiting)?;
        let now = Timestamp::now();
        due.invitation.check_manual_send(now).map_err(|refused| match refused {
            ManualSendRefused::Invalid(invalid) => ServiceError::Invalid(invalid),
            ManualSendRefused::TooSoon { seconds } => ServiceError::TooSoon {
                message: "This invitation was sent minutes ago: wait before sending it again",
                retry_after_seconds: u64::try_from(seconds).unwrap_or(1),
            },
        })?;
        let sent = self.send_invitation(tenant, &due, now, idempotency).await?;
        self.nudges.messages_queued();
        // `None`: the worker sent it in between; that send is the answer.
        match sent {
            Some(invitation) => Ok(invitation),
            None => Ok(self
                .store
                .due_invitation(tenant, client_id)
                .await?
                .ok_or(ServiceError::NotFound("client"))?
                .invitation),
        }
    }

    /// One send of `d`: a new link, the messages in the client's language, `client.invited`, and
    /// the next resend. `None` when the invitation moved on since it was read.
    async fn send_invitation(
        &self,
        tenant: &Tenant,
        d: &DueInvitation,
        at: Timestamp,
        idempotency: Option<IdempotentResponse<'_, Invitation>>,
    ) -> ServiceResult<Option<Invitation>> {
        let (token, token_hash) = new_token()?;
        let link = self.public_link(&format!("/r/{token}"));
        let messages = invitation_messages(d, &link)?;
        let sends = d.invitation.sends + 1;
        let after = Invitation {
            sends,
            last_sent_at: Some(at),
            next_send_at: Invitation::next_send_after(sends, at, &d.settings),
            ..d.invitation.clone()
        };
        let event = invitation_event("client.invited", &d.client, &after);
        let send = InvitationSend {
            token_hash: &token_hash,
            messages: &messages,
            message_event: &message_event,
            sends_before: d.invitation.sends,
            next_send_at: after.next_send_at,
            at,
            event: &event,
        };
        Ok(self.store.record_invitation_send(tenant, &d.client.id, send, idempotency).await?)
    }
}
