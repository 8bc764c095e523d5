//! Client use cases: create, update and archive, each with its event. A verification's answer
//! is sealed (Argon2id, as passwords are) before anything is stored.

use crate::events::client_event;
use crate::password_gate::{Caller, PasswordGate};
use crate::users::slow_hash;
use crate::{ServiceError, ServiceResult, Services};
use lajan_domain::client::{Client, ClientInput, ClientPatchInput};
use lajan_domain::id::IdKind;
use lajan_domain::payout::RELEASE_NEEDS_APPROVER;
use lajan_domain::verification::{Verification, VerificationAnswer};
use lajan_domain::{Tenant, Timestamp};
use lajan_store::{IdempotentResponse, StoreError, WaitingPayouts};

impl Services {
    /// Validates every field at once and records the client with `client.created`; one given
    /// no language speaks the settings' default.
    pub async fn create_client(
        &self,
        tenant: &Tenant,
        input: ClientInput,
        idempotency: Option<IdempotentResponse<'_, Client>>,
    ) -> ServiceResult<Client> {
        let settings = self.store.get_settings(tenant).await?;
        let language_given = input.language.is_some();
        let (mut client, answer) = input.into_client(IdKind::Client.generate(), Timestamp::now(), settings.country)?;
        if !language_given {
            client.language = settings.receivers.default_client_language;
        }
        client.verification = seal(&self.password_gate, answer).await?;
        self.store.create_client(tenant, &client, &client_event("client.created")(&client), idempotency).await?;
        Ok(client)
    }

    /// Applies a patch; `client.updated` only when something changed. A wallet given to a
    /// client that had none sends the payouts waiting for it on their way; when one of them is
    /// approved already, only a caller that may approve payouts can give it (403 otherwise).
    pub async fn update_client(
        &self,
        tenant: &Tenant,
        id: &str,
        patch: ClientPatchInput,
        may_approve_payouts: bool,
    ) -> ServiceResult<Client> {
        let country = self.store.get_settings(tenant).await?.country;
        let (mut patch, answer) = patch.parse(Timestamp::now(), country)?;
        let waiting =
            WaitingPayouts { may_release_approved: may_approve_payouts, withdrawn: Some(&crate::events::payout_event) };
        if let Some(answer) = answer {
            patch.verification = Some(seal(&self.password_gate, answer).await?);
        }
        let updated = self
            .store
            .update_client(tenant, id, &patch, waiting, Timestamp::now(), &client_event("client.updated"))
            .await;
        let (client, released) = match updated {
            Err(StoreError::Rejected(refusal)) if refusal.code == "forbidden" => {
                return Err(ServiceError::Forbidden(RELEASE_NEEDS_APPROVER));
            }
            updated => updated.map_err(ServiceError::not_found_as("client"))?,
        };
        if released > 0 {
            self.nudges.payouts_due();
        }
        Ok(client)
    }

    /// Archives the client (`client.deleted`); what references it keeps showing it.
    pub async fn archive_client(&self, tenant: &Tenant, id: &str) -> ServiceResult<Client> {
        self.store
            .archive_client(tenant, id, Timestamp::now(), &client_event("client.deleted"))
            .await
            .map_err(ServiceError::not_found_as("client"))
    }
}

/// The verification kept for `answer`: its kind and the slow hash of its normalized form.
pub(crate) async fn seal(
    gate: &PasswordGate,
    answer: Option<VerificationAnswer>,
) -> ServiceResult<Option<Verification>> {
    let Some(answer) = answer else { return Ok(None) };
    let hash = slow_hash(gate, Caller::Organization, answer.secret().to_owned()).await?;
    Ok(Some(Verification { kind: answer.kind, hash }))
}
